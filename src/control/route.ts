import type { Static, TSchema } from 'typebox'
import { isThenable, type Answer, type CoreRequest } from '../core/exchange.js'
import { answerForError } from '../core/problem.js'
import type { HttpMethod } from '../core/operations.js'
import type { RouteDefinition, RouteSchema } from '../core/route-definition.js'
import type { CoreServices } from '../core/services.js'
import type { Session } from '../world/sessions.js'
import type { World } from '../world/world.js'

/** What a control-plane route gets: the services, the request's validated parts, and its session on demand. */
export interface ControlCall<Params = unknown, Query = unknown, Body = unknown> {
  readonly services: CoreServices
  readonly request: CoreRequest
  readonly params: Params
  readonly query: Query
  readonly body: Body
  /** The caller's session (from `x-mock-session`), created on first use. */
  session (): Session
  /** The caller's world, brought up to its clock: what fell due has happened. */
  world (): World
}

/** A control-plane route, transport-free: the Fastify server and the Fetch handler both register it. */
export interface ControlRoute {
  method: Exclude<HttpMethod, 'PATCH'>
  /** Full path, find-my-way syntax: `/__mock/faults/:faultId`. */
  url: string
  schema: RouteSchema
  /** Outside the admin token (the PIN page: the link is the credential). */
  public?: boolean
  /** The body of a 200, or `respond(...)` for another status, headers or text. */
  handle (call: ControlCall<never, never, never>): unknown
}

const ANSWER = Symbol('answer')

/** An answer other than a 200 JSON body: a status, headers, or text with its content type. */
export function respond (status: number, body?: unknown, headers?: Record<string, string>): Answer {
  const answer: Answer = { status }
  if (body !== undefined) answer.body = body
  if (headers !== undefined) answer.headers = headers
  return Object.assign(answer, { [ANSWER]: true })
}

export function respondText (status: number, text: string, contentType: string, headers?: Record<string, string>): Answer {
  return Object.assign({ status, text, contentType, ...(headers === undefined ? {} : { headers }) }, { [ANSWER]: true })
}

/** A body read as it is written (the event stream), with its content type. */
export function respondStream (status: number, stream: ReadableStream<Uint8Array>, contentType: string, headers?: Record<string, string>): Answer {
  return Object.assign({ status, stream, contentType, ...(headers === undefined ? {} : { headers }) }, { [ANSWER]: true })
}

/** What a validated part of a request is: `Static<>` of its schema, or unknown where the route has none. */
type PartOf<Schema, Key extends string> = Schema extends { readonly [K in Key]: infer Part extends TSchema } ? Static<Part> : unknown

/** The call a route's handler gets, typed from the route's own schemas. */
export type ControlCallFor<Schema extends RouteSchema> = ControlCall<PartOf<Schema, 'params'>, PartOf<Schema, 'querystring'>, PartOf<Schema, 'body'>>

/**
 * A control route whose handler's call is typed from its schemas: `call.params`, `call.query` and
 * `call.body` are `Static<>` of `schema.params`, `schema.querystring` and `schema.body`, which the
 * transports validated before the handler runs.
 */
export function controlRoute<const Schema extends RouteSchema> (route: Omit<ControlRoute, 'schema' | 'handle'> & { schema: Schema; handle: (call: ControlCallFor<Schema>) => unknown }): ControlRoute {
  return route
}

const isWriteMethod = (method: string): boolean => method !== 'GET' && method !== 'HEAD'

/** The control plane's routes as every transport registers them. */
export function controlDefinitions (services: CoreServices, routes: readonly ControlRoute[]): RouteDefinition[] {
  return routes.map(route => ({
    method: route.method,
    url: route.url,
    schema: route.schema,
    operationId: null,
    exposeHead: true,
    adminOnly: route.public !== true,
    writes: route.method !== 'GET',
    answer: request => {
      const call = controlCall(services, request)
      try {
        // The transport validated params, query and body against the route's schemas: they are the handler's types.
        const result = (route.handle as (call: ControlCall) => unknown)(call)
        return isThenable(result) ? Promise.resolve(result).then(answerOf, error => failed(error, request)) : answerOf(result)
      } catch (error) {
        return failed(error, request)
      }
    }
  }))
}

function controlCall (services: CoreServices, request: CoreRequest): ControlCall {
  // Closures, not methods: handlers destructure them.
  const session = (): Session => {
    const known = request.session
    const found = services.sessionFor(request)
    // A control-plane write (simulation, fault, reset...) may create something due today.
    if (known === null && isWriteMethod(request.method)) found.world.markChanged()
    return found
  }
  return {
    services,
    request,
    params: request.params,
    query: request.query,
    body: request.body,
    session,
    world () {
      const world = session().world
      world.settle()
      // The write this request is about to make may fall due at once: the next settle must look.
      if (isWriteMethod(request.method)) world.markChanged()
      return world
    }
  }
}

function answerOf (result: unknown): Answer {
  if (typeof result === 'object' && result !== null && ANSWER in result) return result as unknown as Answer
  return { status: 200, body: result }
}

function failed (error: unknown, request: CoreRequest): Answer {
  const answer = answerForError(error, request.url.split('?')[0] ?? request.url)
  if (answer === undefined) throw error
  return answer
}
