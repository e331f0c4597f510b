import type { DomainContext } from '../domain/context.js'
import { isWrite, mayCreateDueWork } from './operations.js'
import type { ResolvedRoute } from '../config/route-config.js'
import type { Session } from '../world/sessions.js'
import type { World } from '../world/world.js'
import { isThenable, pathOf, type Answer, type CoreRequest } from './exchange.js'
import { RequestDelay } from './delay.js'
import { applyFaults } from './faults.js'
import { answerFromOverrides } from './overrides.js'
import { resolveCustomerId } from './persona.js'
import { answerForError } from './problem.js'
import type { CoreServices } from './services.js'
import { inSession } from './in-session.js'
import { sessionIdFrom } from './session-id.js'

/** What an operation handler gets: the caller's world and persona, and the request's validated parts. */
export interface MockContext<Params = unknown, Query = unknown, Body = unknown> {
  readonly session: Session
  readonly world: World
  readonly ctx: DomainContext
  readonly customerId: string
  readonly params: Params
  readonly query: Query
  readonly body: Body
  readonly request: CoreRequest
  /** The success status; a handler that answers another one (200 for an existing card) sets it. */
  status: number
}

/** Returns the response body (or a promise of it). */
export type OperationHandler<Params = never, Query = never, Body = never> = (mock: MockContext<Params, Query, Body>) => unknown

/** Handlers keyed by operation id, each typed by its own schemas. */
export type OperationHandlers = Readonly<Record<string, OperationHandler<never, never, never>>>

export type Answerer = (request: CoreRequest) => Answer | Promise<Answer>

/**
 * The request pipeline of one API operation, the same for every transport:
 * session → faults → `Prefer` / response example → persona → the operation → problem+json,
 * inside its session's store boundary (inSession: loaded before, saved before the answer).
 * The common case (memory store, no fault rule, no Prefer header, no default example) stays
 * synchronous: no promise and no extra turn of the microtask queue per request.
 */
export function operationAnswerer (services: CoreServices, route: ResolvedRoute, handler: OperationHandler<never, never, never>): Answerer {
  const op = route.operation
  const dueWork = mayCreateDueWork(op)
  const writes = isWrite(op)
  const run = handler as OperationHandler<unknown, unknown, unknown>
  const auth = services.config.auth

  return request => {
    try {
      const answer = inSession(services.sessions, sessionIdFrom(request.headers), writes, session => answerIn(session, request), session => services.adopt(request, session))
      return isThenable(answer) ? Promise.resolve(answer).catch(error => failed(error, request)) : answer
    } catch (error) {
      return failed(error, request)
    }
  }

  /** The answer in the request's session; an error the client caused is an answer too, so what the request changed is saved all the same. */
  function answerIn (session: Session, request: CoreRequest): Answer | Promise<Answer> {
    try {
      if (session.faults.size > 0 || request.headers.prefer !== undefined || services.overrides.for(session.world.scenario, op.id)?.defaultExample !== undefined) {
        return throughPipeline(session, request).catch(error => failed(error, request))
      }
      const world = session.world
      world.settle()
      const result = perform(world, session, resolveCustomerId(world, headerOf(request, 'authorization'), auth), request, undefined)
      return isThenable(result) ? Promise.resolve(result).catch(error => failed(error, request)) : result
    } catch (error) {
      return failed(error, request)
    }
  }

  async function throughPipeline (session: Session, request: CoreRequest): Promise<Answer> {
    const headers: Record<string, string> = {}
    const delay = new RequestDelay(services.sleep)
    if (session.faults.size > 0) {
      const fault = await applyFaults(session, op.id, request, headers, delay)
      if (fault !== undefined) return fault
    }
    let world = session.world
    world.settle()
    let customerId = resolveCustomerId(world, headerOf(request, 'authorization'), auth)
    const examples = services.overrides.for(world.scenario, op.id)
    if (request.headers.prefer !== undefined || examples?.defaultExample !== undefined) {
      const override = await answerFromOverrides(request, session, route, customerId, examples, headers, delay)
      if (override !== undefined) return override
      // A `Prefer: delay` may have slept through a reset of the session: act on the world it has now.
      if (world !== session.world) {
        world = session.world
        world.settle()
        customerId = resolveCustomerId(world, headerOf(request, 'authorization'), auth)
      }
    }
    return await perform(world, session, customerId, request, headers)
  }

  function perform (world: World, session: Session, customerId: string, request: CoreRequest, headers: Record<string, string> | undefined): Answer | Promise<Answer> {
    const mock: MockContext<unknown, unknown, unknown> = {
      session, world, ctx: world.ctx, customerId, params: request.params, query: request.query, body: request.body, request, status: op.success.status
    }
    const result = run(mock)
    if (isThenable(result)) {
      return Promise.resolve(result).then(body => {
        if (dueWork) world.markChanged()
        return { status: mock.status, body, headers }
      })
    }
    if (dueWork) world.markChanged()
    return headers === undefined ? { status: mock.status, body: result } : { status: mock.status, body: result, headers }
  }
}

function failed (error: unknown, request: CoreRequest): Answer {
  const answer = answerForError(error, pathOf(request.url))
  if (answer === undefined) throw error
  return answer
}

function headerOf (request: CoreRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}
