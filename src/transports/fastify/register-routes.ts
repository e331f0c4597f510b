import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isThenable, type Answer } from '../../core/exchange.js'
import { FAULT_HEADER } from '../../core/faults.js'
import type { RouteDefinition } from '../../core/route-definition.js'
import { FastifyCoreRequest, sendAnswer } from './answer.js'
import { journalClientLeft, journalRequest } from './journal-hook.js'
import type { MockServices } from './services.js'

const acceptAll = (): boolean => true

/**
 * Registers transport-free route definitions as Fastify routes: Fastify validates and serialises
 * (a missing body is read as {}, see optional-body.ts), the core answers.
 */
export function registerDefinitions (app: FastifyInstance, definitions: readonly RouteDefinition[], services: MockServices): void {
  const publicUrl = services.config.publicUrl
  const trustedHops = services.config.trustProxyHops
  for (const definition of definitions) {
    const journaled = definition.operationId !== null
    app.route({
      method: definition.method,
      url: definition.url,
      schema: definition.schema,
      // The journal hook reads which operation answered (control-plane routes have none), the feed whether it wrote.
      config: journaled ? { operationId: definition.operationId ?? undefined, writes: definition.writes } : { writes: definition.writes },
      exposeHeadRoute: definition.exposeHead,
      // The schema stays for the document; the answerer validates (see RouteDefinition.validatedByAnswer).
      ...(definition.validatedByAnswer === true ? { validatorCompiler: () => acceptAll } : {}),
      handler: (request, reply) => {
        // A client that hung up before the answer gets no onResponse, so no journal entry: the
        // synchronous case needs one property read to know it, the asynchronous one a listener.
        const leftBefore = reply.raw.destroyed
        const answer = definition.answer(new FastifyCoreRequest(request, publicUrl, trustedHops))
        if (!isThenable(answer)) {
          const sent = send(request, reply, answer)
          if (leftBefore && journaled) journalClientLeft(services, request, reply)
          return sent
        }
        return journaled ? answerLater(request, reply, answer, leftBefore) : Promise.resolve(answer).then(done => send(request, reply, done))
      }
    })
  }

  /** The slow path (faults, Prefer, delays): the answer is sent here, so the status is known when a client that left is journaled. */
  async function answerLater (request: FastifyRequest, reply: FastifyReply, pending: PromiseLike<Answer>, leftBefore: boolean): Promise<FastifyReply | undefined> {
    const response = reply.raw
    let clientLeft = leftBefore
    // Closed before the answer was even begun: the client hung up (after it, the close is ours).
    const onClose = (): void => { if (!response.writableEnded) clientLeft = true }
    response.once('close', onClose)
    let dropped = false
    try {
      const answer = await pending
      dropped = answer.drop === true
      send(request, reply, answer)
    } catch (error) {
      if (!reply.sent) reply.send(error)
    } finally {
      response.removeListener('close', onClose)
    }
    if (clientLeft && !dropped) journalClientLeft(services, request, reply)
    return reply
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
