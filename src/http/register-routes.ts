import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isThenable } from '../core/exchange.js'
import type { RouteDefinition } from '../core/route-definition.js'
import { FastifyCoreRequest, sendAnswer } from './answer.js'

/** Registers transport-free route definitions as Fastify routes: Fastify validates and serialises, the core answers. */
export function registerDefinitions (app: FastifyInstance, definitions: readonly RouteDefinition[], publicUrl: string | undefined): void {
  for (const definition of definitions) {
    app.route({
      method: definition.method,
      url: definition.url,
      schema: definition.schema,
      exposeHeadRoute: definition.exposeHead,
      ...(definition.emptyBodyAsObject ? { preValidation: emptyBodyAsObject } : {}),
      handler: (request, reply) => {
        const answer = definition.answer(new FastifyCoreRequest(request, publicUrl))
        if (isThenable(answer)) return Promise.resolve(answer).then(done => sendAnswer(reply, done))
        return sendAnswer(reply, answer)
      }
    })
  }
}

function emptyBodyAsObject (request: FastifyRequest, _reply: unknown, done: () => void): void {
  if (request.body === undefined || request.body === null) request.body = {}
  done()
}
