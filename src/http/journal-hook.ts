import type { FastifyInstance } from 'fastify'
import type { MockServices } from './services.js'

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-mock-admin-token'])

/** Records every API request of a session (not the control plane, docs or contract). */
export function installJournal (app: FastifyInstance, services: MockServices): void {
  app.addHook('onResponse', async (request, reply) => {
    const operationId = request.routeOptions.config.operationId ?? null
    const unmatched = reply.statusCode === 404 && request.routeOptions.url === undefined
    if (operationId === null && !unmatched) return
    if (request.url.startsWith('/__mock')) return
    let session = request.mockSession
    if (session === null) {
      try {
        session = services.sessionOf(request)
      } catch {
        return // an invalid session id has nowhere to be journaled
      }
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue
      headers[name] = REDACTED_HEADERS.has(name) ? '[REDACTED]' : Array.isArray(value) ? value.join(', ') : value
    }
    const path = request.url.split('?')[0] ?? request.url
    session.journal.record({
      time: session.world.clock.now().toISOString(),
      method: request.method,
      path,
      url: request.url,
      operationId,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      headers,
      body: request.body ?? null
    })
  })
}
