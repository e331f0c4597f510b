import { Type } from 'typebox'

// The schema side of cursor paging (../paging.ts pages): schemas of lists import this alone, so
// that they do not pull the paging code's problems and world digests into every schema.

/** An item's place in its list's fixed order: compared field by field (strings by code unit, numbers by value). */
export type Position = ReadonlyArray<string | number>

/** How one list pages. */
export interface PagedList<T> {
  /** Names the list in its cursors, so that another list's cursor is refused. */
  name: string
  /** What each position holds, in order: a cursor of another shape is refused. */
  positionKinds: ReadonlyArray<'string' | 'number'>
  position (item: T): Position
  defaultLimit: number
  maxLimit: number
}

/** Cursors are made by the mock; anything longer is not one of them. */
export const MAX_CURSOR_LENGTH = 512

/** `limit` and `cursor` for a list's query-string schema. */
export function pageQueryFields (list: Pick<PagedList<unknown>, 'defaultLimit' | 'maxLimit'>) {
  return {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: list.maxLimit, description: `Items per page, 1 to ${list.maxLimit.toLocaleString('en-US')} (default ${list.defaultLimit.toLocaleString('en-US')})` })),
    cursor: Type.Optional(Type.String({
      minLength: 1, maxLength: MAX_CURSOR_LENGTH, pattern: '^[A-Za-z0-9_-]+$',
      description: 'The nextCursor of the previous page, with the same filters and order; opaque'
    }))
  }
}

/** `nextCursor` for a list's answer schema. */
export const NextCursor = Type.Optional(Type.String({ description: 'Pass as ?cursor= for the next page (with the same filters); absent on the last page' }))

