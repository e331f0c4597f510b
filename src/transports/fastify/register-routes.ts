import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isThenable, type Answer } from '../../core/exchange.js'
import { FAULT_HEADER } from '../../core/faults.js'
import type { RouteDefinition } from '../../core/route-definition.js'
import { FastifyCoreRequest, sendAnswer } from './answer.js'
import { journalRequest } from './journal-hook.js'
import type { MockServices } from './services.js'

/** Registers transport-free route definitions as Fastify routes: Fastify validates and serialises, the core answers. */
export function registerDefinitions (app: FastifyInstance, definitions: readonly RouteDefinition[], services: MockServices): void {
  const publicUrl = services.config.publicUrl
  for (const definition of definitions) {
    app.route({
      method: definition.method,
      url: definition.url,
      schema: definition.schema,
      // The journal hook reads which operation answered (control-plane routes have none), the feed whether it wrote.
      config: definition.operationId === null ? { writes: definition.writes } : { operationId: definition.operationId, writes: definition.writes },
      exposeHeadRoute: definition.exposeHead,
      ...(definition.emptyBodyAsObject ? { preValidation: emptyBodyAsObject } : {}),
      handler: (request, reply) => {
        const answer = definition.answer(new FastifyCoreRequest(request, publicUrl))
        if (isThenable(answer)) return Promise.resolve(answer).then(done => send(request, reply, done))
        return send(request, reply, answer)
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

/** Action endpoints accept no body at all; it is validated as the empty object it means. */
function emptyBodyAsObject (request: FastifyRequest, _reply: unknown, done: () => void): void {
  if (request.body === undefined || request.body === null) request.body = {}
  done()
}
