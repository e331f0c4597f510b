import type { DomainContext } from '../domain/context.js'
import { isWrite, mayCreateDueWork } from './operations.js'
import { routeSchema, takesBody } from './operation-schema.js'
import { answerSerializer } from './answer-serializer.js'
import type { RouteSchema } from './route-schema.js'
import { asStored, fingerprintOf, idempotencyKeyOf, inProgressAnswer, isReplayable, keyReusedAnswer, replayOf, sentAsStored } from './idempotency.js'
import type { ResolvedRoute } from '../config/route-config.js'
import type { Session } from '../world/sessions.js'
import type { World } from '../world/world.js'
import { isThenable, pathOf, type Answer, type CoreRequest } from './exchange.js'
import { RequestDelay } from './delay.js'
import { applyFaults } from './faults.js'
import { answerFromOverrides, reshapedAnswer } from './overrides.js'
import type { ResponseExample } from '../fixtures/responses.js'
import { personaOf, resolvePersona } from './persona.js'
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
 * session → idempotency key → faults → `Prefer` / response example → persona → the operation → problem+json,
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
  let serializer: ((status: number, body: unknown) => string) | undefined
  const serialize = (status: number, body: unknown): string => {
    serializer ??= answerSerializer((routeSchema(route, takesBody(route)) as RouteSchema).response, route.method, route.url)
    return serializer(status, body)
  }

  return request => {
    try {
      const key = writes ? idempotencyKeyOf(request.headers) : undefined
      const given = inSession(services.sessions, sessionIdFrom(request.headers), writes,
        session => key === undefined ? answer(session, request, undefined) : idempotent(session, request, key),
        session => services.adopt(request, session))
      return isThenable(given) ? Promise.resolve(given).catch(error => failed(error, request)) : given
    } catch (error) {
      return failed(error, request)
    }
  }

  /**
   * The answer in the request's session; an error the client caused is an answer too, so what the
   * request changed is saved all the same. `handled` learns whether the operation's handler gave
   * the answer (only idempotent requests ask).
   */
  function answer (session: Session, request: CoreRequest, handled: Handled | undefined): Answer | Promise<Answer> {
    try {
      if (session.faults.size > 0 || request.headers.prefer !== undefined || services.overrides.for(session.world.scenario, op.id)?.defaultExample !== undefined) {
        return throughPipeline(session, request, handled).catch(error => failed(error, request))
      }
      const world = session.world
      world.settle()
      const result = perform(world, session, customerOf(world, request), request, undefined, handled)
      return isThenable(result) ? Promise.resolve(result).catch(error => failed(error, request)) : result
    } catch (error) {
      return failed(error, request)
    }
  }

  /**
   * A write with an Idempotency-Key: a replay, a refusal, or the request run once with the key
   * held, so that a duplicate arriving meanwhile (during a delay) is refused instead of run twice.
   * A replay answers before fault rules and Prefer are looked at: the bank has the answer already.
   */
  function idempotent (session: Session, request: CoreRequest, key: string): Answer | Promise<Answer> {
    let customerId: string
    try {
      customerId = customerOf(session.world, request)
    } catch {
      return answer(session, request, undefined) // no persona, no key scope: the 401 comes as without a key
    }
    const store = session.idempotency
    const found = store.begin(customerId, key, fingerprintOf(op.id, request.params, request.body), session.world.clock.nowMs())
    if (found.kind === 'replay') return replayOf(found.answer)
    if (found.kind === 'reused') return keyReusedAnswer(request)
    if (found.kind === 'in_flight') return inProgressAnswer(request)
    const reservation = found.reservation
    const handled: Handled = { byOperation: false }
    const settle = (given: Answer): Answer => {
      if (!isReplayable(given, handled.byOperation)) {
        store.release(reservation)
        return given
      }
      // Stored as it goes out (in the team's dialect, if any): a replay is sent verbatim.
      const final = request.render === undefined ? given : request.render(given)
      const stored = asStored(final, serialize)
      store.complete(reservation, stored, session.world.clock.nowMs())
      return sentAsStored(final, stored)
    }
    try {
      const result = answer(session, request, handled)
      return isThenable(result)
        ? Promise.resolve(result).then(settle, error => { store.release(reservation); throw error })
        : settle(result)
    } catch (error) {
      store.release(reservation)
      throw error
    }
  }

  async function throughPipeline (session: Session, request: CoreRequest, handled: Handled | undefined): Promise<Answer> {
    const headers: Record<string, string> = {}
    const delay = new RequestDelay(services.sleep, request.signal)
    if (session.faults.size > 0) {
      // A fault's answer names the persona too, where there is one; strict auth's 401 comes after the faults, as before.
      request.persona = resolved(session.world, request).persona ?? null
      const fault = await applyFaults(session, op.id, request, headers, delay)
      if (fault !== undefined) return fault
    }
    let world = session.world
    world.settle()
    let customerId = customerOf(world, request)
    const examples = services.overrides.for(world.scenario, op.id)
    let reshape: ResponseExample | undefined
    if (request.headers.prefer !== undefined || examples?.defaultExample !== undefined) {
      const override = await answerFromOverrides(request, session, route, customerId, examples, headers, delay)
      if (override !== undefined && 'reshape' in override) reshape = override.reshape
      else if (override !== undefined) return override
      // A `Prefer: delay` may have slept through a reset of the session: act on the world it has now.
      if (world !== session.world) {
        world = session.world
        world.settle()
        customerId = customerOf(world, request)
      }
    }
    const done = await perform(world, session, customerId, request, headers, handled)
    return reshape === undefined ? done : reshapedAnswer(request, session, op.id, customerId, reshape, done, serialize)
  }

  /** The persona in `world`, warned about once when open auth fell back to the default (see PersonaNotices). */
  function resolved (world: World, request: CoreRequest): ReturnType<typeof resolvePersona> {
    const resolution = resolvePersona(world, headerOf(request, 'authorization'), auth)
    if (resolution.fallback !== undefined) services.personaNotices.notice(world, resolution.fallback)
    return resolution
  }

  /** The customer the request acts as, kept on the request for the answer's header and the journal; strict auth throws its 401. */
  function customerOf (world: World, request: CoreRequest): string {
    const persona = personaOf(resolved(world, request), headerOf(request, 'authorization'))
    request.persona = persona
    return persona.customerId
  }

  function perform (world: World, session: Session, customerId: string, request: CoreRequest, headers: Record<string, string> | undefined, handled: Handled | undefined): Answer | Promise<Answer> {
    const mock: MockContext<unknown, unknown, unknown> = {
      session, world, ctx: world.ctx, customerId, params: request.params, query: request.query, body: request.body, request, status: op.success.status
    }
    // From here on, a domain error is the operation's own answer too.
    if (handled !== undefined) handled.byOperation = true
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

/** Set once the operation's handler runs: what it answers, a domain error included, may be kept for replay. */
interface Handled { byOperation: boolean }

function failed (error: unknown, request: CoreRequest): Answer {
  const answer = answerForError(error, pathOf(request.url))
  if (answer === undefined) throw error
  return answer
}

function headerOf (request: CoreRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}
