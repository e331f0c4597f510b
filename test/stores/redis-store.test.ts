import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { openRedisStore, REDIS_FORMAT, type RedisStore } from '../../src/world/stores/redis.js'
import { StoreConflictError, StoreUnavailableError, type RowsChange, type SessionChange, type StoredSession } from '../../src/world/stores/store.js'
import type { StoredJournalRow } from '../../src/world/journal.js'
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js'

// The Redis store on its own, against a real redis-server: the version check, the claim that lets
// a replica whose save lost go first, loads that send only what changed, and the index.

const server: RedisServer | undefined = redisMissing === false ? await startRedis(t) : undefined
let prefixes = 0

interface Replicas { a: RedisStore; b: RedisStore; redis: Redis; prefix: string }

/** Two stores (two replicas) on the file's Redis, with a prefix of their own, and a client to look in. */
async function replicas (t: Test, options: { maxSessions?: number; idleTimeoutMs?: number } = {}): Promise<Replicas> {
  if (server === undefined) throw new Error('no redis-server')
  const prefix = `t${++prefixes}:`
  const open = async (): Promise<RedisStore> => {
    const { store } = await openRedisStore((server as RedisServer).url, { prefix, idleTimeoutMs: options.idleTimeoutMs ?? 60_000, maxSessions: options.maxSessions ?? 100 })
    t.teardown(() => store.close())
    return store
  }
  const redis = new Redis(server.url)
  t.teardown(() => redis.quit())
  return { a: await open(), b: await open(), redis, prefix }
}

function row (id: number): StoredJournalRow {
  return { id, timeMs: 1_000 + id, method: 'GET', url: `/r/${id}`, operationId: null, status: 200, durationMs: 1, headers: {}, body: null }
}

/** An event row: its id is the event's number in the session. */
function eventRow (seq: number): { id: number; event: Record<string, string> } {
  return { id: seq, event: { id: `evt_${seq}`, type: 'card.locked', originalType: 'card.locked', timestamp: '2026-11-23T15:00:00.000Z', detail: 'Locked', canonical: '{}' } }
}

type ChangeExtra = Partial<Omit<SessionChange, 'rows'>> & { journal?: Partial<RowsChange>; events?: Partial<RowsChange> }

function change (id: string, baseVersion: number, { journal, events, ...extra }: ChangeExtra = {}): SessionChange {
  return {
    meta: { id, createdMs: 1, lastSeenMs: Date.now(), pinned: false },
    baseVersion,
    parts: { world: { n: baseVersion } },
    rows: { journal: { appended: [], from: 0, ...journal }, events: { appended: [], from: 0, ...events } },
    ...extra
  }
}

const whole = (loaded: StoredSession | 'unchanged' | undefined): StoredSession => {
  if (loaded === undefined || loaded === 'unchanged') throw new Error(`expected a session, got ${String(loaded)}`)
  return loaded
}

t.test('a save from a version the store no longer has is refused, and writes nothing', { skip: redisMissing }, async t => {
  const { a, b } = await replicas(t)
  t.equal(await a.save(change('s', 0)), 1)
  await t.rejects(b.save(change('s', 0)), StoreConflictError, 'a second creation of the same session')
  t.equal(await b.save(change('s', 1)), 2)
  await t.rejects(a.save(change('s', 1, { parts: { world: { n: 'lost' } } })), StoreConflictError)
  t.same(whole(await a.load('s')).parts.world, { n: 1 }, 'the refused change left nothing')
})

t.test('a load answers unchanged for the version held, and only the journal rows and events not seen', { skip: redisMissing }, async t => {
  const { a } = await replicas(t)
  await a.save(change('s', 0, { journal: { appended: [row(1), row(2)] }, events: { appended: [eventRow(1), eventRow(2)] } }))
  await a.save(change('s', 1, { journal: { appended: [row(3)], from: 2 }, events: { appended: [eventRow(3), eventRow(4)], from: 3 } }))
  t.equal(await a.load('s', { knownVersion: 2 }), 'unchanged')
  const full = whole(await a.load('s', { knownVersion: 1 }))
  t.same(full.rows.journal.map(r => r.id), [2, 3], 'rows below the journal\'s from are gone')
  t.same(full.rows.events, [eventRow(3), eventRow(4)], 'events below theirs too; the rest as saved')
  t.equal(full.rowsAfter, undefined)
  const later = whole(await a.load('s', { rowsAfter: { journal: 2, events: 3 } }))
  t.same(later.rows.journal.map(r => r.id), [3])
  t.same(later.rows.events.map(r => r.id), [4])
  t.same(later.rowsAfter, { journal: 2, events: 3 }, 'it says it sent only the later rows')
  await a.save(change('s', 2, { journal: { appended: [row(3), row(4)] }, events: { appended: [eventRow(4), eventRow(5)], from: 3 } }))
  const after = whole(await a.load('s'))
  t.same(after.rows.journal.map(r => r.id), [2, 3, 4], 'a row written already is not written again')
  t.same(after.rows.events.map(r => r.id), [3, 4, 5])
})

t.test('the events stream lives and dies with its session: time to live, persisted when pinned, dropped with it', { skip: redisMissing }, async t => {
  const { a, redis, prefix } = await replicas(t, { idleTimeoutMs: 60_000 })
  await a.save(change('s', 0, { events: { appended: [eventRow(1)] } }))
  const ttl = await redis.pttl(`${prefix}events:s`)
  t.ok(ttl > 0 && ttl <= 60_000, `it expires with the session (${ttl} ms)`)
  await a.save({ ...change('s', 1), meta: { id: 's', createdMs: 1, lastSeenMs: Date.now(), pinned: true } })
  t.equal(await redis.pttl(`${prefix}events:s`), -1, 'a pinned session\'s events do not expire')
  await a.save(change('s', 2))
  t.ok(await redis.pttl(`${prefix}events:s`) > 0, 'unpinned: they expire again')
  t.equal(await a.delete('s'), true)
  t.equal(await redis.exists(`${prefix}events:s`, `${prefix}journal:s`, `${prefix}session:s`), 0, 'deleted: all of its keys are gone')
})

t.test('a session written in format 1 (events inside part:webhooks, no stream) is read, and written as rows by its next save', { skip: redisMissing }, async t => {
  const { a, redis, prefix } = await replicas(t)
  const webhooks = { version: 1, events: [eventRow(1).event], recorded: 1, endpoints: [], deliveries: [], droppedDeliveries: 0 }
  await redis.hset(`${prefix}session:old`, { version: 3, format: 1, createdMs: 1, lastSeenMs: Date.now(), pinned: 0, journalLast: 0, 'part:world': '{}', 'part:webhooks': JSON.stringify(webhooks) })
  const loaded = whole(await a.load('old'))
  t.same(loaded.rows.events, [], 'no event rows')
  t.same(loaded.parts.webhooks, webhooks, 'the events are in the part, for the webhooks to restore')
  await a.save(change('old', 3, { parts: { webhooks: { version: 2 }, events: { recorded: 1 } }, events: { appended: [eventRow(1)], from: 1 } }))
  t.equal(await redis.hget(`${prefix}session:old`, 'format'), String(REDIS_FORMAT))
  t.same(whole(await a.load('old')).rows.events, [eventRow(1)])
})

t.test('a replica whose save lost claims the next save: the other waits for it, or for its release', { skip: redisMissing }, async t => {
  const { a, b } = await replicas(t)
  await a.save(change('s', 0))
  whole(await a.load('s', { claim: true }))
  await t.rejects(b.save(change('s', 1)), StoreConflictError, 'the claimant saves first')
  const waiting = b.load('s')
  t.equal(await a.save(change('s', 1)), 2, 'the claimant saves')
  t.equal(whole(await waiting).version, 2, 'the other loads once the claimant saved')
  t.equal(await b.save(change('s', 2)), 3, 'and saves after it')
  whole(await a.load('s', { claim: true }))
  await a.release('s')
  t.equal(await b.save(change('s', 3)), 4, 'a released claim holds nobody up')
})

t.test('a claim key that never expires (none a replica makes) holds nobody up: it is taken out, and loads and saves go on', { skip: redisMissing }, async t => {
  const { a, b, redis, prefix } = await replicas(t)
  await a.save(change('s', 0))
  const claim = `${prefix}claim:s`
  await redis.set(claim, 'a-replica-long-gone')
  t.equal(whole(await b.load('s')).version, 1, 'loaded at once, not after the wait for a claimant')
  t.equal(await redis.exists(claim), 0, 'the stray claim is gone')
  await redis.set(claim, 'a-replica-long-gone')
  t.equal(await b.save(change('s', 1)), 2, 'a save goes through it too')
  t.equal(await redis.exists(claim), 0)
  whole(await a.load('s', { claim: true }))
  const left = await redis.pttl(claim)
  t.ok(left > 0 && left <= 1000, `a claim a replica makes expires by itself (${left} ms left)`)
  await t.rejects(b.save(change('s', 2)), StoreConflictError, 'and holds while it lasts')
})

t.test('a session written by a newer baas-mock is not read', { skip: redisMissing }, async t => {
  const { a, redis, prefix } = await replicas(t)
  await a.save(change('s', 0))
  await redis.hset(`${prefix}session:s`, 'format', String(REDIS_FORMAT + 1))
  await t.rejects(a.load('s'), new StoreUnavailableError('session s in ' + a.location + ` cannot be read: store format ${REDIS_FORMAT + 1}, written by a newer baas-mock (this one reads format ${REDIS_FORMAT})`))
})

t.test('the index: listed least recently seen first, forgetting sessions whose keys expired; expire and delete', { skip: redisMissing }, async t => {
  const { a, redis, prefix } = await replicas(t)
  const at = (id: string, lastSeenMs: number, pinned = false): SessionChange => ({ ...change(id, 0), meta: { id, createdMs: 1, lastSeenMs, pinned } })
  const now = Date.now()
  await a.save(at('old', now - 5_000))
  await a.save(at('default', now - 4_000))
  await a.save(at('kept', now - 3_000, true))
  await a.save(at('gone', now - 2_000))
  await a.save(at('new', now - 1_000))
  await redis.del(`${prefix}session:gone`)
  t.same((await a.list()).map(meta => meta.id), ['old', 'default', 'kept', 'new'])
  t.equal(await redis.zscore(`${prefix}sessions`, 'gone'), null, 'the expired one left the index')
  t.same(await a.expire(now - 1_500), ['old'], 'idle ones go, but default and pinned ones')
  t.equal(await a.delete('new'), true)
  t.equal(await a.delete('new'), false, 'deleting what is not there says so')
  t.same((await a.list()).map(meta => meta.id), ['default', 'kept'])
})

t.test('a new session starts a new journal, whatever was left of an earlier one', { skip: redisMissing }, async t => {
  const { a, redis, prefix } = await replicas(t)
  await a.save(change('s', 0, { journal: { appended: [row(1), row(2), row(3)] }, events: { appended: [eventRow(1), eventRow(2)] } }))
  // Its hash expired a moment before its streams.
  await redis.del(`${prefix}session:s`)
  await a.save(change('s', 0, { journal: { appended: [row(1)] }, events: { appended: [eventRow(1)] } }))
  const loaded = whole(await a.load('s'))
  t.same(loaded.rows.journal.map(r => r.id), [1])
  t.same(loaded.rows.events.map(r => r.id), [1])
})
