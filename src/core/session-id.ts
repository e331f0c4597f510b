import { HttpProblem, problem } from './problem.js'
import type { Headers } from './exchange.js'

export const SESSION_HEADER = 'x-mock-session'
export const DEFAULT_SESSION_ID = 'default'

/** `true` on the first answer from a session made from the scenario: its first use, or after it was dropped (evicted, idle, deleted). */
export const SESSION_CREATED_HEADER = 'x-mock-session-created'

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The session a request selects with `x-mock-session` (`default` without it); a malformed id is a 400. */
export function sessionIdFrom (headers: Headers): string {
  const raw = headers[SESSION_HEADER]
  if (raw === undefined || raw === '') return DEFAULT_SESSION_ID
  const value = Array.isArray(raw) ? raw[0] ?? '' : raw
  if (!SESSION_ID.test(value)) {
    throw new HttpProblem(problem(400, 'invalid_session_id', `${SESSION_HEADER} must be 1-128 characters of letters, digits and . _ : -`, {
      errors: [{ pointer: `/headers/${SESSION_HEADER}`, message: 'must match ^[A-Za-z0-9._:-]{1,128}$' }]
    }))
  }
  return value
}
