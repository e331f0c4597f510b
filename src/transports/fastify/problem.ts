import type { FastifyReply } from 'fastify'
import type { ProblemBody } from '../../core/problem.js'
import type { ShapedProblem } from '../../dialect/refusals.js'

export { DomainError, fromDomainError, HttpProblem, problem, problemType, retryAfterFor, titleFor, type ProblemBody } from '../../core/problem.js'

/**
 * Sends a problem as a pre-serialised string so no response schema can filter it; `shaped`, the
 * dialect's rendering of it (src/dialect/refusals.ts), in place of problem+json.
 */
export function sendProblem (reply: FastifyReply, body: ProblemBody, retryAfterSeconds?: number, shaped?: ShapedProblem): FastifyReply {
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterSeconds))))
  // RFC 9110: a 401 names how to authenticate.
  if (body.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', 'Bearer realm="baas-mock"')
  return reply.code(body.status).type(shaped?.contentType ?? 'application/problem+json').send(shaped?.text ?? JSON.stringify(body))
}
