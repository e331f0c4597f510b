import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { HttpProblem, problem } from '../transports/fastify/problem.js'
import type { MockServices } from '../transports/fastify/services.js'
import { StrictObject } from '../core/schemas/common.js'
import type { Session } from '../world/sessions.js'
import { BODY_PROBLEMS, CONTROL_TAGS, NoContent, responses } from './schemas.js'

const SessionSummary = Type.Object({
  id: Type.String(),
  scenario: Type.String(),
  createdAt: Type.String({ description: 'Wall-clock time the session was created' }),
  lastSeen: Type.String({ description: 'Wall-clock time of its last request' }),
  now: Type.String({ description: 'The session\'s own (virtual) clock' }),
  journalSize: Type.Integer(),
  outboxSize: Type.Integer(),
  faults: Type.Integer({ description: 'Fault rules in effect' })
})

function summary (session: Session): Record<string, unknown> {
  return {
    id: session.id,
    scenario: session.world.scenario,
    createdAt: new Date(session.createdMs).toISOString(),
    lastSeen: new Date(session.lastSeenMs).toISOString(),
    now: session.world.clock.now().toISOString(),
    journalSize: session.journal.size,
    outboxSize: session.world.outbox.list().length,
    faults: session.faults.size
  }
}

/** The isolated worlds alive on this server; listing them does not touch them. */
export async function sessionRoutes (app: FastifyInstance, { services }: { services: MockServices }): Promise<void> {
  app.get('/sessions', {
    schema: {
      operationId: 'mockListSessions',
      tags: CONTROL_TAGS,
      summary: 'Sessions alive, most recently used first',
      description: 'A session is created by the first request with its `x-mock-session` id (no header: `default`). ' +
        'Beyond the maximum the least recently used goes; idle ones expire. `default` is never evicted.',
      response: responses({
        200: Type.Object({
          maxSessions: Type.Integer(),
          idleTimeoutSeconds: Type.Number(),
          sessions: Type.Array(SessionSummary)
        }, { description: 'The sessions' })
      })
    }
  }, async () => {
    services.sessions.sweep()
    return {
      maxSessions: services.sessions.maxSessions,
      idleTimeoutSeconds: services.sessions.idleTimeoutMs / 1000,
      sessions: services.sessions.list().reverse().map(summary)
    }
  })

  app.delete('/sessions/:sessionId', {
    schema: {
      operationId: 'mockDeleteSession',
      tags: CONTROL_TAGS,
      summary: 'Drop a session: its world, clock, journal, outbox and faults',
      description: 'The next request with that id starts a fresh session from the active scenario (so deleting `default` resets it, journal included).',
      params: StrictObject({ sessionId: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$' }) }),
      response: responses({ 204: NoContent('Dropped') }, 404, ...BODY_PROBLEMS)
    }
  }, async (request, reply) => {
    const { sessionId } = request.params as { sessionId: string }
    if (!services.sessions.delete(sessionId)) throw new HttpProblem(problem(404, 'session_not_found', `No session ${sessionId} (never used, or already evicted).`))
    return reply.code(204).send()
  })
}
