import type { FastifyReply } from 'fastify'
import { STATUS_CODES } from 'node:http'
import { DomainError, type DomainErrorCode, type FieldError } from '../domain/errors.js'

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
  pin_link_not_found: 404,
  pin_link_expired: 410,
  pin_link_used: 410,
  invalid_pin: 422,
  transfer_not_found: 404,
  invalid_transfer_state: 409,
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

/** RFC 9110's names where Node's STATUS_CODES still has the older ones. */
const TITLES: Record<number, string> = {
  413: 'Content Too Large',
  422: 'Unprocessable Content'
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
  return TITLES[status] ?? STATUS_CODES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error')
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

/** Sends a problem as a pre-serialised string so no response schema can filter it. */
export function sendProblem (reply: FastifyReply, body: ProblemBody, retryAfterSeconds?: number): FastifyReply {
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterSeconds))))
  // RFC 9110: a 401 names how to authenticate.
  if (body.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', 'Bearer realm="baas-mock"')
  return reply.code(body.status).type('application/problem+json').send(JSON.stringify(body))
}

export class HttpProblem extends Error {
  constructor (readonly body: ProblemBody, readonly retryAfterSeconds?: number) {
    super(body.detail)
    this.name = 'HttpProblem'
  }
}

export { DomainError }
