import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { openSqliteStore, STORE_FILE, STORE_FORMAT } from '../../src/world/stores/sqlite.js'
import { StoreConflictError, StoreOpenError, StoreUnavailableError, type RowsChange, type SessionChange } from '../../src/world/stores/store.js'
import { SessionStore } from '../../src/world/sessions.js'
import { World } from '../../src/world/world.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { TEST_NOW } from '../helpers/app.js'
import { RecordingStore } from '../helpers/recording-store.js'
import type { StoredEventRow } from '../../src/world/event-log.js'

function stateDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-sqlite-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function change (id: string, baseVersion: number, over: Partial<SessionChange> = {}): SessionChange {
  return {
    meta: { id, createdMs: 1, lastSeenMs: 2 + baseVersion, pinned: false },
    baseVersion,
    parts: { world: { v: baseVersion } },
    rows: { journal: { appended: [], from: 1 }, events: { appended: [], from: 1 } },
    ...over
  }
}

const rows = (journal: RowsChange, events: RowsChange = { appended: [], from: 1 }): SessionChange['rows'] => ({ journal, events })

const row = (id: number) => ({ id, timeMs: id, method: 'GET', url: `/x?${id}`, operationId: 'getCustomer', status: 200, durationMs: 1, headers: {}, body: null })

t.test('save, load, list, delete: parts replaced whole, journal rows appended and trimmed, versions checked', async t => {
  const { store, created } = await openSqliteStore(stateDir(t))
  t.teardown(() => store.close())
  t.ok(created)
  const event = (seq: number): { id: number; event: { id: string } } => ({ id: seq, event: { id: `evt_${seq}` } })
  t.equal(await store.save(change('a', 0, { rows: rows({ appended: [row(1), row(2)], from: 1 }, { appended: [event(1), event(2)], from: 1 }) })), 1)
  t.equal(await store.save(change('a', 1, { parts: { outbox: [1] }, rows: rows({ appended: [row(3)], from: 2 }, { appended: [event(3)], from: 3 }) })), 2)
  const loaded = await store.load('a')
  t.same(loaded?.parts, { world: { v: 0 }, outbox: [1] }, 'a part not in a change is kept as it was')
  t.same(loaded?.rows.journal.map(r => r.id), [2, 3], 'journal rows before its from are gone')
  t.same(loaded?.rows.events, [event(3)], 'event rows before theirs too')
  t.equal(loaded?.version, 2)
  await t.rejects(store.save(change('a', 1)), StoreConflictError, 'a change made from an older version is refused')
  await t.rejects(store.save(change('a', 0)), StoreConflictError, 'so is a second creation')
  await store.save({ ...change('b', 0), meta: { id: 'b', createdMs: 1, lastSeenMs: 10, pinned: false } })
  t.same((await store.list()).map(m => m.id), ['a', 'b'], 'least recently seen first')
  await store.delete('a')
  t.equal(await store.load('a'), undefined)
  t.same((await store.list()).map(m => m.id), ['b'])
})

t.test('expire removes sessions idle since before the cutoff, but default and pinned ones', async t => {
  const { store } = await openSqliteStore(stateDir(t))
  t.teardown(() => store.close())
  for (const [id, lastSeenMs, pinned] of [['old', 10, false], ['default', 10, false], ['pinned', 10, true], ['fresh', 100, false]] as const) {
    await store.save({ ...change(id, 0), meta: { id, createdMs: 1, lastSeenMs, pinned } })
  }
  t.same(await store.expire(50), ['old'])
  t.same((await store.list()).map(m => m.id).sort(), ['default', 'fresh', 'pinned'])
})

t.test('a store that fails at run time rejects with StoreUnavailableError, not a crash', async t => {
  const { store } = await openSqliteStore(stateDir(t))
  await store.close()
  await t.rejects(store.save(change('a', 0)), StoreUnavailableError)
  await t.rejects(store.load('a'), StoreUnavailableError)
})

t.test('a file that is not a store, a corrupt one, a newer or an older format: refused with one line naming the file and the way out', async t => {
  const cases: Array<[string, (path: string) => void, RegExp]> = [
    ['garbage', path => writeFileSync(path, 'this is not a database, just bytes '.repeat(200)), /not a database/],
    ['another program\'s SQLite file', path => { const db = new Database(path); db.exec('CREATE TABLE notes (x)'); db.close() }, /not a baas-mock state store/],
    ['a newer format', path => { const db = new Database(path); db.exec('CREATE TABLE x (y)'); db.pragma('application_id = 1650549107'); db.pragma(`user_version = ${STORE_FORMAT + 1}`); db.close() }, new RegExp(`written by a newer baas-mock \\(store format ${STORE_FORMAT + 1}; this one reads format ${STORE_FORMAT}\\)`)],
    ['an older format', path => { const db = new Database(path); db.exec('CREATE TABLE sessions (id)'); db.pragma('application_id = 1650549107'); db.pragma('user_version = 0'); db.close() }, /written by an older baas-mock \(store format 0\)/]
  ]
  for (const [name, make, message] of cases) {
    const dir = stateDir(t)
    const path = join(dir, STORE_FILE)
    make(path)
    const error = await openSqliteStore(dir).then(() => undefined, (e: unknown) => e)
    t.type(error, StoreOpenError, name)
    const text = (error as Error).message
    t.match(text, message, name)
    t.match(text, path, `${name}: the message names the file`)
    t.match(text, /--state-reset/, `${name}: and the way out`)
    t.notMatch(text, /\n/, `${name}: in one line`)
  }
})

t.test('a store with damaged pages behind a sound header: still one line, naming the way out', async t => {
  const dir = stateDir(t)
  const { store } = await openSqliteStore(dir)
  for (let i = 0; i < 40; i++) await store.save(change(`s${i}`, 0, { parts: { world: { filler: 'x'.repeat(3000) } } }))
  await store.close()
  const path = join(dir, STORE_FILE)
  // Page 1 (the header and schema) stays; the pages after it are overwritten with noise.
  const fd = openSync(path, 'r+')
  for (let offset = 4096 * 2; offset < statSync(path).size; offset += 4096 * 3) writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, offset)
  closeSync(fd)
  const error = await openSqliteStore(dir).then(async opened => { await opened.store.close(); return undefined }, (e: unknown) => e)
  t.type(error, StoreOpenError)
  const text = (error as Error).message
  t.notMatch(text, /\n/, 'in one line')
  t.match(text, /--state-reset/, 'with the way out')
})

t.test('--state-reset moves the old files aside, never deletes them, and starts afresh', async t => {
  const dir = stateDir(t)
  writeFileSync(join(dir, STORE_FILE), 'corrupt')
  const { store, created, asideAs } = await openSqliteStore(dir, { reset: true, now: () => new Date('2026-11-25T10:11:12.345Z') })
  t.teardown(() => store.close())
  t.ok(created)
  t.equal(asideAs, join(dir, 'baas-mock-aside-20261125T101112Z.db'))
  t.ok(existsSync(join(dir, 'baas-mock-aside-20261125T101112Z.db')), 'the old file is kept')
  t.same(await store.list(), [])
})

t.test('a second process on the same folder is refused while the first runs; a reset is refused too', async t => {
  const dir = stateDir(t)
  const { store } = await openSqliteStore(dir)
  await store.save(change('a', 0))
  const other = new Database(join(dir, STORE_FILE))
  t.teardown(() => other.close())
  t.throws(() => other.prepare('SELECT count(*) FROM sessions').get(), { code: 'SQLITE_BUSY' }, 'the file is locked for this process')
  const inUse = await openSqliteStore(dir).then(() => '', (e: unknown) => (e as Error).message)
  t.match(inUse, /another process uses it/)
  t.notMatch(inUse, /--state-reset/, 'no reset is offered for a store in use: it would be refused too')
  await t.rejects(openSqliteStore(dir, { reset: true }), /another process uses it/)
  t.same(readdirSync(dir).filter(f => f.includes('aside')), [], 'nothing was moved aside')
  await store.close()
  const { store: again } = await openSqliteStore(dir)
  t.same((await again.list()).map(m => m.id), ['a'], 'once closed, the next one opens it')
  await again.close()
})

t.test('a folder that cannot be made is refused in one line', async t => {
  const dir = stateDir(t)
  writeFileSync(join(dir, 'file'), '')
  await t.rejects(openSqliteStore(join(dir, 'file', 'sub')), /cannot create the state folder .*file\/sub/)
})

t.test('the session store: restored at start, an idle session expires meanwhile, its rows go', async t => {
  const scenarios = loadScenarios(BUNDLED_FIXTURES)
  const options = (id: string) => ({ scenario: 'default', now: TEST_NOW, seed: 7, sessionId: id, outboxCap: 10 })
  const dir = stateDir(t)
  let now = 1_000_000
  const make = async (idleTimeoutMs: number) => {
    const { store } = await openSqliteStore(dir)
    return new SessionStore(id => new World(scenarios.get('default')!.fixtures, options(id)), {
      maxSessions: 10, idleTimeoutMs, journalCap: 5, now: () => now, store, restoreWorld: (id, data) => new World({ restore: data }, options(id))
    })
  }
  const first = await make(60_000)
  for (const id of ['idle', 'pinned', 'default']) {
    const session = first.get(id)
    session.world.ctx.state.customers.delete('cus_sam')
    await first.commit(session, true)
  }
  await first.pin('pinned')
  await first.close()

  now += 61_000
  const second = await make(60_000)
  t.equal(await second.restore(), 2)
  t.same(second.list().map(s => s.id).sort(), ['default', 'pinned'])
  t.notOk(second.peek('default')?.world.ctx.state.customers.has('cus_sam'), 'what was saved came back')
  now += 61_000
  t.equal(second.sweep(), 0, 'neither default nor pinned expire')
  await second.unpin('pinned')
  t.equal(second.sweep(), 1)
  await second.close()
  const third = await make(60_000)
  t.equal(await third.restore(), 1, 'the expired session left the store too')
  await third.close()
})

t.test('writes of one turn are committed together, each on its own: a refused change fails alone', async t => {
  const { store } = await openSqliteStore(stateDir(t))
  t.teardown(() => store.close())
  await store.save(change('a', 0))
  const [refused, kept, deleted] = await Promise.allSettled([store.save(change('a', 0)), store.save(change('b', 0)), store.delete('a')])
  t.type(refused.status === 'rejected' ? refused.reason : undefined, StoreConflictError)
  t.equal(kept.status, 'fulfilled')
  t.equal(deleted.status, 'fulfilled')
  t.same((await store.list()).map(m => m.id), ['b'], 'in the order asked: b saved, a deleted')
})

/** A store written by baas-mock in format 1 (events inside the webhooks part): fixtures/format-1/make.sh says how. */
const FORMAT_1 = fileURLToPath(new URL('fixtures/format-1/', import.meta.url))

t.test('a format 1 store is migrated: each session\'s events become rows numbered as before, its webhooks part loses them', async t => {
  const dir = stateDir(t)
  copyFileSync(join(FORMAT_1, 'store.db'), join(dir, STORE_FILE))
  const { store } = await openSqliteStore(dir)
  const stored = await store.load('default')
  const expected = JSON.parse(readFileSync(join(FORMAT_1, 'expected-events-default.json'), 'utf8')) as { recorded: number; data: Array<{ id: string }> }
  t.same(stored?.rows.events.map(row => row.id), [3, 4, 5, 6], 'the four held of six recorded, numbered 3 to 6 as the session numbered them')
  t.same(stored?.rows.events.map(row => (row as StoredEventRow).event.id), expected.data.map(e => e.id), 'the same events, in order')
  t.same(stored?.parts.events, { recorded: 6 })
  t.match(stored?.parts.webhooks, { version: 2, endpoints: [], deliveries: [] })
  t.notOk(stored?.parts.webhooks !== null && typeof stored?.parts.webhooks === 'object' && 'events' in stored.parts.webhooks, 'no events left in the part')
  const hooks = await store.load('ci-hooks')
  t.same(hooks?.rows.events.map(row => row.id), [1, 2])
  t.match(hooks?.parts.webhooks, { version: 2, endpoints: [{ id: 'ep_tKIcldlXQyLv1ZlL', url: 'http://127.0.0.1:9/hooks' }] })
  await store.close()
  const db = new Database(join(dir, STORE_FILE), { readonly: true })
  t.equal(db.pragma('user_version', { simple: true }), STORE_FORMAT, 'the file says format 2 now')
  db.close()
  const { store: again } = await openSqliteStore(dir)
  t.same((await again.load('default'))?.rows.events.map(row => row.id), [3, 4, 5, 6], 'opened again: nothing migrated twice')
  await again.close()
})

t.test('a format 1 store whose webhooks part is not what format 1 wrote is refused, untouched, with the way out', async t => {
  const dir = stateDir(t)
  const path = join(dir, STORE_FILE)
  copyFileSync(join(FORMAT_1, 'store.db'), path)
  const db = new Database(path)
  db.prepare('UPDATE parts SET json = ? WHERE session_id = ? AND name = ?').run('{"version":7}', 'default', 'webhooks')
  db.close()
  const error = await openSqliteStore(dir).then(async opened => { await opened.store.close(); return undefined }, (e: unknown) => e)
  t.type(error, StoreOpenError)
  t.match((error as Error).message, /session default's webhooks are not in store format 1.*--state-reset/)
  const after = new Database(path, { readonly: true })
  t.equal(after.pragma('user_version', { simple: true }), 1, 'the migration was rolled back: still format 1')
  after.close()
})

t.test('a session only read after its last write keeps its last-seen time in the store: it outlives a restart past the idle time counted from the write (issue 19)', async t => {
  const scenarios = loadScenarios(BUNDLED_FIXTURES)
  const options = (id: string) => ({ scenario: 'default', now: TEST_NOW, seed: 7, sessionId: id, outboxCap: 10 })
  const dir = stateDir(t)
  let now = 1_000_000
  const make = async (): Promise<{ sessions: SessionStore; store: RecordingStore }> => {
    const { store: sqlite } = await openSqliteStore(dir)
    const store = new RecordingStore(sqlite)
    const sessions = new SessionStore(id => new World(scenarios.get('default')!.fixtures, options(id)), {
      maxSessions: 10, idleTimeoutMs: 60_000, journalCap: 5, now: () => now, store, restoreWorld: (id, data) => new World({ restore: data }, options(id))
    })
    return { sessions, store }
  }
  const first = await make()
  for (const id of ['read', 'unread']) {
    const session = first.sessions.get(id)
    session.world.ctx.state.customers.delete('cus_sam')
    await first.sessions.commit(session, true)
  }
  first.store.take()
  now += 50_000
  first.sessions.get('read')
  first.sessions.saveLastSeen()
  await new Promise(resolve => setImmediate(resolve))
  const touched = first.store.take()
  t.same(touched.map(change => [change.meta.id, change.meta.lastSeenMs, Object.keys(change.parts), change.rows.events.appended.length, change.rows.journal.appended.length]), [['read', now, [], 0, 0]],
    'one save, of the session read: its last-seen time, nothing else')
  first.sessions.saveLastSeen()
  await new Promise(resolve => setImmediate(resolve))
  t.same(first.store.take(), [], 'nothing again until it is read again')
  now += 1_000
  first.sessions.get('read')
  await first.sessions.close()
  t.same(first.store.take().map(change => change.meta.id), ['read'], 'close saves it too')

  now += 30_000
  const second = await make()
  t.equal(await second.sessions.restore(), 1, 'past the idle time since the writes, within it since the read')
  t.same(second.sessions.list().map(s => s.id), ['read'])
  t.notOk(second.sessions.peek('read')?.world.ctx.state.customers.has('cus_sam'), 'as written')
  await second.sessions.close()
})
