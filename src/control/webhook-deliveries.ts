import { Type, type Static } from 'typebox'
import { WEBHOOK_LIMITS } from '../config/limits.js'
import { HttpProblem, problem } from '../core/problem.js'
import { DateTimeString, EmptyBody, Enum, IdParam, StrictObject } from '../core/schemas/common.js'
import { formatRetrySchedule } from '../webhooks/retry-schedule.js'
import { NextCursor, pageQueryFields, paginate, queryKey, type PagedList } from '../core/paging.js'
import type { Delivery } from '../world/webhooks.js'
import { MAX_DELIVERY_ATTEMPTS } from '../world/deliveries.js'
import { controlRoute, respond, type ControlCall, type ControlRoute } from './route.js'
import { CONTROL_LIST_LIMITS, CONTROL_TAGS, ListOrder, responses } from './schemas.js'
import { EventId } from './webhook-events.js'
import { EndpointId, stateProblem } from './webhook-endpoints.js'

const DeliveryStatus = Enum(['PENDING', 'SUCCEEDED', 'FAILED'] as const, { description: 'PENDING: an attempt is due or being sent; SUCCEEDED: a 2xx came back; FAILED: every attempt of the schedule failed, or it was dropped' })

export const DeliverySchema = Type.Object({
  id: Type.String({ examples: ['dlv_4mQz8RkT2bVx9LpA'] }),
  eventId: Type.String({ description: 'Sent as webhook-id on every attempt' }),
  eventType: Type.String(),
  endpointId: Type.String(),
  url: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Array(Type.Object({
    at: { ...DateTimeString, description: 'Real time the attempt went out (webhook-timestamp)' },
    status: Type.Optional(Type.Integer({ description: 'The receiver\'s HTTP status' })),
    error: Type.Optional(Type.String({ description: 'Why no answer came: timed out, connection refused…' })),
    durationMs: Type.Number(),
    manual: Type.Optional(Type.Literal(true, { description: 'Sent by POST …/retry' }))
  })),
  nextAttemptAt: Type.Union([DateTimeString, Type.Null()], { description: 'Real time of the next attempt of the schedule; null when none is due' }),
  createdAt: DateTimeString,
  failureReason: Type.Optional(Type.String({ description: 'Why it failed without its attempts saying so: refused (its session\'s share of the queue was full), endpoint deleted' }))
})

/** By the delivery's number in the session: the order they were made in (delivery ids are random). */
const DELIVERY_PAGES: PagedList<{ seq: number; delivery: Delivery }> = { name: 'deliveries', positionKinds: ['number'], position: d => [d.seq], ...CONTROL_LIST_LIMITS }

const DeliveriesQuery = StrictObject({
  status: Type.Optional(DeliveryStatus),
  endpoint: Type.Optional(EndpointId),
  event: Type.Optional(EventId),
  order: Type.Optional(ListOrder),
  ...pageQueryFields(DELIVERY_PAGES)
})

const DeliveryParams = IdParam('deliveryId', 'dlv')

/** What was sent where, with every attempt; and a retry by hand. */
export const webhookDeliveryRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/webhooks/deliveries',
    schema: {
      operationId: 'mockListWebhookDeliveries',
      tags: CONTROL_TAGS,
      summary: 'The session\'s webhook deliveries, newest first, with every attempt',
      description: 'One delivery per event and endpoint. Attempts follow the retry schedule in real time (--webhook-retry-schedule, default 0,5s,5m,30m,2h,5h,10h) with the same webhook-id; ' +
        `a non-2xx answer, a refused connection or the time-out (--webhook-timeout-ms) is retried, and after the last attempt the delivery has FAILED. The session lists its last ${WEBHOOK_LIMITS.deliveriesPerSession}; ` +
        `at most ${WEBHOOK_LIMITS.maxPendingDeliveriesPerSession} of a session wait at once (${WEBHOOK_LIMITS.maxPendingDeliveries.toLocaleString('en-US')} of all sessions), and past that the session's new ones are refused (FAILED, failureReason refused…); ` +
        `${WEBHOOK_LIMITS.maxDeliveriesInFlight} are sent at once, ${WEBHOOK_LIMITS.maxDeliveriesInFlightPerSession} of a session, the sessions taking turns. ` +
        '`order=asc` lists oldest first. ' +
        `Paged: \`limit\` (default ${CONTROL_LIST_LIMITS.defaultLimit.toLocaleString('en-US')}) and \`cursor\` (the \`nextCursor\` of the page before, with the same filters). ` +
        'A page shows each delivery as it stands when the page is read: its status may change between pages, and a status filter is applied again on every page.',
      querystring: DeliveriesQuery,
      response: responses({
        200: Type.Object({
          session: Type.String(),
          retrySchedule: Type.String({ description: 'The delays of the attempts, as --webhook-retry-schedule writes them' }),
          dropped: Type.Integer({ description: 'Deliveries of this session dropped while waiting (past the listed cap) or refused (its share of the queue full)' }),
          data: Type.Array(DeliverySchema),
          nextCursor: NextCursor
        }, { description: 'A page of the matching deliveries' })
      })
    },
    handle: ({ services, session, query }: ControlCall<unknown, Static<typeof DeliveriesQuery>>) => {
      const { id, webhooks } = session()
      const { limit, cursor, order = 'desc', ...filters } = query
      const deliveries = webhooks.numberedDeliveries({ status: filters.status, endpointId: filters.endpoint, eventId: filters.event })
      if (order !== 'asc') deliveries.reverse()
      return {
        session: id,
        retrySchedule: formatRetrySchedule(services.sessions.webhooks.queue.retrySchedule),
        dropped: webhooks.droppedDeliveries,
        ...paginate(deliveries, { limit, cursor }, DELIVERY_PAGES, order, queryKey(id, filters), d => d.delivery)
      }
    }
  }),
  controlRoute({
    method: 'POST',
    url: '/__mock/webhooks/deliveries/:deliveryId/retry',
    schema: {
      operationId: 'mockRetryWebhookDelivery',
      tags: CONTROL_TAGS,
      summary: 'Send a delivery again, now',
      description: 'One attempt now, with the same webhook-id and a fresh signature. A delivery still PENDING goes on with its schedule if this attempt fails; a settled one is not retried again. ' +
        'Answers 202 with the delivery; the attempt shows in GET /__mock/webhooks/deliveries once answered. 409 webhook_delivery_in_flight while an attempt is being sent, ' +
        `409 too_many_webhook_attempts once it has made ${MAX_DELIVERY_ATTEMPTS} attempts (schedule and retries by hand together), ` +
        '409 webhook_endpoint_deleted when its endpoint is gone, 410 webhook_event_gone when its event is no longer held (past --event-cap).',
      params: DeliveryParams,
      body: EmptyBody,
      response: responses({ 202: { ...DeliverySchema, description: 'The delivery, its attempt under way' } }, 404, 409, 410, 413, 415)
    },
    handle: ({ session, params }: ControlCall<Static<typeof DeliveryParams>>) => {
      const { id, webhooks } = session()
      let delivery
      try {
        delivery = webhooks.retry(params.deliveryId)
      } catch (error) {
        return stateProblem(error)
      }
      if (delivery === undefined) {
        throw new HttpProblem(problem(404, 'webhook_delivery_not_found', `Session ${id} has no webhook delivery ${params.deliveryId}.`, { errors: [{ pointer: '/deliveryId', message: 'is not a delivery of this session' }] }))
      }
      return respond(202, delivery)
    }
  })
]
