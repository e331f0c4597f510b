import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { openRedisStore, type RedisStore } from '../../src/world/stores/redis.js'
import { StoreConflictError, StoreUnavailableError, type SessionChange, type StoredSession } from '../../src/world/stores/store.js'
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

function change (id: string, baseVersion: number, extra: Partial<SessionChange> = {}): SessionChange {
  return { meta: { id, createdMs: 1, lastSeenMs: Date.now(), pinned: false }, baseVersion, parts: { world: { n: baseVersion } }, journalAppended: [], journalFrom: 0, ...extra }
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

t.test('a load answers unchanged for the version held, and only the journal rows not seen', { skip: redisMissing }, async t => {
  const { a } = await replicas(t)
  await a.save(change('s', 0, { journalAppended: [row(1), row(2)] }))
  await a.save(change('s', 1, { journalAppended: [row(3)], journalFrom: 2 }))
  t.equal(await a.load('s', { knownVersion: 2 }), 'unchanged')
  const full = whole(await a.load('s', { knownVersion: 1 }))
  t.same(full.journal.map(r => r.id), [2, 3], 'rows below journalFrom are gone')
  t.equal(full.journalAfter, undefined)
  const later = whole(await a.load('s', { journalAfter: 2 }))
  t.same(later.journal.map(r => r.id), [3])
  t.equal(later.journalAfter, 2, 'it says it sent only the later rows')
  await a.save(change('s', 2, { journalAppended: [row(3), row(4)] }))
  t.same(whole(await a.load('s')).journal.map(r => r.id), [2, 3, 4], 'a row written already is not written again')
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

t.test('a session written by a newer baas-mock is not read', { skip: redisMissing }, async t => {
  const { a, redis, prefix } = await replicas(t)
  await a.save(change('s', 0))
  await redis.hset(`${prefix}session:s`, 'format', '2')
  await t.rejects(a.load('s'), new StoreUnavailableError('session s in ' + a.location + ' cannot be read: store format 2, written by a newer baas-mock (this one reads format 1)'))
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
  await a.save(change('s', 0, { journalAppended: [row(1), row(2), row(3)] }))
  // Its hash expired a moment before its stream.
  await redis.del(`${prefix}session:s`)
  await a.save(change('s', 0, { journalAppended: [row(1)] }))
  t.same(whole(await a.load('s')).journal.map(r => r.id), [1])
})
