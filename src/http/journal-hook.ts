import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { JournalEntry } from '../state/journal.js'
import type { MockServices } from './services.js'

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-mock-admin-token'])

export const SOURCE_HEADER = 'x-mock-source'
export const FAULT_HEADER = 'x-mock-fault'

/** Request headers as strings, with credentials replaced so the journal and templates never show them. */
export function redactHeaders (raw: FastifyRequest['headers']): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    headers[name] = REDACTED_HEADERS.has(name) ? '[REDACTED]' : Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** Records every API request of a session (not the control plane, docs or contract). */
export function installJournal (app: FastifyInstance, services: MockServices): void {
  app.addHook('onResponse', async (request, reply) => {
    const operationId = request.routeOptions.config.operationId ?? null
    const unmatched = reply.statusCode === 404 && request.routeOptions.url === undefined
    if (operationId === null && !unmatched) return
    if (request.url.startsWith('/__mock')) return
    journalRequest(services, request, reply.statusCode, reply.elapsedTime, sourceOf(reply), faultsOf(reply))
  })
}

/**
 * Writes one journal entry. The onResponse hook calls it; so does fault injection when it drops
 * the connection, because no response (and so no onResponse) follows then.
 */
export function journalRequest (
  services: MockServices, request: FastifyRequest, status: number, elapsedMs: number,
  source?: JournalEntry['source'], faults?: string[]
): void {
  let session = request.mockSession
  if (session === null) {
    try {
      session = services.sessionOf(request)
    } catch {
      return // an invalid session id has nowhere to be journaled
    }
  }
  session.journal.record({
    time: session.world.clock.now().toISOString(),
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
    url: request.url,
    operationId: request.routeOptions.config.operationId ?? null,
    status,
    durationMs: Math.round(elapsedMs * 100) / 100,
    headers: redactHeaders(request.headers),
    body: journalBody(request.body, request.headers['content-length']),
    ...(source === undefined ? {} : { source }),
    ...(faults === undefined ? {} : { faults })
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

function journalBody (body: unknown, contentLength: string | undefined): unknown {
  const bytes = Number(contentLength ?? 0)
  if (bytes > JOURNAL_BODY_LIMIT) return { truncated: true, bytes }
  return body ?? null
}
