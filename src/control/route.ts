import type { Static, TSchema } from 'typebox'
import { isThenable, type Answer, type CoreRequest } from '../core/exchange.js'
import { answerForError } from '../core/problem.js'
import type { HttpMethod } from '../core/operations.js'
import type { RouteDefinition, RouteSchema } from '../core/route-definition.js'
import type { CoreServices } from '../core/services.js'
import { inSession } from '../core/in-session.js'
import { sessionIdFrom } from '../core/session-id.js'
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
  /**
   * The session it acts on, opened before and saved after the handler (inSession): the caller's
   * (x-mock-session, the default), another one the request names, or none (the handler reaches
   * sessions by id itself, or needs none).
   */
  session?: 'caller' | 'none' | ((request: CoreRequest) => string)
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
  return routes.map(route => {
    const handle = route.handle as (call: ControlCall) => unknown
    const writes = isWriteMethod(route.method)
    const sessionOf = route.session ?? 'caller'
    return {
      method: route.method,
      url: route.url,
      schema: route.schema,
      operationId: null,
      exposeHead: true,
      adminOnly: route.public !== true,
      writes: route.method !== 'GET',
      answer: request => {
        try {
          if (sessionOf === 'none') return respond(controlCall(services, request, undefined))
          const caller = sessionOf === 'caller'
          const id = caller ? sessionIdFrom(request.headers) : sessionOf(request)
          const answer = inSession(services.sessions, id, writes, session => respond(controlCall(services, request, session)), session => {
            if (caller) services.adopt(request, session)
          })
          return isThenable(answer) ? Promise.resolve(answer).catch(error => failed(error, request)) : answer
        } catch (error) {
          return failed(error, request)
        }
      }
    }

    /** The handler's answer; an error the client caused is an answer too, so what the request changed is saved all the same. */
    function respond (call: ControlCall): Answer | Promise<Answer> {
      try {
        const result = handle(call)
        return isThenable(result) ? Promise.resolve(result).then(answerOf, error => failed(error, call.request)) : answerOf(result)
      } catch (error) {
        return failed(error, call.request)
      }
    }
  })
}

function controlCall (services: CoreServices, request: CoreRequest, opened: Session | undefined): ControlCall {
  // Closures, not methods: handlers destructure them.
  const session = (): Session => {
    if (opened !== undefined) return opened
    const known = request.session
    const found = services.sessionFor(request)
    // A control-plane write (simulation, fault, reset...) may create something due today.
    if (known === null && isWriteMethod(request.method)) found.world.markChanged()
    return found
  }
  if (opened !== undefined && isWriteMethod(request.method)) opened.world.markChanged()
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
