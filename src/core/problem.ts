import { DomainError, type DomainErrorCode, type FieldError } from '../domain/errors.js'
import { PROBLEM_JSON, type Answer } from './exchange.js'
import { StoreConflictError, StoreUnavailableError } from '../world/stores/store.js'

/** The single place where domain error codes become HTTP statuses. */
const STATUS_BY_DOMAIN_CODE: Record<DomainErrorCode, number> = {
  customer_not_found: 404,
  customer_not_writable: 409,
  field_not_updatable: 422,
  card_not_found: 404,
  card_closed: 409,
  invalid_card_state: 409,
  statement_not_found: 404,
  no_email_on_file: 409,
  verification_not_found: 404,
  verification_expired: 410,
  invalid_code: 422,
  max_attempts: 429,
  resend_too_soon: 429,
  too_many_sends: 429,
  too_many_verifications: 429,
  pin_link_not_found: 404,
  pin_link_expired: 410,
  pin_link_used: 410,
  invalid_pin: 422,
  too_many_pin_links: 409,
  too_many_cards: 409,
  transfer_not_found: 404,
  invalid_transfer_state: 409,
  not_an_ach_transfer: 409,
  nothing_to_return: 409,
  unknown_return_code: 422,
  too_many_transfers: 409,
  account_not_found: 422,
  same_account: 422,
  amount_over_limit: 422,
  invalid_routing_number: 422,
  start_date_in_past: 422,
  end_date_before_start: 422,
  conflicting_end_conditions: 422,
  invalid_field: 422
}

/** RFC 9110's reason phrases; kept here rather than read from node:http so the core runs in a browser. */
const TITLES: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  411: 'Length Required', 412: 'Precondition Failed', 413: 'Content Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: 'I\'m a Teapot', 421: 'Misdirected Request', 422: 'Unprocessable Content',
  423: 'Locked', 424: 'Failed Dependency', 425: 'Too Early', 426: 'Upgrade Required', 428: 'Precondition Required',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported', 507: 'Insufficient Storage', 508: 'Loop Detected', 511: 'Network Authentication Required'
}

export interface ProblemBody {
  type: string
  title: string
  status: number
  detail: string
  code: string
  errors?: FieldError[]
  [extension: string]: unknown
}

export function problemType (code: string): string {
  return `urn:baas-mock:problem:${code}`
}

export function titleFor (status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error')
}

export function problem (status: number, code: string, detail: string, extra: { errors?: FieldError[] | undefined; [k: string]: unknown } = {}): ProblemBody {
  const { errors, ...extensions } = extra
  const body: ProblemBody = { type: problemType(code), title: titleFor(status), status, detail, code, ...extensions }
  if (errors !== undefined && errors.length > 0) body.errors = errors
  return body
}

export function fromDomainError (error: DomainError): { body: ProblemBody; retryAfter?: number } {
  const status = STATUS_BY_DOMAIN_CODE[error.code]
  const body = problem(status, error.code, error.message, { ...error.extensions, errors: error.errors })
  return error.retryAfterSeconds === undefined ? { body } : { body, retryAfter: error.retryAfterSeconds }
}

/**
 * A 429 or 503 the mock makes up (a fault, `Prefer: code=`) says when to retry, as its real limits
 * do: clients under test often need the header to take their retry path. A fault given
 * `retryAfter: 0` sends none, for testing the path without it.
 */
export function retryAfterFor (status: number, given?: number | null): number | undefined {
  if (given === 0) return undefined
  return given ?? (status === 429 || status === 503 ? 1 : undefined)
}

/** A problem thrown anywhere below a route; the transport's answer is its body. */
export class HttpProblem extends Error {
  constructor (readonly body: ProblemBody, readonly retryAfterSeconds?: number) {
    super(body.detail)
    this.name = 'HttpProblem'
  }
}

/** The problem+json answer, pre-serialised so no response schema can filter it. */
export function problemAnswer (body: ProblemBody, retryAfterSeconds?: number, headers: Record<string, string> = {}): Answer {
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)))
  // RFC 9110: a 401 names how to authenticate.
  if (body.status === 401 && headers['www-authenticate'] === undefined) headers['www-authenticate'] = 'Bearer realm="baas-mock"'
  return { status: body.status, headers, text: JSON.stringify(body), contentType: PROBLEM_JSON }
}

/**
 * What a thrown error answers: domain errors and problems as themselves (with `instance`, the
 * path); anything else is not the caller's fault and goes back to the transport, which logs it.
 */
export function answerForError (error: unknown, path: string, headers?: Record<string, string>): Answer | undefined {
  if (error instanceof DomainError) {
    const { body, retryAfter } = fromDomainError(error)
    return problemAnswer(withInstance(body, path), retryAfter, headers)
  }
  if (error instanceof HttpProblem) return problemAnswer(withInstance(error.body, path), error.retryAfterSeconds, headers)
  if (error instanceof StoreUnavailableError || error instanceof StoreConflictError) return problemAnswer(storeProblem(error, path), error instanceof StoreUnavailableError ? error.retryAfterSeconds : CONFLICT_RETRY_SECONDS, headers)
  return undefined
}

/** When a client may try again after other processes kept saving its session. */
const CONFLICT_RETRY_SECONDS = 1

/**
 * The store failed the request: nothing it did was acknowledged, so it may be retried as it was;
 * unless the store may have applied it (its answer was lost), when a blind retry could do it twice.
 */
function storeProblem (error: StoreUnavailableError | StoreConflictError, path: string): ProblemBody {
  if (error instanceof StoreUnavailableError && error.outcomeUnknown) {
    return problem(503, 'store_outcome_unknown', 'The mock cannot tell whether this request\'s changes were kept: they were sent to the session store and its answer never came (it timed out, or the connection was cut). They may have been applied: read the resource before retrying; an API request sent with an Idempotency-Key may be retried with the same key, which answers as the first request did if it was kept. The server log has the details.', { instance: path })
  }
  const why = error instanceof StoreConflictError ? 'other processes kept changing the session' : 'the session store cannot be used right now'
  return problem(503, 'store_unavailable', `The mock did not keep this request's changes: ${why}. Retry it in a moment; the server log has the details.`, { instance: path })
}

export function withInstance (body: ProblemBody, path: string): ProblemBody {
  return body.instance === undefined ? { ...body, instance: path } : body
}

export { DomainError }
