import { stringify } from 'safe-stable-stringify'
import { base64url, sha256Bytes } from '../world/digest.js'
import type { StoredAnswer } from '../world/idempotency.js'
import { FAULT_HEADER, SOURCE_HEADER } from './faults.js'
import { HttpProblem, problem, problemAnswer } from './problem.js'
import { pathOf, type Answer, type CoreRequest, type Headers } from './exchange.js'

/**
 * `Idempotency-Key` on writes, as Stripe, Increase and Column take it. Which answers are kept for
 * a retry (see docs/reference/api.md, "Idempotent retries"): those the operation itself gave,
 * a success or the domain's 4xx (404, 409, 410, 422), because a retry of the same request would
 * get the same. Not kept, so that a retry with the key runs the operation: a 400 (the request was
 * refused before the operation ran), a 401, a 429 (its Retry-After invites the same request
 * again), a 5xx, and whatever a fault rule, `Prefer: code=` or a response example answered (they
 * stand in for the network or the bank's outage, before the operation ran).
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed'

const POINTER = '/headers/idempotency-key'

/** Printable ASCII (space to tilde), 1 to 255 characters. */
const KEY = /^[\x20-\x7e]{1,255}$/

/** Headers that describe how the mock handled one request, not the answer: never replayed. */
const DIAGNOSTIC_HEADERS = new Set([FAULT_HEADER, SOURCE_HEADER, 'preference-applied'])

/** The request's key; undefined without one; a 400 naming the header for one that is not 1–255 printable ASCII characters. */
export function idempotencyKeyOf (headers: Headers): string | undefined {
  const value = headers[IDEMPOTENCY_KEY_HEADER]
  if (value === undefined) return undefined
  const key = Array.isArray(value) ? value.join(', ') : value
  if (KEY.test(key)) return key
  const rule = 'must be 1 to 255 printable ASCII characters'
  throw new HttpProblem(problem(400, 'invalid_idempotency_key', `Idempotency-Key ${rule}; this one has ${key.length === 0 ? 'none' : `${key.length} characters${/[^\x20-\x7e]/.test(key) ? ', some not printable ASCII' : ''}`}.`, {
    errors: [{ pointer: POINTER, message: rule }]
  }))
}

/** What makes two requests the same one: the operation, its path parameters and its body, keys in any order. */
export function fingerprintOf (operationId: string, params: unknown, body: unknown): string {
  return base64url(sha256Bytes(stringify([operationId, params ?? {}, body ?? {}]) ?? ''))
}

/** The domain's refusals that a retry of the same request would meet again: kept for replay like a success. */
export const REPLAYABLE_ERRORS: readonly number[] = [404, 409, 410, 422]

/** Whether an answer is kept for replay (see the top of this file). `handled`: the operation's handler gave it. */
export function isReplayable (answer: Answer, handled: boolean): boolean {
  const kept = (answer.status >= 200 && answer.status < 300) || REPLAYABLE_ERRORS.includes(answer.status)
  return handled && kept && answer.drop !== true && (answer.text !== undefined || answer.body !== undefined)
}

/**
 * The answer as text, so that the first answer and every replay are the same bytes whichever
 * transport sends them; `serialize` writes a JSON body as the route's response schema says.
 */
export function asStored (answer: Answer, serialize: (status: number, body: unknown) => string): StoredAnswer {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(answer.headers ?? {})) if (!DIAGNOSTIC_HEADERS.has(name)) headers[name] = value
  return answer.text !== undefined
    ? { status: answer.status, headers, contentType: answer.contentType ?? 'application/json; charset=utf-8', text: answer.text }
    : { status: answer.status, headers, contentType: 'application/json; charset=utf-8', text: serialize(answer.status, answer.body) }
}

/** The first answer as it goes out: the stored text, with the diagnostics of this request. */
export function sentAsStored (answer: Answer, stored: StoredAnswer): Answer {
  return { status: stored.status, headers: { ...answer.headers }, text: stored.text, contentType: stored.contentType }
}

export function replayOf (stored: StoredAnswer): Answer {
  return { status: stored.status, headers: { ...stored.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' }, text: stored.text, contentType: stored.contentType }
}

export function keyReusedAnswer (request: CoreRequest): Answer {
  return problemAnswer(problem(422, 'idempotency_key_reused',
    'This Idempotency-Key was used with another request (another operation, path or body) within the last 24 hours of the session clock; a new request needs a new key.', {
      instance: pathOf(request.url),
      errors: [{ pointer: POINTER, message: 'was used with another request' }]
    }))
}

export function inProgressAnswer (request: CoreRequest): Answer {
  return problemAnswer(problem(409, 'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being answered; retry with the same key once it has finished to get its answer.', {
      instance: pathOf(request.url),
      errors: [{ pointer: POINTER, message: 'is held by a request in flight' }]
    }), 1)
}
