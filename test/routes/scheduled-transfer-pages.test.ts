import t from 'tap'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'

const BASE = '/baas/scheduled-transfers'

interface Listed { id: string; createdAt: string }
interface ListPage { data: Listed[]; nextCursor?: string }

/** Creates `count` internal transfers for Maya, one clock second apart so that createdAt differs too. */
async function createTransfers (call: TestApp['call'], count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, body: { amount: 100 + i, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'MONTHLY', startDate: '2027-01-15' } })
    if (res.status !== 201) throw new Error(`create answered ${res.status}`)
    if (i % 3 === 0) await call('POST', '/__mock/clock/advance', { body: { by: 'PT1S' } })
  }
}

async function page (call: TestApp['call'], query: string, token: string = TOKENS.maya): Promise<ListPage & { status: number; code?: string }> {
  const res = await call('GET', `${BASE}${query}`, { token })
  return { status: res.status, ...res.body }
}

async function pagesOf (call: TestApp['call'], query: string): Promise<ListPage[]> {
  const pages: ListPage[] = []
  let cursor: string | undefined
  do {
    const next = await page(call, `${query}${query.includes('?') ? '&' : '?'}${cursor === undefined ? '' : `cursor=${cursor}`}`)
    pages.push(next)
    cursor = next.nextCursor
  } while (cursor !== undefined && pages.length < 20)
  return pages
}

t.test('25 a page by default, newest first; the last page has no nextCursor; together they are the whole list', async t => {
  const { call } = await buildTestApp(t)
  await createTransfers(call, 30)
  const all = await page(call, '?limit=100')
  t.equal(all.data.length, 34, 'Maya\'s 4 and the 30 new ones')
  t.notOk('nextCursor' in all)
  const createdAt = all.data.map(x => x.createdAt)
  t.same(createdAt, [...createdAt].sort().reverse(), 'newest first')
  const pages = await pagesOf(call, '')
  t.same(pages.map(p => p.data.length), [25, 9])
  t.same(pages.flatMap(p => p.data.map(x => x.id)), all.data.map(x => x.id))
  t.same((await pagesOf(call, '?limit=10&type=INTERNAL')).map(p => p.data.length), [10, 10, 10, 2], 'filters and a limit')
})

t.test('limit is 1 to 100', async t => {
  const { call } = await buildTestApp(t)
  for (const limit of ['0', '101', 'ten']) {
    const res = await call('GET', `${BASE}?limit=${limit}`, { token: TOKENS.maya })
    t.equal(res.status, 400, limit)
    t.equal(res.body.errors[0].pointer, '/limit')
  }
  t.equal((await page(call, '?limit=1')).data.length, 1)
})

t.test('pages are stable while the list changes: a new transfer, or the cursor\'s own deleted, moves nothing on the next page', async t => {
  const { call } = await buildTestApp(t)
  await createTransfers(call, 8)
  const before = await pagesOf(call, '?limit=4')
  const [first, second] = before
  if (first?.nextCursor === undefined || second === undefined) throw new Error('expected two pages')
  await createTransfers(call, 2)
  const cursorItem = first.data.at(-1) as Listed
  t.equal((await call('PUT', `${BASE}/${cursorItem.id}/delete`, { token: TOKENS.maya })).status, 200)
  const next = await page(call, `?limit=4&cursor=${first.nextCursor}`)
  t.same(next.data.map(x => x.id), second.data.map(x => x.id), 'the same second page')
})

t.test('a cursor of another list, customer or filter is 400 invalid_cursor', async t => {
  const { call } = await buildTestApp(t)
  const { nextCursor } = await page(call, '?limit=1')
  if (nextCursor === undefined) throw new Error('expected a next page')
  t.equal((await page(call, '?limit=1&status=ACTIVE')).status, 200)
  const journalCursor = (await call('GET', '/__mock/requests?limit=1')).body.nextCursor
  const attempts: Array<[string, string]> = [
    [`?cursor=${nextCursor}&status=ACTIVE`, TOKENS.maya],
    [`?cursor=${nextCursor}`, TOKENS.sam],
    [`?cursor=${journalCursor}`, TOKENS.maya],
    ['?cursor=bm90LWEtY3Vyc29y', TOKENS.maya]
  ]
  for (const [query, token] of attempts) {
    const res = await call('GET', `${BASE}${query}`, { token })
    t.equal(res.status, 400, query)
    t.match(res.body, { code: 'invalid_cursor', errors: [{ pointer: '/cursor' }] })
  }
  t.equal((await call('GET', `${BASE}?cursor=not%20base64url`, { token: TOKENS.maya })).body.errors[0].pointer, '/cursor', 'not even the shape of one')
  t.equal((await page(call, `?limit=1&cursor=${nextCursor}`)).data.length, 1, 'the cursor still works where it belongs')
})
