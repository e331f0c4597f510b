import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'

const Health = Type.Object({ status: Type.String(), uptimeSeconds: Type.Number() }, { additionalProperties: false })

/** Liveness and readiness for orchestrators; the app is built only once fixtures loaded, so ready = listening. */
export async function healthRoutes (app: FastifyInstance, { scenarios }: { scenarios: number }): Promise<void> {
  const schema = (operationId: string, summary: string) => ({ operationId, tags: ['Mock control'], summary, response: { 200: Health } })
  app.get('/healthz', { schema: schema('healthz', 'Liveness: the process answers') }, async () => ({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) }))
  app.get('/readyz', { schema: { ...schema('readyz', 'Readiness: fixtures loaded, routes registered'), response: { 200: Type.Object({ status: Type.String(), uptimeSeconds: Type.Number(), scenarios: Type.Integer() }, { additionalProperties: false }) } } },
    async () => ({ status: 'ready', uptimeSeconds: Math.round(process.uptime()), scenarios }))
}
