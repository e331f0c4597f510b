import { Type } from 'typebox'
import { compiledCheck } from '../world/compiled-check.js'
import { stringify } from 'safe-stable-stringify'
import { base64url, sha256Bytes } from '../world/digest.js'
import { HttpProblem, problem } from './problem.js'
import type { PagedList, Position } from './schemas/page.js'

export { NextCursor, pageQueryFields, type PagedList, type Position } from './schemas/page.js'

/**
 * Cursor paging, one way for every list (the API's scheduled transfers, the control plane's journal
 * and outbox, and the events list): `?limit=&cursor=` in, `{ data, nextCursor }` out, `nextCursor`
 * absent on the last page. A cursor holds the position of the last item sent in the list's fixed
 * order (not an offset), so pages stay stable while the list changes: a new item, or one deleted
 * before the cursor, moves nothing on the pages after it. A cursor names its list and the query
 * it was made for (filters, order, customer or session): used with another it is 400 invalid_cursor.
 */

export interface PageQuery {
  limit?: number | undefined
  cursor?: string | undefined
}

export interface Page<T> {
  data: T[]
  nextCursor?: string
}

/** The list's order: `desc` when positions decrease down the list (newest first). */
export type Direction = 'asc' | 'desc'

const CursorJson = Type.Object({
  l: Type.String(),
  q: Type.String(),
  p: Type.Array(Type.Union([Type.String(), Type.Number()]))
}, { additionalProperties: false })
const isCursorJson = compiledCheck(CursorJson)

/**
 * One page of `items`, which must be in the list's fixed order (`direction` of their positions,
 * no two alike). `query` identifies what was asked besides the page: the filters, the order and
 * whose list it is. Only the page's items go through `render`.
 */
export function paginate<T, R = T> (
  items: readonly T[], page: PageQuery, list: PagedList<T>, direction: Direction, query: string, render: (item: T) => R = item => item as unknown as R
): Page<R> {
  const scope = scopeOf(list.name, direction, query)
  const limit = page.limit ?? list.defaultLimit
  const start = page.cursor === undefined ? 0 : firstAfter(items, decodeCursor(page.cursor, list, scope), list, direction)
  const taken = items.slice(start, start + limit)
  const data = taken.map(render)
  const last = taken.at(-1)
  return start + limit < items.length && last !== undefined ? { data, nextCursor: encodeCursor(list.name, scope, list.position(last)) } : { data }
}

/** What a page was asked for besides its place (owner, filters), as `paginate`'s `query`: the same whatever order the fields came in. */
export function queryKey (...parts: unknown[]): string {
  return stringify(parts) ?? ''
}

/** Compares positions field by field, for sorting a list into its fixed order. */
export function comparePositions (a: Position, b: Position): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string | number
    const y = b[i] as string | number
    if (x < y) return -1
    if (x > y) return 1
  }
  return a.length - b.length
}

/** The index of the first item past `after` in the list's order (binary search: the items are in order). */
function firstAfter<T> (items: readonly T[], after: Position, list: PagedList<T>, direction: Direction): number {
  const sign = direction === 'asc' ? 1 : -1
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sign * comparePositions(list.position(items[middle] as T), after) > 0) high = middle
    else low = middle + 1
  }
  return low
}

function scopeOf (name: string, direction: Direction, query: string): string {
  return base64url(sha256Bytes(`${name}\n${direction}\n${query}`)).slice(0, 16)
}

function encodeCursor (name: string, scope: string, position: Position): string {
  return base64url(new TextEncoder().encode(JSON.stringify({ l: name, q: scope, p: position })))
}

function decodeCursor (cursor: string, list: PagedList<unknown>, scope: string): Position {
  let parsed: unknown
  try {
    parsed = JSON.parse(decodeBase64Url(cursor))
  } catch {
    invalid('is not a cursor this list gave')
  }
  if (!isCursorJson(parsed) || parsed.l !== list.name) invalid('is not a cursor this list gave')
  if (parsed.q !== scope) invalid('was made for other filters, another order or another list owner: send the filters of the first page')
  const { p } = parsed
  if (p.length !== list.positionKinds.length || p.some((value, i) => typeof value !== list.positionKinds[i])) invalid('is not a cursor this list gave')
  return p
}

function invalid (why: string): never {
  throw new HttpProblem(problem(400, 'invalid_cursor', `The cursor ${why}. Start again without one to get the first page.`, {
    errors: [{ pointer: '/cursor', message: why }]
  }))
}

/** base64url to UTF-8 text with the web's atob, so the core runs in a browser too. */
function decodeBase64Url (text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64 + '='.repeat((4 - base64.length % 4) % 4))
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, c => c.charCodeAt(0)))
}
