/** JSON Pointers (RFC 6901) over parsed JSON, as the dialect file writes them. */
import { escapeToken, unescapeToken } from '../dialect/mock-schemas.js'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export function isObject (value: unknown): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export { escapeToken }

export function tokens (pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken)
}

export function join (pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(String(token))}`
}

export function get (value: unknown, pointer: string): unknown {
  let at: unknown = value
  for (const token of tokens(pointer)) {
    if (Array.isArray(at)) at = at[Number(token)]
    else if (isObject(at)) at = Object.hasOwn(at, token) ? at[token] : undefined
    else return undefined
  }
  return at
}

/** The last token of a pointer (a field's name). */
export function lastToken (pointer: string): string {
  return tokens(pointer).at(-1) ?? ''
}

/** The pointer of the value that holds this one. */
export function parent (pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'))
}

/**
 * Every leaf under `value`, keyed by its pointer: an object's members are walked, anything else
 * (arrays included: a list is one recorded value) is a leaf. An empty object is a leaf too.
 */
export function leaves (value: unknown, at = ''): Map<string, Json> {
  const found = new Map<string, Json>()
  const walk = (v: unknown, pointer: string): void => {
    if (isObject(v) && Object.keys(v).length > 0) {
      for (const [key, item] of Object.entries(v)) walk(item, join(pointer, key))
    } else {
      found.set(pointer, v as Json)
    }
  }
  walk(value, at)
  return found
}
