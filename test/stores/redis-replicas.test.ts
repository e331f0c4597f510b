import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { BUNDLED_FIXTURES, type Config } from '../../src/config/config.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js'
import type { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'

// Two replicas (two buildApp instances, each its own session store) on one real redis-server:
// a request may land on either, and each must see what the other acknowledged.

async function replicas (t: Test, redis: RedisServer, overrides: Partial<Config> = {}): Promise<[TestApp, TestApp]> {
  const config = { store: redis.url, ...overrides }
  return [await buildTestApp(t, config), await buildTestApp(t, config)]
}

/**
 * Asks until `done` holds, at most `tries` times, a short pause between: a journal entry is saved
 * right after its answer goes out, so a read through the other replica may come a moment early.
 */
async function eventually (tries: number, done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < tries && !await done(); i++) await new Promise(resolve => setTimeout(resolve, 10))
}

/** A client of the test's own, to look into Redis directly. */
function inspect (t: Test, redis: RedisServer): Redis {
  const client = new Redis(redis.url)
  t.teardown(() => client.quit())
  return client
}

const cardStatus = async (app: TestApp, session?: string): Promise<string | undefined> => {
  const state = await app.call('GET', '/__mock/state', session === undefined ? {} : { session })
  return (state.body as { debitCards: Array<{ id: string; status: string }> }).debitCards.find(c => c.id === 'card_maya_virtual')?.status
}

t.test('a card locked through replica A is read locked through replica B, and unlocked through B is read so through A', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis)
  const created = await a.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal(created.status, 200)
  t.equal(created.headers['x-mock-session-created'], 'true', 'A created the session')
  const state = await b.call('GET', '/__mock/state')
  t.equal(state.headers['x-mock-session-created'], undefined, 'B found it made, and says nothing of a creation')
  t.equal(await cardStatus(b), 'LOCKED')
  t.equal((await b.call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })).status, 200)
  t.equal(await cardStatus(a), 'ACTIVE')
  t.equal((await b.call('POST', '/__mock/clock/advance', { body: { by: 'P1D' } })).status, 200)
  t.equal((await a.call('GET', '/__mock/clock')).body.now, '2026-11-24T15:00:00.000Z', 'the clock B advanced, read through A')
})

t.test('100 transfers created at once through two replicas: all listed, and the clock moves the balances by exactly their sum', { skip: redisMissing }, async t => {
  // Each customer keeps at most 50 transfers: two customers, 50 each, from fixtures without any yet.
  const fixtures = mkdtempSync(join(tmpdir(), 'baas-fixtures-'))
  t.teardown(() => rmSync(fixtures, { recursive: true, force: true }))
  cpSync(BUNDLED_FIXTURES, fixtures, { recursive: true })
  writeFileSync(join(fixtures, 'scheduled-transfers.yaml'), '[]\n')
  // A world of its own: over the bundled one, the bundled transfers would come back.
  writeFileSync(join(fixtures, 'fixtures.yaml'), 'extends: none\n')
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis, { fixturesDir: fixtures })
  const balances = async (app: TestApp): Promise<Record<string, number>> => {
    const state = await app.call('GET', '/__mock/state')
    return Object.fromEntries((state.body as { accounts: Array<{ id: string; balance: number }> }).accounts.map(account => [account.id, account.balance]))
  }
  const before = await balances(a)
  const owners = [{ token: TOKENS.maya, from: 'acct_maya_checking', to: 'acct_maya_savings' }, { token: TOKENS.sam, from: 'acct_sam_checking', to: 'acct_sam_savings' }]
  const created = await Promise.all(Array.from({ length: 100 }, async (_, n) => {
    const owner = owners[n % 2] as typeof owners[number]
    const res = await (n % 4 < 2 ? a : b).call('POST', '/baas/scheduled-transfers/internal', {
      token: owner.token,
      body: { amount: 100 + n, fromAccountId: owner.from, toAccountId: owner.to, frequency: 'ONCE', startDate: '2026-12-01' }
    })
    return res.status
  }))
  t.same(created.filter(status => status !== 201), [], 'every creation answered 201')
  const listed = await Promise.all(owners.map(async (owner, i) => {
    const res = await (i === 0 ? b : a).call('GET', '/baas/scheduled-transfers?limit=100', { token: owner.token })
    return (res.body as { data: Array<{ amount: number }> }).data.map(transfer => transfer.amount)
  }))
  t.same(listed.flat().sort((x, y) => x - y), Array.from({ length: 100 }, (_, n) => 100 + n), 'each acknowledged transfer is there, once')
  t.equal((await b.call('POST', '/__mock/clock/advance', { body: { to: '2026-12-02T00:00:00Z' } })).status, 200)
  const after = await balances(a)
  const sum = (parity: number): number => Array.from({ length: 50 }, (_, k) => 100 + 2 * k + parity).reduce((x, y) => x + y, 0)
  t.equal((before.acct_maya_checking ?? 0) - (after.acct_maya_checking ?? 0), sum(0), 'maya\'s checking paid exactly the sum of her transfers')
  t.equal((after.acct_maya_savings ?? 0) - (before.acct_maya_savings ?? 0), sum(0))
  t.equal((before.acct_sam_checking ?? 0) - (after.acct_sam_checking ?? 0), sum(1))
  t.equal((after.acct_sam_savings ?? 0) - (before.acct_sam_savings ?? 0), sum(1))
  // Journal entries are saved right after their answers: wait (bounded) for the last ones to land.
  let journaled = 0
  await eventually(200, async () => {
    const journal = await a.call('GET', '/__mock/requests?operation=createInternalScheduledTransfer&limit=200')
    journaled = (journal.body as { data: unknown[] }).data.length
    return journaled >= 100
  })
  t.equal(journaled, 100, 'the journal has every creation, from both replicas')
})

// Each entry once, from both replicas; not in answer order: an entry is saved just after its
// answer, so a later request's entry through the other replica may be saved first (stores.md says so).
t.test('the journal has the entries of both replicas, each once', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis)
  await a.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  await b.call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  await a.call('GET', '/baas/customers', { token: TOKENS.maya })
  let operations: string[] = []
  await eventually(200, async () => {
    operations = ((await b.call('GET', '/__mock/requests?order=asc')).body as { data: Array<{ operationId: string }> }).data.map(entry => entry.operationId)
    return operations.length >= 3
  })
  t.same([...operations].sort(), ['getCustomer', 'lockCard', 'unlockCard'])
})

t.test('webhook events made through both replicas: the same list through either (ids, order, data, cursors), kept as rows in a stream of their own', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis, { eventCap: 3 })
  const client = inspect(t, redis)
  for (const [i, path] of ['lock', 'unlock', 'lock', 'unlock', 'lock'].entries()) {
    const replica = i % 2 === 0 ? a : b
    t.equal((await replica.call(path === 'lock' ? 'POST' : 'PUT', `/baas/debit-cards/card_maya_virtual/${path}`, { token: TOKENS.maya })).status, 200)
  }
  type Events = { recorded: number; size: number; data: Array<{ id: string; type: string }>; nextCursor?: string }
  const throughA = (await a.call('GET', '/__mock/webhooks/events?order=asc')).body as Events
  const throughB = (await b.call('GET', '/__mock/webhooks/events?order=asc')).body as Events
  t.same(throughA.data.map(e => e.type), ['card.locked', 'card.unlocked', 'card.locked'], 'the last three of five, oldest first')
  t.match(throughA, { recorded: 5, size: 3 })
  t.same(throughB, throughA, 'B lists exactly what A lists')
  const paged: string[] = []
  let cursor: string | undefined
  for (const replica of [a, b, a]) {
    const page = (await replica.call('GET', `/__mock/webhooks/events?order=asc&limit=1${cursor === undefined ? '' : `&cursor=${cursor}`}`)).body as Events
    paged.push(...page.data.map(e => e.id))
    cursor = page.nextCursor
  }
  t.same(paged, throughA.data.map(e => e.id), 'a cursor from one replica reads on through the other, each event once')
  t.equal(cursor, undefined, 'and ends there')
  t.equal(await client.xlen('baas-mock:events:default'), 3, 'a row per event held: the cap trimmed the stream')
  const webhooks = JSON.parse(await client.hget('baas-mock:session:default', 'part:webhooks') ?? '{}') as Record<string, unknown>
  t.equal(webhooks.events, undefined, 'the webhooks part holds no events')
  t.same(JSON.parse(await client.hget('baas-mock:session:default', 'part:events') ?? '{}'), { recorded: 5 })
})

t.test('a session saved in Redis format 1 (events inside part:webhooks) keeps its events, and its next save writes them as rows', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis)
  const client = inspect(t, redis)
  t.equal((await a.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'old' })).status, 200)
  type Events = { recorded: number; data: Array<{ id: string; type: string }> }
  const before = (await a.call('GET', '/__mock/webhooks/events?order=asc', { session: 'old' })).body as Events
  // As format 1 kept it: the events inside the webhooks part, no stream, no events part.
  const key = 'baas-mock:session:old'
  const webhooks = JSON.parse(await client.hget(key, 'part:webhooks') ?? '{}') as Record<string, unknown>
  const rows = (await client.xrange('baas-mock:events:old', '-', '+')).map(([, fields]) => (JSON.parse(fields[1] ?? '{}') as { event: unknown }).event)
  await client.hset(key, 'part:webhooks', JSON.stringify({ ...webhooks, version: 1, events: rows, recorded: before.recorded }), 'format', '1', 'version', '100')
  await client.hdel(key, 'part:events', 'eventsLast')
  await client.del('baas-mock:events:old')
  t.same((await b.call('GET', '/__mock/webhooks/events?order=asc', { session: 'old' })).body, before, 'B reads the events out of the old layout')
  t.equal((await b.call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya, session: 'old' })).status, 200)
  t.equal(await client.hget(key, 'format'), '2')
  t.equal(await client.xlen('baas-mock:events:old'), 2, 'the old event and the new one, as rows')
  t.equal((JSON.parse(await client.hget(key, 'part:webhooks') ?? '{}') as Record<string, unknown>).events, undefined, 'the webhooks part rewritten without them')
  const after = (await a.call('GET', '/__mock/webhooks/events?order=asc', { session: 'old' })).body as Events
  t.same(after.data.map(e => e.id).slice(0, 1), before.data.map(e => e.id), 'the old event first, as it was')
  t.same(after.data.map(e => e.type), ['card.locked', 'card.unlocked'])
})

t.test('a webhooks record in Redis that is not in the stored format answers 503 store_unavailable, not 500, until it is mended', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis)
  const client = inspect(t, redis)
  t.equal((await a.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'bad' })).status, 200)
  const key = 'baas-mock:session:bad'
  const good = await client.hget(key, 'part:webhooks') ?? '{}'
  const malformed = [
    '"not an object"',
    JSON.stringify({ version: 2, endpoints: [], droppedDeliveries: 0, deliveries: [{ id: 'dlv_x', status: 'PENDING' }] }),
    JSON.stringify({ version: 2, endpoints: [{ id: 'ep_x', url: 'http://127.0.0.1:2/', secret: 'whsec_x' }], deliveries: [], droppedDeliveries: 0 })
  ]
  for (const [i, part] of malformed.entries()) {
    await client.hset(key, 'part:webhooks', part, 'version', String(100 + i))
    for (const replica of [b, a]) {
      const answer = await replica.call('GET', '/baas/customers', { token: TOKENS.maya, session: 'bad' })
      t.match(answer, { status: 503, body: { code: 'store_unavailable' } }, `record ${i}: the store's failure`)
    }
  }
  await client.hset(key, 'part:webhooks', good, 'version', '200')
  t.equal((await b.call('GET', '/__mock/webhooks/deliveries', { session: 'bad' })).status, 200, 'mended, it is read again')
  t.equal((await a.call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya, session: 'bad' })).status, 200)
})

t.test('DELETE /__mock/sessions/:id through one replica removes the session from Redis, whichever replica made it', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis)
  const client = inspect(t, redis)
  t.equal((await a.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'ci-42' })).status, 200)
  t.equal(await client.exists('baas-mock:session:ci-42'), 1, 'the session is in Redis')
  t.equal((await b.call('DELETE', '/__mock/sessions/ci-42')).status, 204, 'B deletes a session it never served')
  t.equal(await client.exists('baas-mock:session:ci-42', 'baas-mock:journal:ci-42', 'baas-mock:events:ci-42'), 0, 'its keys are gone')
  t.equal(await client.zscore('baas-mock:sessions', 'ci-42'), null, 'and its place in the index')
  t.equal((await b.call('DELETE', '/__mock/sessions/ci-42')).status, 404, 'a second delete finds nothing')
  const fresh = await a.call('GET', '/__mock/state', { session: 'ci-42' })
  t.equal(fresh.headers['x-mock-session-created'], 'true', 'A, which held a copy, starts it afresh')
  t.equal(await cardStatus(a, 'ci-42'), 'ACTIVE')
})

t.test('keys are namespaced by --store-prefix, and two prefixes on one Redis are two separate mocks', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const client = inspect(t, redis)
  const blue = await buildTestApp(t, { store: redis.url, storePrefix: 'blue:' })
  const green = await buildTestApp(t, { store: redis.url, storePrefix: 'green:' })
  await blue.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal(await cardStatus(green), 'ACTIVE', 'green has its own default session')
  t.equal(await cardStatus(blue), 'LOCKED')
  const keys = (await client.keys('*')).sort()
  t.ok(keys.length > 0 && keys.every(key => key.startsWith('blue:') || key.startsWith('green:')), `every key has a prefix: ${keys.join(' ')}`)
})

t.test('an idle session expires by Redis\'s own time to live; default and pinned ones do not', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis, { sessionIdleSeconds: 1 })
  const client = inspect(t, redis)
  await a.call('GET', '/__mock/state', { session: 'idle' })
  await b.call('POST', '/__mock/sessions/kept/pin')
  await a.call('GET', '/__mock/state')
  const ttl = await client.pttl('baas-mock:session:idle')
  t.ok(ttl > 0 && ttl <= 1000, `the idle session's keys expire within the idle time (${ttl} ms)`)
  t.equal(await client.pttl('baas-mock:session:default'), -1, 'default has no expiry')
  t.equal(await client.pttl('baas-mock:session:kept'), -1, 'a pinned session has none')
  // Redis expires it in about a second: wait for that, boundedly, by asking Redis.
  let exists = 1
  for (let i = 0; i < 300 && exists === 1; i++) {
    exists = await client.exists('baas-mock:session:idle')
    if (exists === 1) await new Promise(resolve => setTimeout(resolve, 20))
  }
  t.equal(exists, 0, 'Redis dropped the idle session')
  const listed = (await b.call('GET', '/__mock/sessions')).body as { sessions: Array<{ id: string }> }
  t.same(listed.sessions.map(session => session.id).sort(), ['default', 'kept'], 'the listing (from the store) has default and the pinned one only')
  const again = await a.call('GET', '/__mock/state', { session: 'idle' })
  t.equal(again.headers['x-mock-session-created'], 'true', 'A, which held a copy, starts it afresh')
  t.equal((await b.call('DELETE', '/__mock/sessions/kept/pin')).status, 200, 'unpinned through the other replica')
  const unpinnedTtl = await client.pttl('baas-mock:session:kept')
  t.ok(unpinnedTtl > 0 && unpinnedTtl <= 1000, 'unpinned, it expires like any other')
})

t.test('--max-sessions holds across replicas: the least recently used goes, default and pinned ones stay', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis, { maxSessions: 3 })
  t.equal((await a.call('POST', '/__mock/sessions/ci-pinned/pin')).status, 200)
  await a.call('GET', '/__mock/state')
  await a.call('GET', '/__mock/state', { session: 'one' })
  await b.call('GET', '/__mock/state', { session: 'two' })
  const listed = async (app: TestApp): Promise<string[]> => ((await app.call('GET', '/__mock/sessions')).body as { sessions: Array<{ id: string }> }).sessions.map(s => s.id)
  t.same(await listed(b), ['two', 'one', 'default', 'ci-pinned'], 'most recently used first; three count, the pinned one aside')
  await b.call('GET', '/__mock/state', { session: 'three' })
  t.same(await listed(a), ['three', 'two', 'default', 'ci-pinned'], 'one went: the least recently used that is neither default nor pinned')
  await a.call('GET', '/__mock/state', { session: 'four' })
  t.same(await listed(b), ['four', 'three', 'default', 'ci-pinned'])
  const list = (await a.call('GET', '/__mock/sessions')).body as { maxSessions: number }
  t.equal(list.maxSessions, 3)
})

t.test('pins count across replicas: at most 16 at once, whichever replica pinned them', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const [a, b] = await replicas(t, redis)
  for (let i = 0; i < 16; i++) t.equal((await (i % 2 === 0 ? a : b).call('POST', `/__mock/sessions/pinned-${i}/pin`)).status, 200)
  t.equal((await a.call('POST', '/__mock/sessions/pinned-16/pin')).status, 409, 'the seventeenth is refused')
  t.equal((await b.call('POST', '/__mock/sessions/pinned-3/pin')).status, 200, 'pinning a pinned one again is harmless')
  t.equal((await a.call('DELETE', '/__mock/sessions/unknown/pin')).status, 404, 'unpinning a session the store has not is 404')
})

t.test('on Redis, a feed open on replica B shows what a request served by replica A did, once; a webhook goes out once', { skip: redisMissing }, async t => {
  const { openRedisStore } = await import('../../src/world/stores/redis.js')
  const { replica } = await import('../helpers/shared-store.js')
  const { watch } = await import('../helpers/feed-reader.js')
  const { Receiver } = await import('../helpers/receiver.js')
  const redis = await startRedis(t)
  const hooks = await Receiver.start()
  t.teardown(() => hooks.close())
  const open = async (): Promise<Awaited<ReturnType<typeof openRedisStore>>['store']> => {
    const { store } = await openRedisStore(redis.url, { prefix: 'baas-mock:', idleTimeoutMs: 3_600_000, maxSessions: 100 })
    t.teardown(() => store.close())
    return store
  }
  const settings = { webhookRetrySchedule: [0, 0, 0], webhookTimeoutMs: 5000 }
  const a = replica(await open(), settings, t)
  const b = replica(await open(), settings, t)
  const json = { 'content-type': 'application/json', 'x-mock-session': 'watched' }
  t.equal((await a.fetch('/__mock/webhooks/endpoints', { method: 'POST', headers: json, body: JSON.stringify({ url: hooks.url }) })).status, 201)
  const feed = await watch(t, b, 'watched')
  // B's SUBSCRIBE is on its way to Redis when the stream opens: wait until Redis has it.
  const client = inspect(t, redis)
  await eventually(500, async () => (await client.pubsub('NUMSUB', 'baas-mock:feed:watched'))[1] === 1)

  const locked = await a.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'watched' } })
  t.equal(locked.status, 200)
  const entry = await feed.next('request', e => e.operationId === 'lockCard')
  const event = await feed.next('event', e => e.type === 'card.locked')
  t.match(event.data, { data: { id: 'card_maya_virtual', status: 'LOCKED' } })
  const journal = await (await b.fetch('/__mock/requests?order=asc', { headers: { 'x-mock-session': 'watched' } })).json() as { data: unknown[] }
  t.same(journal.data.at(-1), entry.data, 'the entry as B\'s journal lists it')

  await hooks.next(1)
  await feed.next('delivery', d => d.status === 'SUCCEEDED')
  // B serves the session too: were its load to send pending deliveries, a second request would come.
  t.equal((await b.fetch('/baas/customers', { headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'watched' } })).status, 200)
  for (const r of [a, b]) await (r.services.sessions.webhooks.queue as WebhookDispatcher).drained()
  t.equal(hooks.received.length, 1, 'one delivery reached the receiver')
  t.equal(feed.events.filter(e => e.event === 'request' && e.data.operationId === 'lockCard').length, 1, 'A\'s entry shown once')
})

t.test('on Redis, a session nobody watches is published nowhere; once a dashboard watches it on one replica, the other publishes its notices', { skip: redisMissing }, async t => {
  const { openRedisStore } = await import('../../src/world/stores/redis.js')
  const { replica } = await import('../helpers/shared-store.js')
  const { watch } = await import('../helpers/feed-reader.js')
  const redis = await startRedis(t)
  const open = async (): Promise<Awaited<ReturnType<typeof openRedisStore>>['store']> => {
    const { store } = await openRedisStore(redis.url, { prefix: 'baas-mock:', idleTimeoutMs: 3_600_000, maxSessions: 100 })
    t.teardown(() => store.close())
    return store
  }
  const a = replica(await open(), {}, t)
  const b = replica(await open(), {}, t)
  const listener = inspect(t, redis)
  const heard: string[] = []
  listener.on('pmessage', (_pattern: string, channel: string) => heard.push(channel))
  await listener.psubscribe('baas-mock:feed:*')
  const control = inspect(t, redis)
  /** Every notice published before this call has reached the listener: Redis delivers in order, and a replica publishes before its save, so before its answer. */
  const heardSoFar = async (): Promise<string[]> => {
    await control.publish('baas-mock:feed:marker', '{}')
    await eventually(500, async () => heard.includes('baas-mock:feed:marker'))
    const channels = heard.filter(channel => channel !== 'baas-mock:feed:marker')
    heard.length = 0
    return channels
  }
  const lock = async (app: typeof a, path: string): Promise<number> => (await app.fetch(`/baas/debit-cards/card_maya_virtual/${path}`, { method: path === 'lock' ? 'POST' : 'PUT', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'watched' } })).status
  t.equal(await lock(a, 'lock'), 200)
  t.equal(await lock(a, 'unlock'), 200)
  t.same(await heardSoFar(), [], 'no dashboard open: no journal entry or event went to pub/sub')

  const feed = await watch(t, b, 'watched')
  await eventually(500, async () => await control.exists('baas-mock:watch:watched') === 1)
  t.equal(await lock(a, 'lock'), 200)
  await feed.next('event', e => e.type === 'card.locked')
  t.ok((await heardSoFar()).every(channel => channel === 'baas-mock:feed:watched'), 'A publishes the watched session\'s notices')
  await feed.close()
  await eventually(500, async () => await control.exists('baas-mock:watch:watched') === 0)
  t.equal(await control.exists('baas-mock:watch:watched'), 0, 'the mark goes with the last watcher')
})
