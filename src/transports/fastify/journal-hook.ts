import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isJournalSource, type JournalEntry } from '../../world/journal.js'
import { journalExchange } from '../../core/journal-exchange.js'
import type { MockServices } from './services.js'
import { FAULT_HEADER, SOURCE_HEADER } from '../../core/faults.js'
import { IDEMPOTENT_REPLAYED_HEADER } from '../../core/idempotency.js'
import { isControlPath } from '../../control/control-path.js'

export { FAULT_HEADER, SOURCE_HEADER } from '../../core/faults.js'
export { JOURNAL_BODY_LIMIT } from '../../core/journal-exchange.js'

/**
 * Records every API request of a session, and every request no route answered outside the control
 * plane (not the control plane, docs or contract), as mock.fetch does.
 */
export function installJournal (app: FastifyInstance, services: MockServices): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // routeOptions builds a new object on every read: read it once.
    const route = request.routeOptions
    const operationId = route.config.operationId ?? null
    // Answered by the not-found handler: 404, or 405 for a known path with another method.
    const unmatched = route.url === undefined
    if (operationId !== null || (unmatched && !isControlPath(request.url))) {
      journalRequest(services, request, reply.statusCode, reply.elapsedTime, sourceOf(reply), faultsOf(reply), operationId)
    }
    done()
  })
}

/**
 * A client that hung up before its answer went out gets none, so onResponse never runs for its
 * request, yet what the request did (a write after a `Prefer: delay` or a fault's delay) happened:
 * it is journaled here, noting that the client left. Called once the answer was handed to Node.
 */
export function journalClientLeft (services: MockServices, request: FastifyRequest, reply: FastifyReply): void {
  journalRequest(services, request, reply.statusCode, reply.elapsedTime, sourceOf(reply), faultsOf(reply), undefined, true)
}

/**
 * Writes one journal entry. The onResponse hook calls it; so does the operation route when a fault
 * drops the connection, and journalClientLeft, because no response (and so no onResponse) follows then.
 */
export function journalRequest (
  services: MockServices, request: FastifyRequest, status: number, elapsedMs: number,
  source?: JournalEntry['source'], faults?: string[], operationId = request.routeOptions.config.operationId ?? null,
  clientLeft = false
): void {
  journalExchange(services, { method: request.method, url: request.url, headers: request.headers, body: request.body, session: request.mockSession, persona: request.mockPersona }, {
    status, elapsedMs, source, faults, operationId, clientLeft
  })
}

function sourceOf (reply: FastifyReply): JournalEntry['source'] {
  const value = reply.getHeader(SOURCE_HEADER)
  if (isJournalSource(value)) return value
  return reply.getHeader(IDEMPOTENT_REPLAYED_HEADER) === 'true' ? 'replay' : undefined
}

function faultsOf (reply: FastifyReply): string[] | undefined {
  const value = reply.getHeader(FAULT_HEADER)
  return typeof value === 'string' ? value.split(',').map(id => id.trim()) : undefined
}
