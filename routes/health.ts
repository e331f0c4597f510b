import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { problem } from '../src/core/problem.js'
import { sendProblem } from '../src/transports/fastify/problem.js'

const Health = Type.Object({ status: Type.String(), uptimeSeconds: Type.Number() }, { additionalProperties: false })

interface HealthOptions {
  scenarios: number
  /** Rejects while the session store cannot be used (Redis unreachable, or a write refused: disk or Redis full); absent for memory. */
  checkStore: (() => Promise<void>) | undefined
}

/**
 * Liveness and readiness for orchestrators. The app is built only once fixtures loaded, so
 * listening means ready, unless the session store is remote and unreachable: then not ready (503),
 * so that a load balancer sends requests to the replicas that can serve them. Liveness never asks
 * the store: a replica waiting for Redis is not to be restarted.
 */
export async function healthRoutes (app: FastifyInstance, { scenarios, checkStore }: HealthOptions): Promise<void> {
  const schema = (operationId: string, summary: string, description: string) => ({ operationId, tags: ['Mock control'], summary, description, response: { 200: Health } })
  app.get('/healthz', { schema: schema('healthz', 'Liveness: the process answers', 'Always 200 while the process runs; no token, no session.') },
    async () => ({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) }))
  app.get('/readyz', {
    schema: {
      ...schema('readyz', 'Readiness: fixtures loaded, routes registered, the session store reachable',
        'The mock listens only once fixtures are loaded and routes registered; it counts the scenarios loaded. With a Redis store (--store), 503 store_unavailable while Redis cannot be reached. No token, no session.'),
      response: {
        200: Type.Object({ status: Type.String(), uptimeSeconds: Type.Number(), scenarios: Type.Integer() }, { additionalProperties: false }),
        503: { ...Type.Ref('Problem'), description: 'Not ready: the session store cannot be reached; see Retry-After' }
      }
    }
  }, async (request, reply) => {
    if (checkStore !== undefined) {
      try {
        await checkStore()
      } catch (error) {
        // The store's own log line says why; a probe every few seconds must not add one each.
        const why = error instanceof Error && error.message.startsWith('the state store cannot write') ? `${error.message}; reads go on` : 'The session store cannot be reached'
        return sendProblem(reply, problem(503, 'store_unavailable', `${why}; this replica serves again as soon as it can.`, { instance: request.url }), 1)
      }
    }
    return { status: 'ready', uptimeSeconds: Math.round(process.uptime()), scenarios }
  })
}
