import t from 'tap'
import type { HttpProblem } from '../../src/core/problem.js'
import { comparePositions, paginate, queryKey, type Page, type PagedList } from '../../src/core/paging.js'

interface Item { at: string; id: string }
const LIST: PagedList<Item> = { name: 'items', positionKinds: ['string', 'string'], position: item => [item.at, item.id], defaultLimit: 3, maxLimit: 10 }
/** Newest first, as the API lists transfers: `at` then `id`, both descending. */
const ordered = (items: Item[]): Item[] => [...items].sort((a, b) => -comparePositions(LIST.position(a), LIST.position(b)))
const items = ordered(Array.from({ length: 8 }, (_, i) => ({ at: `2026-11-0${1 + (i >> 1)}`, id: `x${i}` })))

function allPages (list: Item[], limit?: number, query = 'q'): Array<Page<Item>> {
  const pages: Array<Page<Item>> = []
  let cursor: string | undefined
  do {
    const page = paginate(list, { limit, cursor }, LIST, 'desc', query)
    pages.push(page)
    cursor = page.nextCursor
  } while (cursor !== undefined && pages.length < 20)
  return pages
}

t.test('pages cover the list once, in order; the last has no nextCursor', async t => {
  const pages = allPages(items)
  t.same(pages.map(p => p.data.length), [3, 3, 2], 'the default limit')
  t.same(pages.flatMap(p => p.data), items)
  t.notOk('nextCursor' in (pages.at(-1) ?? {}))
  t.same(allPages(items, 8).map(p => p.data.length), [8], 'a page that holds the rest is the last')
  t.same(allPages([]), [{ data: [] }])
  t.match(pages[0]?.nextCursor, /^[A-Za-z0-9_-]+$/, 'base64url')
})

t.test('stable while the list changes: new items before the cursor and deleted ones move nothing after it', async t => {
  const first = paginate(items, {}, LIST, 'desc', 'q')
  const expected = paginate(items, { cursor: first.nextCursor }, LIST, 'desc', 'q').data
  const last = first.data.at(-1) as Item
  const changed = ordered([...items.filter(item => item !== last), { at: '2026-12-01', id: 'newest' }, { at: last.at, id: `${last.id}-before` }])
  t.same(paginate(changed, { cursor: first.nextCursor }, LIST, 'desc', 'q').data, expected, 'the cursor item deleted, newer items added')
})

t.test('ascending lists page the same way', async t => {
  const asc = [...items].reverse()
  const first = paginate(asc, { limit: 5 }, LIST, 'asc', 'q')
  t.same([...first.data, ...paginate(asc, { limit: 5, cursor: first.nextCursor }, LIST, 'asc', 'q').data], asc)
})

t.test('a cursor that is not this list\'s, or not for this query, is 400 invalid_cursor', async t => {
  const cursor = paginate(items, {}, LIST, 'desc', 'q').nextCursor
  const other = paginate([{ n: 1 }, { n: 2 }], { limit: 1 }, { name: 'others', positionKinds: ['number'], position: (x: { n: number }) => [x.n], defaultLimit: 1, maxLimit: 1 }, 'desc', 'q').nextCursor
  const forged = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')
  const attempts: Array<[string | undefined, string, 'asc' | 'desc']> = [
    ['garbage', 'q', 'desc'], [forged([1, 2]), 'q', 'desc'], [Buffer.from([0xff, 0xfe]).toString('base64url'), 'q', 'desc'],
    [other, 'q', 'desc'], [cursor, 'another query', 'desc'], [cursor, 'q', 'asc'],
    [forged({ l: 'items', q: 'x', p: ['a', 'b'] }), 'q', 'desc']
  ]
  for (const [given, query, direction] of attempts) {
    const error = t.throws(() => paginate(items, { cursor: given }, LIST, direction, query)) as HttpProblem
    t.equal(error.body.status, 400, String(given))
    t.equal(error.body.code, 'invalid_cursor')
    t.equal(error.body.errors?.[0]?.pointer, '/cursor')
  }
  // Right list and query, but a position of the wrong shape: only a forged cursor has one.
  const good = JSON.parse(Buffer.from(cursor ?? '', 'base64url').toString()) as { l: string; q: string }
  for (const p of [[1, 'x'], ['only-one']]) {
    t.equal((t.throws(() => paginate(items, { cursor: forged({ ...good, p }) }, LIST, 'desc', 'q')) as HttpProblem).body.code, 'invalid_cursor', JSON.stringify(p))
  }
})

t.test('queryKey does not depend on the order of the fields', async t => {
  t.equal(queryKey('cus_a', { status: 'ACTIVE', type: 'ACH' }), queryKey('cus_a', { type: 'ACH', status: 'ACTIVE' }))
  t.not(queryKey('cus_a', { status: 'ACTIVE' }), queryKey('cus_b', { status: 'ACTIVE' }))
})
