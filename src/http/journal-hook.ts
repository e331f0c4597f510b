import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { JournalEntry } from '../state/journal.js'
import { DEFAULT_SESSION } from '../state/sessions.js'
import type { MockServices } from './services.js'
import { sessionIdOf } from './request-context.js'

export const SOURCE_HEADER = 'x-mock-source'
export const FAULT_HEADER = 'x-mock-fault'

/** Records every API request of a session (not the control plane, docs or contract). */
export function installJournal (app: FastifyInstance, services: MockServices): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // routeOptions builds a new object on every read: read it once.
    const route = request.routeOptions
    const operationId = route.config.operationId ?? null
    // Answered by the not-found handler: 404, or 405 for a known path with another method.
    const unmatched = route.url === undefined
    if ((operationId !== null || unmatched) && !request.url.startsWith('/__mock')) {
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
 * Writes one journal entry. The onResponse hook calls it; so does fault injection when it drops
 * the connection, and journalClientLeft, because no response (and so no onResponse) follows then.
 */
export function journalRequest (
  services: MockServices, request: FastifyRequest, status: number, elapsedMs: number,
  source?: JournalEntry['source'], faults?: string[], operationId = request.routeOptions.config.operationId ?? null,
  clientLeft = false
): void {
  let session = request.mockSession
  if (session === null) {
    try {
      // A request to no route only joins a session that exists (or the default one): a scan of
      // random URLs with new session ids must not build worlds and push live sessions out.
      // The session is not announced here: this answer has gone, the next one says it was created.
      const id = sessionIdOf(request)
      session = operationId === null && id !== DEFAULT_SESSION ? services.sessions.peek(id) ?? null : services.sessions.get(id)
    } catch {
      return // an invalid session id has nowhere to be journaled
    }
    if (session === null) return
  }
  session.journal.record({
    timeMs: session.world.clock.nowMs(),
    method: request.method,
    url: request.url,
    operationId,
    status,
    durationMs: Math.round(elapsedMs * 100) / 100,
    headers: request.headers,
    body: journalBody(request.body, request.headers),
    source,
    faults,
    ...(clientLeft ? { clientLeft } : {})
  })
}

function sourceOf (reply: FastifyReply): JournalEntry['source'] {
  const value = reply.getHeader(SOURCE_HEADER)
  return value === 'override' || value === 'prefer' || value === 'fault' ? value : undefined
}

function faultsOf (reply: FastifyReply): string[] | undefined {
  const value = reply.getHeader(FAULT_HEADER)
  return typeof value === 'string' ? value.split(',').map(id => id.trim()) : undefined
}

/** Bodies above this many bytes are journaled as a note, so a session's journal stays small. */
export const JOURNAL_BODY_LIMIT = 4096

function journalBody (body: unknown, headers: FastifyRequest['headers']): unknown {
  const contentLength = headers['content-length']
  // No body was sent (the `{}` an action endpoint validates is the mock's, not the client's).
  if (body === undefined || body === null || (contentLength === undefined && headers['transfer-encoding'] === undefined)) return null
  // A chunked body has no Content-Length: measure it (rare, so the cost is too).
  const bytes = contentLength === undefined ? Buffer.byteLength(JSON.stringify(body)) : Number(contentLength)
  return bytes > JOURNAL_BODY_LIMIT ? { truncated: true, bytes } : body
}
