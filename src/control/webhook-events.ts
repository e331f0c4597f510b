import { Type, type Static } from 'typebox'
import { EVENT_TYPES } from '../domain/events.js'
import { HttpProblem, problem } from '../core/problem.js'
import { DateTimeString, StrictObject } from '../core/schemas/common.js'
import { NextCursor, pageQueryFields, paginate, queryKey, type PagedList } from '../core/paging.js'
import type { StoredEvent } from '../world/webhooks.js'
import { controlRoute, type ControlCall, type ControlRoute } from './route.js'
import { CONTROL_LIST_LIMITS, CONTROL_TAGS, ListOrder, responses } from './schemas.js'

export const EventId = Type.String({ pattern: '^evt_[A-Za-z0-9]{1,64}$', description: 'An event id', examples: ['evt_3kTz9QmB2xLr8VwAp4Qd'] })

const EventType = Type.String({ minLength: 1, maxLength: 100, description: `The type as sent, or the mock's own: ${EVENT_TYPES.join(', ')}`, examples: ['card.locked'] })

export const WebhookEventSchema = Type.Object({
  id: Type.String({ description: 'Sent as webhook-id; the same on every retry of a delivery' }),
  type: Type.String({ description: 'As sent: the mock\'s own type, or the name a fixture gave it', examples: ['card.locked'] }),
  timestamp: { ...DateTimeString, description: 'The session\'s mock clock when it happened' },
  data: Type.Unknown({ description: 'The resource as the API answers it, masked the same way (a scheduled transfer with its executions)' }),
  previousAttributes: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'On updates: the changed fields\' earlier values' })),
  detail: Type.String({ description: 'One line for a person; not sent' }),
  originalType: Type.Optional(Type.String({ description: 'The mock\'s own type, when a fixture renamed the event' })),
  payload: Type.Optional(Type.Unknown({ description: 'The body sent, when a fixture reshaped it (parsed if JSON)' })),
  templateError: Type.Optional(Type.String({ description: 'The fixture\'s body template failed: nothing was sent' }))
})

/** By the event's number in the session: the order they were recorded in (event ids are random). */
const EVENT_PAGES: PagedList<StoredEvent> = { name: 'events', positionKinds: ['number'], position: e => [e.seq], ...CONTROL_LIST_LIMITS }

const EventsQuery = StrictObject({
  type: Type.Optional(EventType),
  after: Type.Optional({ ...EventId, description: 'Only events recorded after this one: poll with the newest id seen. A filter like type: send it with every page' }),
  order: Type.Optional(ListOrder),
  ...pageQueryFields(EVENT_PAGES)
})

/** What a session's world did, as events: what webhooks carry. */
export const webhookEventRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/webhooks/events',
    schema: {
      operationId: 'mockListWebhookEvents',
      tags: CONTROL_TAGS,
      summary: 'The session\'s events, newest first',
      description: 'Every state change of the session\'s world made one event `{type, timestamp, data, previousAttributes?}` (Standard Webhooks\' payload): `timestamp` is the mock clock, ' +
        '`data` the resource as the API answers it. What the clock fires (transfer runs, shipments, expiries) is recorded in date order, stamped with the instant it fell due. ' +
        'Fixtures may rename, reshape or silence events per type (fixtures/events.yaml). At most `--event-cap` events per session, oldest dropped; `order=asc` lists oldest first. ' +
        `Paged: \`limit\` (default ${CONTROL_LIST_LIMITS.defaultLimit.toLocaleString('en-US')}) and \`cursor\` (the \`nextCursor\` of the page before, with the same filters). ` +
        'To poll for new events, send `after` (the newest id seen) with `order=asc` and follow `nextCursor` to the last page; its last event is the next `after`. ' +
        '`after` names an event still held (404 event_not_found otherwise: it was dropped, or never recorded, so events may have been missed).',
      querystring: EventsQuery,
      response: responses({
        200: Type.Object({
          session: Type.String(),
          capacity: Type.Integer({ description: 'Events the session keeps' }),
          size: Type.Integer({ description: 'Events held now' }),
          recorded: Type.Integer({ description: 'Events recorded since the session began; more than size when the cap dropped some' }),
          data: Type.Array(WebhookEventSchema),
          nextCursor: NextCursor
        }, { description: 'A page of the matching events' })
      }, 404)
    },
    handle: ({ world, session, query }: ControlCall<unknown, Static<typeof EventsQuery>>) => {
      // Brought up to its clock first: what fell due is an event too.
      world()
      const { id, webhooks } = session()
      const { limit, cursor, ...filters } = query
      const events = webhooks.selectEvents(filters)
      if (events === undefined) {
        throw new HttpProblem(problem(404, 'event_not_found', `No event ${query.after ?? ''} is held in session ${id}: it was dropped past the cap of ${webhooks.events.capacity}, or never recorded.`, {
          errors: [{ pointer: '/after', message: 'is not an event held' }]
        }))
      }
      const { order = 'desc', ...filtersOnly } = filters
      const page = paginate(events, { limit, cursor }, EVENT_PAGES, order, queryKey(id, filtersOnly), e => e.entry())
      return { session: id, capacity: webhooks.events.capacity, size: webhooks.events.size, recorded: webhooks.events.recorded, ...page }
    }
  })
]
