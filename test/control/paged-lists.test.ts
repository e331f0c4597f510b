import t from 'tap'
import { createMock } from '../../src/index.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'

interface Page<T> { data: T[]; nextCursor?: string }

async function pagesOf<T> (call: TestApp['call'], path: string, query: string): Promise<Array<Page<T>>> {
  const pages: Array<Page<T>> = []
  let cursor: string | undefined
  do {
    const res = await call('GET', `${path}?${query}${cursor === undefined ? '' : `&cursor=${cursor}`}`)
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text}`)
    pages.push(res.body)
    cursor = res.body.nextCursor
  } while (cursor !== undefined && pages.length < 20)
  return pages
}

t.test('the journal pages by entry id, either order; new entries move nothing on the next page', async t => {
  const { call } = await buildTestApp(t)
  for (let i = 0; i < 7; i++) await call('GET', '/baas/customers', { token: TOKENS.maya })
  const asc = await pagesOf<{ id: number }>(call, '/__mock/requests', 'order=asc&limit=3')
  t.same(asc.map(p => p.data.map(e => e.id)), [[1, 2, 3], [4, 5, 6], [7]])
  t.notOk('nextCursor' in (asc.at(-1) ?? {}))

  const first = (await call('GET', '/__mock/requests?limit=3')).body
  t.same(first.data.map((e: { id: number }) => e.id), [7, 6, 5], 'newest first')
  t.match(first, { session: 'default', size: 7, recorded: 7 })
  await call('GET', '/baas/customers', { token: TOKENS.maya })
  const second = (await call('GET', `/__mock/requests?limit=3&cursor=${first.nextCursor}`)).body
  t.same(second.data.map((e: { id: number }) => e.id), [4, 3, 2], 'the entry recorded meanwhile is not on it')

  const filtered = await pagesOf<{ status: number }>(call, '/__mock/requests', 'status=2xx&limit=5')
  t.same(filtered.map(p => p.data.length), [5, 3])
  const wrong = await call('GET', `/__mock/requests?limit=3&order=asc&cursor=${first.nextCursor}`)
  t.equal(wrong.status, 400, 'a cursor of the other order')
  t.equal(wrong.body.code, 'invalid_cursor')
  t.equal((await call('GET', `/__mock/requests?limit=3&cursor=${first.nextCursor}`, { session: 'other' })).body.code, 'invalid_cursor', 'another session\'s cursor')
  t.equal((await call('GET', '/__mock/requests?limit=10001')).status, 400, 'at most 10,000 a page')
})

t.test('the outbox pages by order of delivery; a clear keeps later cursors meaningful', async t => {
  const { call } = await buildTestApp(t)
  for (let i = 0; i < 5; i++) t.equal((await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { token: TOKENS.maya })).status, 202)
  const pages = await pagesOf<{ id: string; kind: string }>(call, '/__mock/outbox', 'limit=2')
  t.same(pages.map(p => p.data.length), [2, 2, 1])
  const all = (await call('GET', '/__mock/outbox')).body
  t.notOk('nextCursor' in all, 'the default page holds them all')
  t.same(pages.flatMap(p => p.data.map(m => m.id)), all.data.map((m: { id: string }) => m.id))

  const asc = await pagesOf<{ id: string }>(call, '/__mock/outbox', 'order=asc&limit=2&kind=sendStatementByEmail')
  t.same(asc.flatMap(p => p.data.map(m => m.id)), [...all.data].reverse().map((m: { id: string }) => m.id))
  const firstPage = (await call('GET', '/__mock/outbox?limit=2&order=asc')).body
  t.equal((await call('GET', `/__mock/outbox?limit=2&order=asc&channel=sms&cursor=${firstPage.nextCursor}`)).body.code, 'invalid_cursor', 'another filter')

  t.equal((await call('DELETE', '/__mock/outbox')).status, 204)
  await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { token: TOKENS.maya })
  const afterClear = (await call('GET', `/__mock/outbox?limit=2&order=asc&cursor=${firstPage.nextCursor}`)).body
  t.equal(afterClear.data.length, 1, 'the message sent after the clear comes after the cursor')
})

t.test('the session handle: journal.list follows the pages, journal.page and outbox.list answer one', async t => {
  const mock = await createMock({ seed: 7, now: '2027-01-10T12:00:00Z', journalCap: 1100 })
  t.teardown(() => mock.close())
  const session = mock.session('handle')
  const headers = { authorization: 'Bearer tok_maya', 'x-mock-session': 'handle' }
  for (let i = 0; i < 1001; i++) await mock.fetch('/baas/customers', { headers })
  const everything = await session.journal.list({ order: 'asc' })
  t.equal(everything.length, 1001, 'more than one page of 1,000')
  t.same([everything[0]?.id, everything.at(-1)?.id], [1, 1001])
  const page = await session.journal.page({ limit: 2 })
  t.same(page.data.map(e => e.id), [1001, 1000])
  t.type(page.nextCursor, 'string')
  t.same((await session.journal.list({ limit: 2, cursor: page.nextCursor })).map(e => e.id), [999, 998])

  await mock.fetch('/baas/statements/stmt_maya_2026_10/send-by-email', { method: 'POST', headers })
  const outbox = await session.outbox.list({ limit: 1 })
  t.match(outbox, { session: 'handle', data: [{ kind: 'sendStatementByEmail' }] })
  t.notOk('nextCursor' in outbox)
})
