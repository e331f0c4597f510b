import { Type, type Static } from 'typebox'
import { nearestName } from '../config/nearest-name.js'
import { WEBHOOK_LIMITS } from '../config/limits.js'
import type { FieldError } from '../domain/errors.js'
import { HttpProblem, problem } from '../core/problem.js'
import { StrictObject } from '../core/schemas/common.js'
import { generateSecret, secretProblem } from '../webhooks/signing.js'
import { WebhookStateError, type SessionWebhooks } from '../world/webhooks.js'
import { controlRoute, respond, type ControlCall, type ControlRoute } from './route.js'
import { BODY_PROBLEMS, CONTROL_TAGS, NoContent, responses } from './schemas.js'

export const EndpointId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'An endpoint id', examples: ['ep_configured'] })

const EndpointRequest = StrictObject({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'Where deliveries are POSTed: an http: or https: URL', examples: ['http://localhost:3000/webhooks/bank'] }),
  events: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: 100, description: 'The event types it receives (the mock\'s own, or the names fixtures give them); omitted or empty: every event', examples: [['card.locked', 'card.unlocked']]
  })),
  secret: Type.Optional(Type.String({ maxLength: 200, description: 'whsec_ and the base64 of 16 to 64 bytes; generated when omitted', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }))
})

export const WebhookEndpointSchema = Type.Object({
  id: EndpointId,
  url: Type.String(),
  events: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'The event types it receives; null: every event' }),
  secret: Type.String({ description: 'The signing secret (whsec_…): verify webhook-signature with it' })
})

const EndpointParams = StrictObject({ endpointId: EndpointId })

/** Answers a WebhookStateError as the problem it stands for. */
export function stateProblem (error: unknown): never {
  if (error instanceof WebhookStateError) {
    const status = error.code === 'webhook_event_gone' ? 410 : 409
    throw new HttpProblem(problem(status, error.code, error.message))
  }
  throw error
}

function checkedUrl (text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalid([{ pointer: '/url', message: 'is not a URL' }], 'invalid_webhook_url', 'url is not a URL.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid([{ pointer: '/url', message: `must be an http: or https: URL, not ${url.protocol}` }], 'invalid_webhook_url', `url must be an http: or https: URL, not ${url.protocol}.`)
  }
  if (url.username !== '' || url.password !== '') {
    // Never sent (fetch refuses such URLs), and the password would be kept and shown with the endpoint.
    const why = 'must not carry credentials (user:password@): the mock sends none; sign with the endpoint\'s secret instead'
    throw invalid([{ pointer: '/url', message: why }], 'invalid_webhook_url', `url ${why}.`)
  }
  return text
}

function checkedEvents (events: string[] | undefined, known: ReadonlySet<string>): string[] | null {
  if (events === undefined || events.length === 0) return null
  const errors: FieldError[] = []
  events.forEach((type, i) => {
    if (known.has(type)) return
    const meant = nearestName(type, [...known], 3)
    errors.push({ pointer: `/events/${i}`, message: `${type} is not an event type${meant === undefined ? '' : ` (did you mean ${meant}?)`}` })
  })
  if (errors.length > 0) throw invalid(errors, 'unknown_event_type', `events names ${errors.length === 1 ? 'a type' : 'types'} the mock does not make: ${errors.map(e => e.message).join('; ')}.`)
  return [...new Set(events)]
}

function invalid (errors: FieldError[], code: string, detail: string): HttpProblem {
  return new HttpProblem(problem(400, code, detail, { errors }))
}

function endpointOf (webhooks: SessionWebhooks, id: string): ReturnType<SessionWebhooks['endpoints']>[number] {
  const endpoint = webhooks.endpoint(id)
  if (endpoint === undefined) {
    throw new HttpProblem(problem(404, 'webhook_endpoint_not_found', `Session ${webhooks.sessionId} has no webhook endpoint ${id}.`, { errors: [{ pointer: '/endpointId', message: 'is not an endpoint of this session' }] }))
  }
  return endpoint
}

/** Where a session's events are delivered. */
export const webhookEndpointRoutes: ControlRoute[] = [
  controlRoute({
    method: 'POST',
    url: '/__mock/webhooks/endpoints',
    schema: {
      operationId: 'mockAddWebhookEndpoint',
      tags: CONTROL_TAGS,
      summary: 'Add a webhook endpoint to the session',
      description: 'From now on, each event of the session (or of the listed types) is POSTed to `url`, signed as Standard Webhooks specifies ' +
        '(webhook-id, webhook-timestamp, webhook-signature) with `secret`, and retried on failure (see GET /__mock/webhooks/deliveries). ' +
        `Only http: and https: URLs, without user:password@ (400 invalid_webhook_url); with the control plane open to a network (--admin-token none off loopback), ` +
        'no loopback, private or link-local address unless --webhook-allow-private (400 webhook_url_not_allowed; a name is resolved, and refused, before each attempt); ' +
        ` an unknown event type is 400 unknown_event_type; at most ${WEBHOOK_LIMITS.endpointsPerSession} endpoints per session (409 too_many_webhook_endpoints).`,
      body: EndpointRequest,
      response: responses({ 201: { ...WebhookEndpointSchema, description: 'The endpoint, with its secret' } }, 409, 413, 415)
    },
    handle: ({ services, session, body }: ControlCall<unknown, unknown, Static<typeof EndpointRequest>>) => {
      const url = checkedUrl(body.url)
      const refusal = services.sessions.webhooks.targetRefusal?.(url)
      if (refusal !== undefined) throw new HttpProblem(problem(400, 'webhook_url_not_allowed', `url ${refusal}.`, { errors: [{ pointer: '/url', message: refusal }] }))
      const events = checkedEvents(body.events, services.sessions.webhooks.knownEventTypes)
      if (body.secret !== undefined) {
        const why = secretProblem(body.secret)
        if (why !== undefined) throw invalid([{ pointer: '/secret', message: why }], 'invalid_webhook_secret', `secret ${why}.`)
      }
      try {
        return respond(201, session().webhooks.addEndpoint({ url, events, secret: body.secret ?? generateSecret() }))
      } catch (error) {
        return stateProblem(error)
      }
    }
  }),
  controlRoute({
    method: 'GET',
    url: '/__mock/webhooks/endpoints',
    schema: {
      operationId: 'mockListWebhookEndpoints',
      tags: CONTROL_TAGS,
      summary: 'The session\'s webhook endpoints',
      description: 'With their secrets (the control plane is the admin\'s). `--webhook-url` gives every session the endpoint `ep_configured`.',
      response: responses({ 200: Type.Object({ session: Type.String(), endpoints: Type.Array(WebhookEndpointSchema) }, { description: 'The endpoints' }) })
    },
    handle: ({ session }: ControlCall) => {
      const { id, webhooks } = session()
      return { session: id, endpoints: webhooks.endpoints() }
    }
  }),
  controlRoute({
    method: 'GET',
    url: '/__mock/webhooks/endpoints/:endpointId',
    schema: {
      operationId: 'mockGetWebhookEndpoint',
      tags: CONTROL_TAGS,
      summary: 'One webhook endpoint of the session',
      description: 'The endpoint with its secret; 404 webhook_endpoint_not_found when the session has none of that id.',
      params: EndpointParams,
      response: responses({ 200: { ...WebhookEndpointSchema, description: 'The endpoint' } }, 404)
    },
    handle: ({ session, params }: ControlCall<Static<typeof EndpointParams>>) => endpointOf(session().webhooks, params.endpointId)
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/webhooks/endpoints/:endpointId',
    schema: {
      operationId: 'mockDeleteWebhookEndpoint',
      tags: CONTROL_TAGS,
      summary: 'Remove a webhook endpoint from the session',
      description: 'Nothing more is sent to it; its deliveries still waiting fail (failureReason). Listed deliveries stay.',
      params: EndpointParams,
      response: responses({ 204: NoContent('Removed') }, 404, ...BODY_PROBLEMS)
    },
    handle: ({ session, params }: ControlCall<Static<typeof EndpointParams>>) => {
      const { webhooks } = session()
      endpointOf(webhooks, params.endpointId)
      webhooks.removeEndpoint(params.endpointId)
      return respond(204)
    }
  })
]
