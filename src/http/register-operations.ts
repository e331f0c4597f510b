import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { isWrite, mayCreateDueWork } from '../operations.js'
import type { ResolvedRoute } from '../route-config.js'
import type { Session } from '../state/sessions.js'
import type { World } from '../state/world.js'
import type { MockServices } from './services.js'
import { RequestDelay } from './delay.js'
import { injectFaults, type FaultResult } from './faults.js'
import { journalClientLeft } from './journal-hook.js'
import { resolveCustomerId } from './persona.js'
import { answerFromOverrides } from './response-overrides.js'
import { SESSION_CREATED_HEADER, type OperationHandler } from './request-context.js'

/** Turns the resolved operation table into Fastify routes; handlers stay thin and schema-free. */
export function registerOperations (app: FastifyInstance, services: MockServices, handlers: Readonly<Record<string, OperationHandler>>): void {
  for (const route of services.routes) {
    const found = handlers[route.operation.id]
    if (found === undefined) throw new Error(`No handler for operation ${route.operation.id}`)
    // Narrowed once for the functions below, which TypeScript checks without the test above.
    const handler: OperationHandler = found
    const op = route.operation
    const writes = isWrite(op)
    const dueWork = mayCreateDueWork(op)
    app.route({
      method: route.method,
      url: route.url,
      schema: routeSchema(route, takesBody(route)),
      config: { operationId: op.id, writes },
      // A write moved to GET must not also run on HEAD (curl -I, link checkers, prefetchers).
      exposeHeadRoute: !writes,
      // A missing body is read as {} (see optional-body.ts): an action such as lock needs none.
      // Pipeline: faults → Prefer / response override → the operation. The common case (no fault
      // rule, no Prefer header, no default example) stays synchronous: no promise and no extra
      // turn of the microtask queue per request.
      handler: (request, reply) => {
        const session = services.sessionOf(request, false)
        if (request.mockSessionCreated) reply.header(SESSION_CREATED_HEADER, 'true')
        if (session.faults.size > 0 || request.headers.prefer !== undefined || services.overrides.for(session.world.scenario, op.id)?.defaultExample !== undefined) {
          return answerThroughPipeline(session, request, reply)
        }
        const world = session.world
        world.settle()
        // A client that hung up before this synchronous answer gets no onResponse: one property read says so.
        const clientLeft = reply.raw.destroyed
        const result = perform(world, session, resolveCustomerId(world, request.headers.authorization, services.config.auth), request, reply)
        if (clientLeft) journalClientLeft(services, request, reply)
        return result
      }
    })

    /**
     * Faults, then Prefer or a response example, then the operation, with waits in between (one
     * cap for all of them). This path sends its own answer, errors included, so that when it ends
     * the status is known: a client that hung up during a wait is journaled here.
     */
    async function answerThroughPipeline (session: Session, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      const response = reply.raw
      let clientLeft = response.destroyed
      // Closed before the answer was even begun: the client hung up (after it, the close is ours).
      const onClose = (): void => { if (!response.writableEnded) clientLeft = true }
      response.once('close', onClose)
      let result: FaultResult
      try {
        result = await pipeline(session, request, reply, new RequestDelay(services.sleep))
      } catch (error) {
        result = 'answered'
        if (!reply.sent) reply.send(error)
      } finally {
        response.removeListener('close', onClose)
      }
      if (clientLeft && result !== 'dropped') journalClientLeft(services, request, reply)
      return reply
    }

    async function pipeline (session: Session, request: FastifyRequest, reply: FastifyReply, delay: RequestDelay): Promise<FaultResult> {
      if (session.faults.size > 0) {
        const faults = await injectFaults(services, session, op.id, request, reply, delay)
        if (faults !== 'continue') return faults
      }
      let world = session.world
      world.settle()
      let customerId = resolveCustomerId(world, request.headers.authorization, services.config.auth)
      const examples = services.overrides.for(world.scenario, op.id)
      if (request.headers.prefer !== undefined || examples?.defaultExample !== undefined) {
        if (await answerFromOverrides(request, reply, session, route, customerId, examples, delay)) return 'answered'
        // A `Prefer: delay` may have slept through a reset of the session: act on the world it has now.
        if (world !== session.world) {
          world = session.world
          world.settle()
          customerId = resolveCustomerId(world, request.headers.authorization, services.config.auth)
        }
      }
      const result = await perform(world, session, customerId, request, reply)
      if (!reply.sent) reply.send(result)
      return 'answered'
    }

    /** Runs the operation and sends its result (or hands back the promise of one). */
    function perform (world: World, session: Session, customerId: string, request: FastifyRequest, reply: FastifyReply): unknown {
      reply.code(op.success.status)
      const result = handler({ session, world, ctx: world.ctx, customerId, route, publicUrl: services.config.publicUrl }, request, reply)
      if (isThenable(result)) return result.then(value => { if (dueWork) world.markChanged(); return value })
      if (dueWork) world.markChanged()
      if (!reply.sent) reply.send(result)
      return undefined
    }
  }
}

function isThenable (value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}

/** A write moved to GET (only a bodiless one may be, see resolveRoutes) reads no body. */
function takesBody (route: ResolvedRoute): boolean {
  return route.operation.body !== undefined && route.method !== 'GET'
}

function routeSchema (route: ResolvedRoute, withBody: boolean): Record<string, unknown> {
  const op = route.operation
  const response: Record<number, TSchema> = { [op.success.status]: { ...Type.Ref(op.success.schema), description: op.success.description } }
  for (const status of op.success.alternatives ?? []) response[status] = { ...Type.Ref(op.success.schema), description: op.success.description }
  const bodyErrors = withBody ? [413, 415] : []
  for (const status of [400, 404, ...bodyErrors, ...op.errors, 503]) response[status] = { ...Type.Ref('Problem'), description: problemDescription(status) }
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\nConfiguration name: \`${op.configName}\`.`,
    security: [{ bearer: [] }, {}],
    ...(op.params === undefined ? {} : { params: op.params }),
    ...(op.querystring === undefined ? {} : { querystring: op.querystring }),
    ...(withBody ? { body: op.body } : {}),
    response
  }
}

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed or schema-invalid request',
  401: 'No known persona token (strict auth)',
  404: 'Unknown, or not the caller\'s',
  409: 'Not allowed in the current state',
  410: 'Expired',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Semantically invalid',
  429: 'Rate limited; see Retry-After',
  503: 'Unavailable, when a fault rule or `Prefer: code=503` asks for it; see Retry-After'
}

function problemDescription (status: number): string {
  return PROBLEM_DESCRIPTIONS[status] ?? 'Problem'
}

export type { Session }
