import { Type } from 'typebox'
import { controlRoute, respond, type ControlRoute } from './route.js'
import { DateTimeString, Enum, StrictObject } from '../core/schemas/common.js'
import { PERSONA_VIA } from '../world/persona.js'
import { JOURNAL_HEADER_LIMITS, JOURNAL_SOURCES, type JournalRow } from '../world/journal.js'
import { NextCursor, pageQueryFields, paginate, queryKey, type PagedList } from '../core/paging.js'
import { BODY_PROBLEMS, CONTROL_LIST_LIMITS, CONTROL_TAGS, ListOrder, NoContent, OperationName, operationIdsFor, responses } from './schemas.js'

/** By id, the order entries were recorded in. */
const JOURNAL_PAGES: PagedList<JournalRow> = { name: 'journal', positionKinds: ['number'], position: row => [row.id], ...CONTROL_LIST_LIMITS }

export const JournalEntry = Type.Object({
  id: Type.Integer({ description: 'Increasing per session; poll with ?after=<id>' }),
  time: Type.String({ description: 'The session clock when the response went out' }),
  method: Type.String(),
  path: Type.String(),
  url: Type.String({ description: 'Path and query as received' }),
  operationId: Type.Union([Type.String(), Type.Null()], { description: 'null for a request no operation answered (404)' }),
  status: Type.Integer({ description: '0 when a fault dropped the connection' }),
  durationMs: Type.Number(),
  headers: Type.Record(Type.String(), Type.String(), {
    description: `Request headers; authorization, cookies and the admin token redacted. At most ${JOURNAL_HEADER_LIMITS.count} headers and ${JOURNAL_HEADER_LIMITS.bytes / 1024} KiB of them are kept, in the order sent`
  }),
  headersTruncated: Type.Optional(Type.Object({
    dropped: Type.Integer({ description: 'Headers not kept' }),
    droppedBytes: Type.Integer({ description: 'Their names and values, bytes' })
  }, { description: 'Present when the request carried more headers than the journal keeps' })),
  body: Type.Unknown({ description: 'The parsed request body, or null' }),
  source: Type.Optional(Enum(JOURNAL_SOURCES, { description: 'Who answered instead of the domain; replay: the stored answer of an earlier request with the same Idempotency-Key (nothing changed)' })),
  faults: Type.Optional(Type.Array(Type.String(), { description: 'Ids of the fault rules that fired' })),
  clientLeft: Type.Optional(Type.Literal(true, { description: 'The client hung up before the answer went out (during a delay); what the request did, a write included, still happened' })),
  persona: Type.Optional(Type.Object({
    customerId: Type.String({ description: 'The customer the request acted as (also the answer\'s x-mock-persona header)' }),
    via: Enum(PERSONA_VIA, { description: 'token: a persona token; token-hash: a token matching a hashed one; jwt-sub: a JWT\'s sub; default: no token selected anyone (open auth), the default persona answered' })
  }, { description: 'Absent when no persona answered (strict auth\'s 401, a request no operation answered)' }))
})

const JournalQueryString = StrictObject({
  operation: Type.Optional(OperationName),
  method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3,7}$', description: 'HTTP method, any case' })),
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Exact path, or a pattern where * matches anything: /baas/debit-cards/*' })),
  status: Type.Optional(Type.String({ pattern: '^(\\d{1,3}|[1-5]xx)$', description: 'Exact status (404) or a class (4xx)' })),
  since: Type.Optional({ ...DateTimeString, description: 'Entries at or after this instant of the session clock' }),
  after: Type.Optional(Type.Integer({ minimum: 0, description: 'Entries with a larger id than this' })),
  order: Type.Optional(ListOrder),
  ...pageQueryFields(JOURNAL_PAGES)
})

/** The session's request journal: what the app under test sent, for assertions. */
export const journalRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/requests',
    schema: {
      operationId: 'mockListRequests',
      tags: CONTROL_TAGS,
      summary: 'The session\'s request journal, newest first',
      description: 'Every API request of the session (not the control plane): method, path, operation, headers (secrets redacted), body, status, duration and time. ' +
        'At most `--journal-cap` entries per session, and `--journal-max-bytes` for the journals of all sessions together: past either, the oldest entries go first. `order=asc` lists oldest first. ' +
        `Paged: \`limit\` (default ${CONTROL_LIST_LIMITS.defaultLimit.toLocaleString('en-US')}) and \`cursor\` (the \`nextCursor\` of the page before, with the same filters).`,
      querystring: JournalQueryString,
      response: responses({
        200: Type.Object({
          session: Type.String(),
          capacity: Type.Integer({ description: 'Entries the session keeps' }),
          size: Type.Integer({ description: 'Entries held now' }),
          recorded: Type.Integer({ description: 'Entries recorded since the session began or the journal was cleared; more than size when a cap dropped some' }),
          data: Type.Array(JournalEntry),
          nextCursor: NextCursor
        }, { description: 'A page of the matching entries' })
      })
    },
    handle: async call => {
      const { operation, limit, cursor, ...filters } = call.query
      const session = call.session()
      const { journal } = session
      const rows = journal.select({ ...filters, operationIds: operation === undefined ? undefined : operationIdsFor(operation) })
      const { order: _order, ...filtersOnly } = filters
      const page = paginate(rows, { limit, cursor }, JOURNAL_PAGES, filters.order ?? 'desc', queryKey(session.id, operation, filtersOnly), row => row.entry())
      return { session: session.id, capacity: journal.capacity, size: journal.size, recorded: journal.recorded, ...page }
    }
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/requests',
    schema: {
      operationId: 'mockClearRequests',
      tags: CONTROL_TAGS,
      summary: 'Empty the session\'s request journal',
      description: 'Removes every journal entry of the session; its state is untouched.',
      response: responses({ 204: NoContent('Cleared') }, ...BODY_PROBLEMS)
    },
    handle: async call => {
      call.session().journal.clear()
      return respond(204)
    }
  })
]
