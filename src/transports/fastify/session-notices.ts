import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { DropReport } from '../../world/sessions.js'
import { SESSION_CREATED_HEADER } from './request-context.js'

/**
 * The control plane's `onSend`: a call that made its session from the scenario (a CI job's first
 * call, or the first after its session was evicted) says so, as the API's answers do.
 */
export function announceCreatedSession (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (request.mockSessionCreated) reply.header(SESSION_CREATED_HEADER, 'true')
  done(null, payload)
}

/**
 * One line per sweep for the sessions dropped since the last: a warning when some were evicted
 * (their state is gone while someone may still use it), information when they only idled out.
 */
export function logDroppedSessions (app: { log: FastifyBaseLogger }, report: DropReport, maxSessions: number): void {
  const { evicted, expired, evictedIds, size } = report
  if (evicted > 0) {
    const more = evicted > evictedIds.length ? `, and ${evicted - evictedIds.length} more` : ''
    app.log.warn({ evicted, expired, sessions: size, maxSessions, evictedIds },
      `${evicted} session(s) evicted for newer ones (over --max-sessions ${maxSessions}): ${evictedIds.join(', ')}${more}; ` +
      `${expired} expired idle. Pin a session that must stay: POST /__mock/sessions/{id}/pin.`)
  } else {
    app.log.info({ expired, sessions: size }, `${expired} idle session(s) expired.`)
  }
}
