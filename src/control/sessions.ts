import { Type } from 'typebox'
import { HttpProblem, problem } from '../core/problem.js'
import { SESSION_CREATED_HEADER } from '../core/session-id.js'
import { controlRoute, respond, type ControlRoute } from './route.js'
import { StrictObject } from '../core/schemas/common.js'
import { MAX_PINNED_SESSIONS, type Session } from '../world/sessions.js'
import { BODY_PROBLEMS, CONTROL_TAGS, NoContent, responses } from './schemas.js'

const SessionSummary = Type.Object({
  id: Type.String(),
  scenario: Type.String(),
  createdAt: Type.String({ description: 'Wall-clock time the session was created' }),
  lastSeen: Type.String({ description: 'Wall-clock time of its last request' }),
  now: Type.String({ description: 'The session\'s own (virtual) clock' }),
  pinned: Type.Boolean({ description: 'Kept whatever the traffic: neither evicted nor expired when idle' }),
  journalSize: Type.Integer(),
  journalBytes: Type.Integer({ description: 'What its journal entries are accounted at against the shared journal budget' }),
  outboxSize: Type.Integer(),
  faults: Type.Integer({ description: 'Fault rules in effect' })
}, { description: 'A session' })

function summary (session: Session): Record<string, unknown> {
  return {
    id: session.id,
    scenario: session.world.scenario,
    createdAt: new Date(session.createdMs).toISOString(),
    lastSeen: new Date(session.lastSeenMs).toISOString(),
    now: session.world.clock.now().toISOString(),
    pinned: session.pinned,
    journalSize: session.journal.size,
    journalBytes: session.journal.bytes,
    outboxSize: session.world.outbox.list().length,
    faults: session.faults.size
  }
}

const SessionParams = StrictObject({ sessionId: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$' }) })

function notFound (sessionId: string): HttpProblem {
  return new HttpProblem(problem(404, 'session_not_found', `No session ${sessionId} (never used, or already evicted).`))
}

/** The isolated worlds alive on this server; listing them does not touch them. */
export const sessionRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/sessions',
    session: 'none',
    schema: {
      operationId: 'mockListSessions',
      tags: CONTROL_TAGS,
      summary: 'Sessions alive, most recently used first',
      description: 'A session is created by the first request with its `x-mock-session` id (no header: `default`); that answer carries `x-mock-session-created: true`. ' +
        'Beyond the maximum the least recently used goes; idle ones expire. `default` and pinned sessions are never evicted nor expired.',
      response: responses({
        200: Type.Object({
          maxSessions: Type.Integer(),
          idleTimeoutSeconds: Type.Number(),
          maxPinned: Type.Integer({ description: 'Sessions that may be pinned at once' }),
          journal: Type.Object({
            bytes: Type.Integer({ description: 'Accounted bytes the journals of all sessions hold now' }),
            maxBytes: Type.Integer({ description: 'What they may hold together (--journal-max-bytes); beyond it the oldest entries go, whatever their session' })
          }),
          sessions: Type.Array(SessionSummary)
        }, { description: 'The sessions' })
      })
    },
    handle: async call => {
      // Replicas on a shared store: the sessions are the store's, not only those this one served.
      await call.services.sessions.refresh()
      call.services.sessions.sweep()
      return {
        maxSessions: call.services.sessions.maxSessions,
        idleTimeoutSeconds: call.services.sessions.idleTimeoutMs / 1000,
        maxPinned: MAX_PINNED_SESSIONS,
        journal: call.services.sessions.journalBytes,
        sessions: call.services.sessions.list().reverse().map(summary)
      }
    }
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/sessions/:sessionId',
    session: 'none',
    schema: {
      operationId: 'mockDeleteSession',
      tags: CONTROL_TAGS,
      summary: 'Drop a session: its world, clock, journal, outbox and faults',
      description: 'The next request with that id starts a fresh session from the active scenario (so deleting `default` resets it, journal included). A pinned session is dropped too.',
      params: SessionParams,
      response: responses({ 204: NoContent('Dropped') }, 404, ...BODY_PROBLEMS)
    },
    handle: async call => {
      const { sessionId } = call.params
      if (!await call.services.sessions.delete(sessionId)) throw notFound(sessionId)
      return respond(204)
    }
  }),
  controlRoute({
    method: 'POST',
    url: '/__mock/sessions/:sessionId/pin',
    session: 'none',
    schema: {
      operationId: 'mockPinSession',
      tags: CONTROL_TAGS,
      summary: 'Pin a session: no flood of new sessions evicts it, and it does not expire when idle',
      description: `For a CI job on a shared server: pin its session first (it is created from the active scenario if needed, and then this answer carries \`${SESSION_CREATED_HEADER}: true\`), ` +
        `unpin or delete it when done. Pinned sessions do not count against --max-sessions; at most ${MAX_PINNED_SESSIONS} at once (409 too_many_pinned_sessions). Pinning twice is harmless.`,
      params: SessionParams,
      response: responses({ 200: SessionSummary }, 409, ...BODY_PROBLEMS)
    },
    handle: async call => {
      const { sessionId } = call.params
      const session = await call.services.sessions.pin(sessionId)
      if (session === undefined) {
        throw new HttpProblem(problem(409, 'too_many_pinned_sessions', `At most ${MAX_PINNED_SESSIONS} sessions may be pinned at once; unpin one (DELETE /__mock/sessions/{id}/pin) or delete it.`))
      }
      return respond(200, summary(session), announced(session))
    }
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/sessions/:sessionId/pin',
    session: 'none',
    schema: {
      operationId: 'mockUnpinSession',
      tags: CONTROL_TAGS,
      summary: 'Unpin a session: it may be evicted and expire again, like any other',
      description: 'Its world, journal and faults stay as they are; only the protection from eviction and idle expiry ends. An unknown session is 404.',
      params: SessionParams,
      response: responses({ 200: SessionSummary }, 404, ...BODY_PROBLEMS)
    },
    handle: async call => {
      const { sessionId } = call.params
      const session = await call.services.sessions.unpin(sessionId)
      if (session === undefined) throw notFound(sessionId)
      return summary(session)
    }
  })
]

/** The pin names its session in the path, not in x-mock-session: it tells of a creation itself. */
function announced (session: Session): Record<string, string> {
  if (!session.unannounced) return {}
  session.unannounced = false
  return { [SESSION_CREATED_HEADER]: 'true' }
}
