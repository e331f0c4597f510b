import { nearestName } from '../config/nearest-name.js'

/**
 * What a refused value should have looked like, in words: a request error never shows a raw
 * regex, and an amount sent in dollars is answered with the minor units meant.
 */

/** Marks an integer schema as an amount in minor units (schemas/common.ts MinorUnits), for the error that converts it. */
export const MINOR_UNITS_KEY = 'x-minor-units'

/** Every `format` a request schema uses, in words. */
export const FORMAT_WORDS: Readonly<Record<string, string>> = {
  date: 'must be a calendar date, YYYY-MM-DD, e.g. 2026-12-01',
  'date-time': 'must be an RFC 3339 date-time with a time zone, e.g. 2026-12-01T09:00:00Z',
  email: 'must be an email address, e.g. ada@example.com',
  uri: 'must be an absolute URI, e.g. https://example.com/hooks'
}

/** Every `pattern` a request schema uses, in words (a test walks the request schemas for any left out). */
export const PATTERN_WORDS: Readonly<Record<string, string>> = {
  '^\\+[1-9]\\d{1,14}$': 'must be a phone number in E.164, e.g. +14155550123',
  '^\\d{5}(-\\d{4})?$': 'must be a ZIP code: 5 digits or ZIP+4, e.g. 94107 or 94107-1234',
  '^\\d{4}$': 'must be exactly 4 digits, e.g. 2580',
  '^\\d{9}$': 'must be a 9-digit ABA routing number, e.g. 021000021',
  '^\\d{4,17}$': 'must be an account number of 4 to 17 digits, e.g. 000123458841',
  '^\\d{4,10}$': 'must be the code received: 4 to 10 digits, e.g. 123456',
  '^[A-Za-z0-9_-]+$': 'must be an id: letters, digits, _ and - only, e.g. card_01HF3Z',
  '^[A-Za-z0-9._:-]{1,128}$': 'must be a session id: 1 to 128 letters, digits, ".", "_", ":" or "-", e.g. checkout-test-1',
  '^[A-Z][A-Z0-9_]{0,63}$': 'must be an upper-case code of letters, digits and _ (up to 64), e.g. ACCOUNT_CLOSED',
  '^[a-z][a-z0-9_]{0,63}$': 'must be a lower-case snake_case code starting with a letter (up to 64), e.g. fault_injected',
  '^[a-z0-9][a-z0-9-]{0,63}$': 'must be a scenario name: lower-case letters, digits and - (up to 64), e.g. default',
  '^[A-Za-z_][A-Za-z0-9_]{0,63}$': 'must be an environment variable prefix: letters, digits and _, not starting with a digit, e.g. VITE_',
  '^https?://[^\\s?#]+$': 'must be an http:// or https:// URL without a query or fragment, e.g. http://localhost:4010',
  '^[A-Za-z]{3,7}$': 'must be an HTTP method, e.g. GET or post',
  '^(\\d{1,3}|[1-5]xx)$': 'must be a status (404) or a class of them (4xx)',
  '^fault_\\d{1,9}$': 'must be a fault id, e.g. fault_1',
  '^evt_[A-Za-z0-9]{1,64}$': 'must be an event id, e.g. evt_3kTz9QmB2xLr8VwAp4Qd'
}

/** A value of an unlisted format or pattern: never the regex itself, which teaches nothing. */
const UNLISTED = 'is not in the form this field takes (see the API reference)'

export function formatWords (format: unknown): string {
  return FORMAT_WORDS[String(format)] ?? UNLISTED
}

export function patternWords (pattern: unknown): string {
  return PATTERN_WORDS[String(pattern)] ?? UNLISTED
}

/** How far a misspelt field may be from the known one it was meant as. */
const FIELD_REACH = 2

/** `is not a known field`, and the field meant when one is a typo away (`ammount` → `amount`). */
export function unknownFieldWords (given: string, known: readonly string[]): string {
  const meant = nearestName(given, known, FIELD_REACH)
  return meant === undefined ? 'is not a known field' : `is not a known field; did you mean ${JSON.stringify(meant)}?`
}

/** A dollar amount, or its digits as text: `25.5`, `"25.00"`, `"$25.50"`. */
const DECIMAL = /^\s*\$?\s*(\d{1,13}(?:\.\d+)?)\s*$/

/**
 * An amount that is no integer: most often dollars sent where cents are meant, so the answer
 * names the minor units of the value given (`25.5` → 2550), else a generic example.
 */
export function minorUnitsWords (given: unknown): string {
  const cents = centsOf(given)
  const example = cents === undefined ? 'send 2500 for $25.00' : `send ${cents} for $${(cents / 100).toFixed(2)}`
  const asText = typeof given === 'string' && cents !== undefined ? ' (a number, not a string)' : ''
  return `must be an integer amount in minor units (cents): ${example}${asText}`
}

function centsOf (given: unknown): number | undefined {
  if (typeof given === 'string') {
    const digits = DECIMAL.exec(given)?.[1]
    if (digits === undefined) return undefined
    // Digits alone as text ("2500") are cents already; with a decimal point they are dollars.
    return digits.includes('.') ? dollarsToCents(Number(digits)) : Number(digits)
  }
  return typeof given === 'number' ? dollarsToCents(given) : undefined
}

/** Whole cents of a positive dollar amount; undefined for one finer than a cent (25.555), which has none. */
function dollarsToCents (dollars: number): number | undefined {
  const cents = Math.round(dollars * 100)
  return dollars > 0 && Number.isSafeInteger(cents) && Math.abs(cents - dollars * 100) < 1e-6 ? cents : undefined
}
