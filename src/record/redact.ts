import type { Exchange } from './exchange.js'
import { isSecretHeader, isSecretQueryName, SECRET_WORDS } from '../world/secret-names.js'
import { isObject } from './pointer.js'

/**
 * Secrets never reach the recorded folder: credentials in headers, secret-looking fields in bodies
 * and queries (tokens, codes, PINs, passwords), and anything shaped like a card number anywhere.
 */
export const REDACTED = '[redacted]'

/** Beyond the journal's credentials (src/world/secret-names.ts): what a recording must not keep either. */
const SECRET_HEADER = /^set-cookie$|session|signature/i
/** Field names whose values are secrets: the name says so. `errorCode` and `statusCode` are not (a code alone, or a code of verification, is). */
const SECRET_FIELD = /token|secret|password|passcode|^pin$|^otp$|^code$|verification_?code|verificationcode|^cvv|^cvc|^pan$|card_?number|cardnumber|^ssn$|account_?number$|accountnumber$/i

/** 13 to 19 digits that pass the Luhn check: a card number. */
export function isCardNumber (digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

/** Card numbers inside a string (digit runs, spaces or dashes between groups) replaced. */
export function redactText (text: string): string {
  return text.replace(/\d(?:[ -]?\d){12,18}/g, run => isCardNumber(run.replace(/[ -]/g, '')) ? REDACTED : run)
}

/** A field's name: a JSON Pointer's last token (the recorder keeps values by pointer: /attributes/pin), else the key itself. */
function fieldName (key: string): string {
  return key.startsWith('/') ? key.slice(key.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~') : key
}

function isSecretField (key: string): boolean {
  const name = fieldName(key)
  return SECRET_FIELD.test(name) || SECRET_WORDS.test(name)
}

export function redactValue (value: unknown, key = ''): unknown {
  if (key !== '' && isSecretField(key) && value !== null && !isObject(value) && !Array.isArray(value)) return REDACTED
  if (typeof value === 'string') return redactText(value)
  if (typeof value === 'number' && Number.isInteger(value) && isCardNumber(String(value))) return REDACTED
  if (Array.isArray(value)) return value.map(item => redactValue(item))
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, k)]))
  return value
}

export function redactHeaders (headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSecretHeader(name.toLowerCase()) || SECRET_HEADER.test(name) ? REDACTED : redactText(value)]))
}

function redactQuery (query: string): string {
  if (query === '') return query
  const params = new URLSearchParams(query)
  for (const [name, value] of [...params]) params.set(name, isSecretQueryName(name) || isSecretField(name) ? REDACTED : redactText(value))
  return params.toString()
}

function redactMessage<M extends { headers: Record<string, string>; json?: unknown; text?: string }> (message: M): M {
  return {
    ...message,
    headers: redactHeaders(message.headers),
    ...message.json !== undefined ? { json: redactValue(message.json) } : {},
    ...message.text !== undefined ? { text: redactText(message.text) } : {}
  }
}

export function redactExchange (exchange: Exchange): Exchange {
  return {
    ...exchange,
    params: Object.fromEntries(Object.entries(exchange.params).map(([k, v]) => [k, redactText(v)])),
    request: { ...redactMessage(exchange.request), path: redactText(exchange.request.path), query: redactQuery(exchange.request.query) },
    response: redactMessage(exchange.response)
  }
}
