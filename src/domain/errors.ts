/**
 * Typed domain errors. The domain only names what went wrong (a stable `code`);
 * the HTTP layer alone decides which status that code maps to.
 */
export const DOMAIN_ERROR_CODES = [
  'customer_not_found',
  'customer_not_writable',
  'field_not_updatable',
  'card_not_found',
  'card_closed',
  'invalid_card_state',
  'statement_not_found',
  'no_email_on_file',
  'verification_not_found',
  'verification_expired',
  'invalid_code',
  'max_attempts',
  'resend_too_soon',
  'too_many_sends',
  'too_many_verifications',
  'pin_link_not_found',
  'pin_link_expired',
  'pin_link_used',
  'invalid_pin',
  'too_many_pin_links',
  'too_many_cards',
  'transfer_not_found',
  'invalid_transfer_state',
  'not_an_ach_transfer',
  'nothing_to_return',
  'unknown_return_code',
  'too_many_transfers',
  'account_not_found',
  'same_account',
  'amount_over_limit',
  'invalid_routing_number',
  'start_date_in_past',
  'end_date_before_start',
  'conflicting_end_conditions',
  'invalid_field'
] as const

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number]

export interface FieldError {
  /** JSON pointer into the request body, e.g. `/address/postalCode`. */
  pointer: string
  message: string
}

export class DomainError extends Error {
  readonly code: DomainErrorCode
  readonly errors: FieldError[] | undefined
  /** Extra members for the problem body (e.g. `attemptsRemaining`). */
  readonly extensions: Record<string, unknown> | undefined
  /** Seconds after which retrying makes sense (rate limits). */
  readonly retryAfterSeconds: number | undefined

  constructor (
    code: DomainErrorCode,
    message: string,
    options: { errors?: FieldError[]; extensions?: Record<string, unknown>; retryAfterSeconds?: number } = {}
  ) {
    super(message)
    this.name = 'DomainError'
    this.code = code
    this.errors = options.errors
    this.extensions = options.extensions
    this.retryAfterSeconds = options.retryAfterSeconds
  }
}

export function fieldError (code: DomainErrorCode, pointer: string, message: string): DomainError {
  return new DomainError(code, message, { errors: [{ pointer, message }] })
}

/**
 * A cap on what a client can multiply (links, cards, numbers) was reached: the problem names the
 * setting (`limit`, its config key) and its value (`max`); the request changed nothing.
 */
export function capReached (code: DomainErrorCode, message: string, limit: string, max: number, retryAfterSeconds?: number): DomainError {
  return new DomainError(code, message, {
    extensions: { limit, max, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds })
  })
}
