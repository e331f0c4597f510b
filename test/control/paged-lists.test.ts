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

/** Locks and unlocks Maya's virtual card: one event each. */
async function toggles (call: TestApp['call'], count: number, session = 'default'): Promise<void> {
  for (let i = 0; i < count; i++) {
    const [method, action] = i % 2 === 0 ? ['POST', 'lock'] as const : ['PUT', 'unlock'] as const
    const res = await call(method, `/baas/debit-cards/card_maya_virtual/${action}`, { token: TOKENS.maya, session })
    if (res.status !== 200) throw new Error(`${action} answered ${res.status}`)
  }
}

t.test('the events list pages by the order events were recorded, either order; new and dropped events move nothing on the next page', async t => {
  const { call } = await buildTestApp(t, { eventCap: 6 })
  await toggles(call, 5)
  const all = (await call('GET', '/__mock/webhooks/events?order=asc')).body
  t.notOk('nextCursor' in all, 'the default page holds them all')
  t.match(all, { session: 'default', size: 5, recorded: 5 })
  const ids = all.data.map((e: { id: string }) => e.id) as string[]
  const asc = await pagesOf<{ id: string }>(call, '/__mock/webhooks/events', 'order=asc&limit=2')
  t.same(asc.map(p => p.data.map(e => e.id)), [ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)])
  t.notOk('nextCursor' in (asc.at(-1) ?? {}), 'none on the last page')
  const desc = await pagesOf<{ id: string }>(call, '/__mock/webhooks/events', 'limit=2')
  t.same(desc.flatMap(p => p.data.map(e => e.id)), [...ids].reverse(), 'newest first by default')

  const first = (await call('GET', '/__mock/webhooks/events?order=asc&limit=2')).body
  // Three more events: the cap of 6 drops the two oldest, those of the first page.
  await toggles(call, 3)
  const second = (await call('GET', `/__mock/webhooks/events?order=asc&limit=2&cursor=${first.nextCursor as string}`)).body
  t.same(second.data.map((e: { id: string }) => e.id), ids.slice(2, 4), 'the page after the cursor, not after an offset')
  const held = ((await call('GET', '/__mock/webhooks/events')).body.data as Array<{ id: string }>).map(e => e.id)
  const newest = (await call('GET', '/__mock/webhooks/events?limit=2')).body
  await toggles(call, 1)
  const older = (await call('GET', `/__mock/webhooks/events?limit=2&cursor=${newest.nextCursor as string}`)).body
  t.same(older.data.map((e: { id: string }) => e.id), held.slice(2, 4), 'the event recorded meanwhile pushes nothing back onto the next page')

  const bad = await call('GET', '/__mock/webhooks/events?cursor=bm90LWEtY3Vyc29y')
  t.equal(bad.status, 400)
  t.match(bad.body, { code: 'invalid_cursor', errors: [{ pointer: '/cursor' }] })
  t.equal((await call('GET', `/__mock/webhooks/events?order=asc&limit=2&type=card.locked&cursor=${first.nextCursor as string}`)).body.code, 'invalid_cursor', 'another filter')
  t.equal((await call('GET', `/__mock/webhooks/events?limit=2&cursor=${first.nextCursor as string}`)).body.code, 'invalid_cursor', 'the other order')
  t.equal((await call('GET', `/__mock/webhooks/events?order=asc&limit=2&cursor=${first.nextCursor as string}`, { session: 'other' })).body.code, 'invalid_cursor', 'another session\'s cursor')
  t.equal((await call('GET', `/__mock/requests?cursor=${first.nextCursor as string}`)).body.code, 'invalid_cursor', 'the journal refuses the events list\'s cursor')
  t.equal((await call('GET', '/__mock/webhooks/events?limit=10001')).status, 400, 'at most 10,000 a page')
})

t.test('polling the events: after the newest id seen, oldest first, following the cursor; after and type are filters every page repeats', async t => {
  const { call } = await buildTestApp(t)
  await toggles(call, 2)
  const seen = (await call('GET', '/__mock/webhooks/events?limit=1')).body.data[0].id as string
  await toggles(call, 5)
  const pages = await pagesOf<{ id: string; type: string }>(call, '/__mock/webhooks/events', `after=${seen}&order=asc&limit=2`)
  t.same(pages.map(p => p.data.map(e => e.type)), [['card.locked', 'card.unlocked'], ['card.locked', 'card.unlocked'], ['card.locked']], 'the five new events, two a page')
  const newest = pages.at(-1)?.data.at(-1)?.id ?? ''
  t.same((await call('GET', `/__mock/webhooks/events?after=${newest}&order=asc`)).body.data, [], 'nothing new since the last page')
  const locks = await pagesOf<{ type: string }>(call, '/__mock/webhooks/events', `after=${seen}&type=card.locked&limit=1`)
  t.same(locks.map(p => p.data.map(e => e.type)), [['card.locked'], ['card.locked'], ['card.locked']])
  const firstPage = pages[0]?.nextCursor ?? ''
  t.equal((await call('GET', `/__mock/webhooks/events?order=asc&limit=2&cursor=${firstPage}`)).body.code, 'invalid_cursor', 'a cursor made with after needs the same after')
  t.equal((await call('GET', `/__mock/webhooks/events?after=evt_gone&order=asc&limit=2&cursor=${firstPage}`)).status, 404, 'an after no longer held is 404, cursor or not')
})

t.test('the deliveries list pages by the order deliveries were made, with its filters', async t => {
  const { Receiver } = await import('../helpers/receiver.js')
  const hooks = await Receiver.start()
  t.teardown(() => hooks.close())
  const { call } = await buildTestApp(t, { webhookRetrySchedule: [0], webhookTimeoutMs: 5000 })
  const endpoint = (await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url } })).body
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url, events: ['card.locked'] } })
  await toggles(call, 4)
  const all = (await call('GET', '/__mock/webhooks/deliveries')).body
  t.notOk('nextCursor' in all, 'the default page holds them all')
  t.equal(all.data.length, 6, 'four events to the first endpoint, the two locks to the second')
  const ids = all.data.map((d: { id: string }) => d.id) as string[]
  const desc = await pagesOf<{ id: string }>(call, '/__mock/webhooks/deliveries', 'limit=4')
  t.same(desc.map(p => p.data.map(d => d.id)), [ids.slice(0, 4), ids.slice(4)], 'newest first')
  t.notOk('nextCursor' in (desc.at(-1) ?? {}))
  const asc = await pagesOf<{ id: string }>(call, '/__mock/webhooks/deliveries', 'order=asc&limit=4')
  t.same(asc.flatMap(p => p.data.map(d => d.id)), [...ids].reverse(), 'oldest first')

  const onEndpoint = await pagesOf<{ endpointId: string }>(call, '/__mock/webhooks/deliveries', `endpoint=${endpoint.id as string}&limit=3`)
  t.same(onEndpoint.map(p => p.data.length), [3, 1])
  t.ok(onEndpoint.every(p => p.data.every(d => d.endpointId === endpoint.id)), 'only that endpoint\'s, on every page')
  const first = (await call('GET', '/__mock/webhooks/deliveries?limit=4')).body
  await toggles(call, 1)
  const second = (await call('GET', `/__mock/webhooks/deliveries?limit=4&cursor=${first.nextCursor as string}`)).body
  t.same(second.data.map((d: { id: string }) => d.id), ids.slice(4), 'the deliveries made meanwhile push nothing onto the next page')
  t.equal((await call('GET', `/__mock/webhooks/deliveries?limit=4&endpoint=${endpoint.id as string}&cursor=${first.nextCursor as string}`)).body.code, 'invalid_cursor', 'another filter')
  const bad = await call('GET', '/__mock/webhooks/deliveries?cursor=bm9wZQ')
  t.match(bad, { status: 400, body: { code: 'invalid_cursor', errors: [{ pointer: '/cursor' }] } })
  t.equal((await call('GET', '/__mock/webhooks/deliveries?limit=0')).status, 400)
  t.equal((await call('GET', '/__mock/webhooks/deliveries?limit=10001')).status, 400, 'at most 10,000 a page')
})

t.test('the session handle: webhooks.events and .deliveries follow the pages, eventsPage and deliveriesPage answer one', async t => {
  const { Receiver } = await import('../helpers/receiver.js')
  const hooks = await Receiver.start()
  t.teardown(() => hooks.close())
  const mock = await createMock({ seed: 7, now: '2027-01-10T12:00:00Z', eventCap: 1100, webhookRetrySchedule: '0', webhookTimeoutMs: 5000 })
  t.teardown(() => mock.close())
  const session = mock.session('handle')
  const headers = { authorization: 'Bearer tok_maya', 'x-mock-session': 'handle' }
  for (let i = 0; i < 1001; i++) {
    const res = await mock.fetch(`/baas/debit-cards/card_maya_virtual/${i % 2 === 0 ? 'lock' : 'unlock'}`, { method: i % 2 === 0 ? 'POST' : 'PUT', headers })
    if (res.status !== 200) throw new Error(`answered ${res.status}`)
  }
  const everything = await session.webhooks.events({ order: 'asc' })
  t.equal(everything.length, 1001, 'more than one page of 1,000')
  t.same([everything[0]?.type, everything.at(-1)?.type], ['card.locked', 'card.locked'])
  const page = await session.webhooks.eventsPage({ limit: 2, type: 'card.unlocked' })
  t.match(page, { session: 'handle', size: 1001, recorded: 1001, data: [{ type: 'card.unlocked' }, { type: 'card.unlocked' }] })
  t.type(page.nextCursor, 'string')
  const next = await session.webhooks.events({ limit: 2, type: 'card.unlocked', cursor: page.nextCursor })
  t.same(next.map(e => e.id), everything.filter(e => e.type === 'card.unlocked').reverse().slice(2, 4).map(e => e.id), 'the next page')
  const refused = await session.webhooks.events({ cursor: 'bm9wZQ' }).catch((error: unknown) => error)
  t.match(refused, { status: 400, problem: { code: 'invalid_cursor' } }, 'a bad cursor is the problem the route answers')

  await session.webhooks.endpoints.add({ url: hooks.url })
  // The card is locked now: an unlock, then a lock.
  for (const action of ['unlock', 'lock']) await mock.fetch(`/baas/debit-cards/card_maya_virtual/${action}`, { method: action === 'lock' ? 'POST' : 'PUT', headers })
  const deliveries = await session.webhooks.deliveriesPage({ limit: 1 })
  t.match(deliveries, { session: 'handle', retrySchedule: '0', dropped: 0, data: [{ eventType: 'card.locked' }] })
  t.match(await session.webhooks.deliveries({ limit: 1, cursor: deliveries.nextCursor }), [{ eventType: 'card.unlocked' }])
  t.match(await session.webhooks.deliveries({ order: 'asc' }), [{ eventType: 'card.unlocked' }, { eventType: 'card.locked' }])
})
