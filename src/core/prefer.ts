import { HttpProblem, problem } from './problem.js'
import { MAX_DELAY_MS } from '../config/limits.js'

/** The longest delay a request may ask for (`Prefer: delay`, fixtures, faults): longer ones are capped. */
export { MAX_DELAY_MS } from '../config/limits.js'

/** What the `Prefer` header (RFC 7240) asks of the mock, as Prism reads it, extended with `delay`. */
export interface Preferences {
  /** Answer with this named response example. */
  example?: string
  /** Answer with this status: an example that has it, the real handler when it is a success status, else a problem. */
  code?: number
  /** Wait this many milliseconds before answering (capped at MAX_DELAY_MS). */
  delay?: number
}

const EXAMPLE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

/**
 * Parses `Prefer: code=503, example="minimal"; x=y, delay=800`. Preferences the mock does not
 * know are ignored, as RFC 7240 asks; a known one with a bad value is a 400 so a typo in a test
 * does not pass silently.
 */
export function parsePrefer (header: string | string[] | undefined): Preferences {
  const prefs: Preferences = {}
  if (header === undefined) return prefs
  const text = Array.isArray(header) ? header.join(',') : header
  for (const item of text.split(',')) {
    const [token = ''] = item.split(';')
    const eq = token.indexOf('=')
    if (eq < 0) continue
    const name = token.slice(0, eq).trim().toLowerCase()
    const value = unquote(token.slice(eq + 1).trim())
    switch (name) {
      case 'code': {
        const code = Number(value)
        if (!/^\d{3}$/.test(value) || code < 200 || code > 599) invalid('code', value, 'must be an HTTP status from 200 to 599 (1xx cannot end a response)')
        prefs.code = code
        break
      }
      case 'example':
        if (!EXAMPLE_NAME.test(value)) invalid('example', value, 'must be an example name: letters, digits, . _ -')
        prefs.example = value
        break
      case 'delay': {
        if (!/^\d{1,9}$/.test(value)) invalid('delay', value, 'must be a whole number of milliseconds')
        prefs.delay = Math.min(Number(value), MAX_DELAY_MS)
        break
      }
    }
  }
  return prefs
}

function unquote (value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
}

function invalid (name: string, value: string, rule: string): never {
  throw new HttpProblem(problem(400, 'invalid_prefer', `Prefer: ${name}=${value} — ${name} ${rule}.`, {
    errors: [{ pointer: '/headers/prefer', message: `${name} ${rule}` }]
  }))
}

/** `Preference-Applied` (RFC 7240 §3) for what was honoured. */
export function preferenceApplied (prefs: Preferences, applied: { example?: boolean; code?: boolean; delay?: boolean }): string | undefined {
  const parts: string[] = []
  if (applied.code === true && prefs.code !== undefined) parts.push(`code=${prefs.code}`)
  if (applied.example === true && prefs.example !== undefined) parts.push(`example=${prefs.example}`)
  if (applied.delay === true && prefs.delay !== undefined) parts.push(`delay=${prefs.delay}`)
  return parts.length === 0 ? undefined : parts.join(', ')
}
