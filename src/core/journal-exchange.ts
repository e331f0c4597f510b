import type { JournalEntry } from '../world/journal.js'
import { DEFAULT_SESSION, type Session } from '../world/sessions.js'
import type { Headers } from './exchange.js'
import type { CoreServices } from './services.js'
import { sessionIdFrom } from './session-id.js'
import type { Persona } from '../world/persona.js'
import { redactFields, secretFields, type FieldPath } from './secret-fields.js'

/** What the journal needs of a request, whichever transport carried it. */
export interface JournaledRequest {
  method: string
  url: string
  headers: Headers
  body: unknown
  /** The session the core resolved, when it got that far. */
  session: Session | null
  /** The persona the core resolved, when it got that far. */
  persona: Persona | null
}

export interface JournaledOutcome {
  status: number
  elapsedMs: number
  operationId: string | null
  source?: JournalEntry['source'] | undefined
  faults?: string[] | undefined
  /** The client hung up before the answer went out; what the request did happened all the same. */
  clientLeft?: boolean | undefined
}

/** Records one API request in its session's journal (the control plane, docs and contract are not journaled). */
export function journalExchange (services: CoreServices, request: JournaledRequest, outcome: JournaledOutcome): void {
  let session = request.session
  if (session === null) {
    try {
      // A request to no route only joins a session that exists (or the default one): a scan of
      // random URLs with new session ids must not build worlds and push live sessions out.
      const id = sessionIdFrom(request.headers)
      session = outcome.operationId === null && id !== DEFAULT_SESSION ? services.sessions.peek(id) ?? null : services.sessions.get(id)
    } catch {
      return // an invalid session id has nowhere to be journaled
    }
    if (session === null) return
  }
  services.sessions.journalRequest(session, {
    timeMs: session.world.clock.nowMs(),
    method: request.method,
    url: request.url,
    operationId: outcome.operationId,
    status: outcome.status,
    durationMs: Math.round(outcome.elapsedMs * 100) / 100,
    headers: request.headers,
    body: redactFields(journalBody(request.body, request.headers), secretsOf(services, outcome.operationId, session.world.scenario)),
    source: outcome.source,
    faults: outcome.faults,
    clientLeft: outcome.clientLeft === true,
    persona: request.persona ?? undefined
  })
}

/** Bodies above this many bytes are journaled as a note, so a session's journal stays small. */
export const JOURNAL_BODY_LIMIT = 4096

function journalBody (body: unknown, headers: Headers): unknown {
  const contentLength = headers['content-length']
  // No body was sent (the `{}` an action endpoint validates is the mock's, not the client's).
  if (body === undefined || body === null || (contentLength === undefined && headers['transfer-encoding'] === undefined)) return null
  // A chunked body has no Content-Length: measure it (rare, so the cost is too).
  const bytes = contentLength === undefined ? new TextEncoder().encode(JSON.stringify(body)).length : Number(contentLength)
  return bytes > JOURNAL_BODY_LIMIT ? { truncated: true, bytes } : body
}

/** The secret fields of each operation's body (an operation's schema is the same for every mock). */
const SECRETS = new Map<string, FieldPath[]>()

/**
 * Under a dialect the body journaled is the team's: its secrets are where the dialect reads them
 * from, and where the mock has them too (a body sent in the mock's shape by mistake is refused,
 * and journaled all the same).
 */
function secretsOf (services: CoreServices, operationId: string | null, scenario: string): readonly FieldPath[] {
  if (operationId === null) return []
  let fields = SECRETS.get(operationId)
  if (fields === undefined) {
    fields = secretFields(services.routes.find(route => route.operation.id === operationId)?.operation.body)
    SECRETS.set(operationId, fields)
  }
  if (fields.length === 0 || services.secretView === undefined) return fields
  const team = services.secretView(scenario, operationId, fields)
  return team === undefined ? fields : team
}
