import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { isThenable, type Answer } from '../core/exchange.js'
import { FAULT_HEADER } from '../core/faults.js'
import { operationAnswerer, type OperationHandlers } from '../core/pipeline.js'
import { isWrite } from '../operations.js'
import type { ResolvedRoute } from '../route-config.js'
import { FastifyCoreRequest, sendAnswer } from './answer.js'
import { journalRequest } from './journal-hook.js'
import type { MockServices } from './services.js'

/** Turns the resolved operation table into Fastify routes; handlers stay thin and schema-free. */
export function registerOperations (app: FastifyInstance, services: MockServices, handlers: OperationHandlers): void {
  const publicUrl = services.config.publicUrl
  for (const route of services.routes) {
    const handler = handlers[route.operation.id]
    if (handler === undefined) throw new Error(`No handler for operation ${route.operation.id}`)
    const answerer = operationAnswerer(services, route, handler)
    const op = route.operation
    const writes = isWrite(op)
    app.route({
      method: route.method,
      url: route.url,
      schema: routeSchema(route, takesBody(route)),
      config: { operationId: op.id, writes },
      // A write moved to GET must not also run on HEAD (curl -I, link checkers, prefetchers).
      exposeHeadRoute: !writes,
      // Action endpoints accept no body at all; validate it as the empty object it means.
      ...(op.body === undefined ? {} : {
        preValidation: (request: FastifyRequest, _reply: unknown, done: () => void) => {
          if (request.body === undefined || request.body === null) request.body = {}
          done()
        }
      }),
      // The core answers; this adapter only turns the Fastify request into the core's and sends the answer.
      handler: (request, reply) => {
        const answer = answerer(new FastifyCoreRequest(request, publicUrl))
        if (isThenable(answer)) return Promise.resolve(answer).then(done => send(request, reply, done))
        send(request, reply, answer)
        return undefined
      }
    })
  }

  function send (request: FastifyRequest, reply: FastifyReply, answer: Answer): FastifyReply | undefined {
    if (answer.drop !== true) return sendAnswer(reply, answer)
    // No response follows, so the journal is written here; hijack keeps Fastify from answering.
    journalRequest(services, request, 0, reply.elapsedTime, 'fault', answer.headers?.[FAULT_HEADER]?.split(', '))
    reply.hijack()
    reply.raw.destroy()
    return undefined
  }
}

/** A write moved to GET (only a bodiless one may be, see resolveRoutes) reads no body. */
export function takesBody (route: ResolvedRoute): boolean {
  return route.operation.body !== undefined && route.method !== 'GET'
}

export function routeSchema (route: ResolvedRoute, withBody: boolean): Record<string, unknown> {
  const op = route.operation
  const response: Record<number, TSchema> = { [op.success.status]: { ...Type.Ref(op.success.schema), description: op.success.description } }
  for (const status of op.success.alternatives ?? []) response[status] = { ...Type.Ref(op.success.schema), description: op.success.description }
  const bodyErrors = withBody ? [413, 415] : []
  for (const status of [400, 404, ...bodyErrors, ...op.errors]) response[status] = { ...Type.Ref('Problem'), description: problemDescription(status) }
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
  429: 'Rate limited; see Retry-After'
}

function problemDescription (status: number): string {
  return PROBLEM_DESCRIPTIONS[status] ?? 'Problem'
}

