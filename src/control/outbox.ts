import { Type } from 'typebox'
import { OUTBOX_CHANNELS, type OutboxMessage } from '../domain/model.js'
import { HttpProblem, problem } from '../core/problem.js'
import { controlRoute, respond, type ControlRoute } from './route.js'
import { Enum, StrictObject } from '../core/schemas/common.js'
import { NextCursor, pageQueryFields, paginate, queryKey, type PagedList } from '../core/paging.js'
import { BODY_PROBLEMS, CONTROL_LIST_LIMITS, CONTROL_TAGS, ListOrder, NoContent, responses } from './schemas.js'

const Channel = Enum(OUTBOX_CHANNELS)

export const OutboxMessageSchema = Type.Object({
  id: Type.String(),
  channel: Channel,
  to: Type.String({ description: 'E-mail address or E.164 phone number, unmasked' }),
  subject: Type.Optional(Type.String()),
  body: Type.String(),
  kind: Type.String({ description: 'The operation that sent it, e.g. sendPhoneVerificationCode' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'Machine-readable extras: the MFA code (data.code), the statement id' }),
  customerId: Type.String(),
  sentAt: Type.String()
})

const Recipient = Type.String({ minLength: 1, maxLength: 254, description: 'Exact recipient. Encode + as %2B; an unencoded + (read as a space) is accepted too' })

/** In the order of delivery. */
const OUTBOX_PAGES: PagedList<{ seq: number; message: OutboxMessage }> = { name: 'outbox', positionKinds: ['number'], position: m => [m.seq], ...CONTROL_LIST_LIMITS }

const OutboxQuery = StrictObject({
  channel: Type.Optional(Channel),
  to: Type.Optional(Recipient),
  kind: Type.Optional(Type.String({ maxLength: 64 })),
  customerId: Type.Optional(Type.String({ maxLength: 64 })),
  order: Type.Optional(ListOrder),
  ...pageQueryFields(OUTBOX_PAGES)
})

export const LatestCode = Type.Object({
  code: Type.String(),
  verificationId: Type.Union([Type.String(), Type.Null()]),
  to: Type.String(),
  channel: Channel,
  sentAt: Type.String(),
  messageId: Type.String()
}, { description: 'The newest code sent' })

/**
 * `+` in a query string decodes to a space, so `?to=+12125550187` arrives as ` 12125550187`;
 * a phone number cannot start with a space, so it is read back as the `+` the caller meant.
 */
function recipient (value: string): string {
  return value.replace(/^ (?=\d)/, '+')
}

/** E-mails, SMS and calls the mock "sent", and the latest MFA code in one call. */
export const outboxRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/outbox',
    schema: {
      operationId: 'mockListOutbox',
      tags: CONTROL_TAGS,
      summary: 'Messages the session sent, newest first',
      description: 'Filter by channel, recipient, kind or customer. Bounded per session (`--outbox-cap`). ' +
        `Paged: \`limit\` (default ${CONTROL_LIST_LIMITS.defaultLimit.toLocaleString('en-US')}) and \`cursor\` (the \`nextCursor\` of the page before, with the same filters).`,
      querystring: OutboxQuery,
      response: responses({
        200: Type.Object({ session: Type.String(), data: Type.Array(OutboxMessageSchema), nextCursor: NextCursor }, { description: 'A page of the matching messages' })
      })
    },
    handle: async call => {
      const { limit, cursor, order = 'desc', ...filters } = call.query
      const session = call.session()
      const to = filters.to === undefined ? undefined : recipient(filters.to)
      const messages = call.world().outbox.numbered().filter(({ message: m }) =>
        (filters.channel === undefined || m.channel === filters.channel) &&
        (to === undefined || m.to === to) &&
        (filters.kind === undefined || m.kind === filters.kind) &&
        (filters.customerId === undefined || m.customerId === filters.customerId))
      if (order !== 'asc') messages.reverse()
      const page = paginate(messages, { limit, cursor }, OUTBOX_PAGES, order, queryKey(session.id, { ...filters, to }), m => m.message)
      return { session: session.id, ...page }
    }
  }),
  controlRoute({
    method: 'GET',
    url: '/__mock/outbox/latest-code',
    schema: {
      operationId: 'mockLatestCode',
      tags: CONTROL_TAGS,
      summary: 'The newest verification code sent (to a phone)',
      description: 'What a test needs to get past MFA: `GET /__mock/outbox/latest-code?phone=%2B12125550187`. Without `phone`, the newest code sent to any number. 404 `no_code_sent` when none was.',
      querystring: StrictObject({ phone: Type.Optional(Recipient) }),
      response: responses({ 200: LatestCode }, 404)
    },
    handle: async call => {
      const { phone } = call.query
      const to = phone === undefined ? undefined : recipient(phone)
      const message = call.world().outbox.list().reverse()
        .find((m: OutboxMessage) => typeof m.data.code === 'string' && (to === undefined || m.to === to))
      if (message === undefined) {
        throw new HttpProblem(problem(404, 'no_code_sent', to === undefined ? 'No verification code was sent in this session.' : `No verification code was sent to ${to} in this session.`))
      }
      const verificationId = message.data.verificationId
      return {
        code: message.data.code,
        verificationId: typeof verificationId === 'string' ? verificationId : null,
        to: message.to,
        channel: message.channel,
        sentAt: message.sentAt,
        messageId: message.id
      }
    }
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/outbox',
    schema: {
      operationId: 'mockClearOutbox',
      tags: CONTROL_TAGS,
      summary: 'Empty the session\'s outbox',
      description: 'Removes every e-mail and SMS the session sent; pending verifications and PIN links stay valid.',
      response: responses({ 204: NoContent('Cleared') }, ...BODY_PROBLEMS)
    },
    handle: async call => {
      call.session().world.outbox.clear()
      return respond(204)
    }
  })
]
