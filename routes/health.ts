import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'

const Health = Type.Object({ status: Type.String(), uptimeSeconds: Type.Number() }, { additionalProperties: false })

/** Liveness and readiness for orchestrators; the app is built only once fixtures loaded, so ready = listening. */
export async function healthRoutes (app: FastifyInstance, { scenarios }: { scenarios: number }): Promise<void> {
  const schema = (operationId: string, summary: string, description: string) => ({ operationId, tags: ['Mock control'], summary, description, response: { 200: Health } })
  app.get('/healthz', { schema: schema('healthz', 'Liveness: the process answers', 'Always 200 while the process runs; no token, no session.') },
    async () => ({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) }))
  app.get('/readyz', { schema: { ...schema('readyz', 'Readiness: fixtures loaded, routes registered', 'The mock listens only once fixtures are loaded and routes registered, so an answer means ready; it counts the scenarios loaded. No token, no session.'), response: { 200: Type.Object({ status: Type.String(), uptimeSeconds: Type.Number(), scenarios: Type.Integer() }, { additionalProperties: false }) } } },
    async () => ({ status: 'ready', uptimeSeconds: Math.round(process.uptime()), scenarios }))
}
