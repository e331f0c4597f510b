import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { openSqliteStore } from '../../src/world/stores/sqlite.js'
import { StoreUnavailableError, type SessionChange, type WorldStore } from '../../src/world/stores/store.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'

/** A real SQLite store that can be made to fail, as a full disk or a lock would make it. */
function failing (store: WorldStore): WorldStore & { failing: boolean; loadsFail: boolean; saves: number } {
  const wrapper = {
    failing: false,
    /** A full disk still reads: false makes only the writes fail. */
    loadsFail: true,
    saves: 0,
    kind: store.kind,
    location: store.location,
    persistent: store.persistent,
    shared: store.shared,
    list: () => store.list(),
    load: async (id: string) => {
      if (wrapper.failing && wrapper.loadsFail) throw new StoreUnavailableError('disk I/O error (SQLITE_IOERR)')
      return await store.load(id)
    },
    save: async (change: SessionChange) => {
      wrapper.saves++
      if (wrapper.failing) throw new StoreUnavailableError('database or disk is full (SQLITE_FULL)')
      return await store.save(change)
    },
    delete: async (id: string) => {
      if (wrapper.failing) throw new StoreUnavailableError('database is locked (SQLITE_BUSY)')
      return await store.delete(id)
    },
    expire: (idleSinceMs: number) => store.expire(idleSinceMs),
    close: () => store.close()
  }
  return wrapper
}

async function serve (t: Test, dir: string, store?: WorldStore) {
  const logged: string[] = []
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, stateDir: dir }), {
    logger: { level: 'info', stream: { write: (line: string) => { logged.push(line) } } },
    ...(store === undefined ? {} : { store })
  })
  let closed = false
  app.addHook('onClose', async () => { closed = true })
  t.teardown(async () => { if (!closed) await app.close() })
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await app.inject({
      method: method as 'GET', url, headers: { authorization: `Bearer ${TOKENS.maya}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) })
    })
    return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body === '' ? 'null' : res.body) }
  }
  return { app, call, logged }
}

const cardStatus = async (call: (method: string, url: string) => Promise<{ body: { debitCards: Array<{ id: string; status: string }> } }>): Promise<string | undefined> =>
  (await call('GET', '/__mock/state')).body.debitCards.find(c => c.id === 'card_maya_virtual')?.status

t.test('a store that fails: 503 store_unavailable with Retry-After, the write is not kept (not even in memory), and it recovers by itself', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-failing-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = failing((await openSqliteStore(dir)).store)
  const { app, call, logged } = await serve(t, dir, store)
  t.equal((await call('GET', '/baas/customers')).status, 200)

  store.failing = true
  const refused = await call('POST', '/baas/debit-cards/card_maya_virtual/lock')
  t.equal(refused.status, 503)
  t.match(refused.headers['content-type'], /^application\/problem\+json/)
  t.equal(refused.headers['retry-after'], '1')
  t.match(refused.body, { code: 'store_unavailable', status: 503, detail: /did not keep this request's changes/ })
  t.match(logged.join(''), /state store cannot write: database or disk is full \(SQLITE_FULL\)/, 'the log has the cause')
  t.equal((await call('POST', '/__mock/clock/advance', { by: 'P1D' })).status, 503, 'the control plane too')
  t.equal((await call('DELETE', '/__mock/sessions/default')).status, 503)

  const fresh = await app.inject({ method: 'POST', url: '/baas/debit-cards/card_maya_virtual/lock', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'fresh' } })
  t.equal(fresh.statusCode, 503, 'a new session whose first save fails')

  store.failing = false
  t.equal(await cardStatus(call), 'ACTIVE', 'the refused lock did not happen: the session was loaded again from the store')
  const freshState = await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'x-mock-session': 'fresh' } })
  t.match(freshState.body, /"id":"card_maya_virtual"[^}]*"status":"ACTIVE"/, 'starts over from the scenario, without the refused lock')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200, 'once the store works, writes work')
  await app.close()

  const { call: again } = await serve(t, dir)
  t.equal(await cardStatus(again), 'LOCKED', 'what was acknowledged is kept')
  t.equal((await again('GET', '/__mock/clock')).body.now, TEST_NOW.toISOString(), 'the refused advance is not')
})

t.test('a store that cannot write is an outage the process knows: /readyz says why, reads go on, one line when it begins and one when it ends', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-failing-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = failing((await openSqliteStore(dir)).store)
  const { app, call, logged } = await serve(t, dir, store)
  t.equal((await call('GET', '/readyz')).status, 200)
  // A session of its own for the reads, made before the outage: no refused write of it to read again.
  t.equal((await app.inject({ method: 'GET', url: '/baas/customers', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'reader' } })).statusCode, 200)
  await new Promise(resolve => setTimeout(resolve, 50))
  const before = logged.length

  store.failing = true
  store.loadsFail = false
  const answers: number[] = []
  for (let i = 0; i < 10; i++) {
    answers.push((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status)
    answers.push((await app.inject({ method: 'GET', url: '/baas/customers', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'reader' } })).statusCode)
  }
  t.same(answers.filter((_, i) => i % 2 === 0), Array(10).fill(503), 'every write answers 503')
  t.same(answers.filter((_, i) => i % 2 === 1), Array(10).fill(200), 'every read answers 200')
  const ready = await call('GET', '/readyz')
  t.equal(ready.status, 503, '/readyz: not ready while it cannot write')
  t.match(ready.body, { code: 'store_unavailable', detail: /cannot write: database or disk is full \(SQLITE_FULL\); reads go on/ })
  // Each answer's own request line aside (--log-requests), what the log says of the store.
  const during = logged.slice(before).filter(line => !line.includes('"msg":"request"'))
  t.equal(during.length, 1, `one line for the whole outage so far: ${during.join('')}`)
  t.match(during[0], /"level":40.*state store cannot write: database or disk is full \(SQLITE_FULL\)/)
  t.notMatch(during.join(''), /"stack"/, 'no stack')

  store.failing = false
  // The end is said once no write was refused for a second (OUTAGE_QUIET_MS): a store that flaps is one outage.
  await new Promise(resolve => setTimeout(resolve, 1100))
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200, 'writes work again')
  t.equal((await call('GET', '/readyz')).status, 200, 'and it is ready again')
  const after = logged.slice(before).filter(line => !line.includes('"msg":"request"'))
  t.equal(after.length, 2, 'one more line: the end')
  t.match(after[1], /state store can write again after \d+ s: (\d+) write\(s\) refused meanwhile/)
  t.ok(Number(/(\d+) write\(s\) refused/.exec(after[1] ?? '')?.[1]) >= 10, 'counting the refused writes')
})

t.test('a store that takes some writes and refuses others (a nearly full disk) is one outage: one line when it begins, one when none was refused for a second', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-failing-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = failing((await openSqliteStore(dir)).store)
  store.loadsFail = false
  const { call, logged } = await serve(t, dir, store)
  t.equal((await call('GET', '/baas/customers')).status, 200)
  await new Promise(resolve => setTimeout(resolve, 50))
  const before = logged.length
  const storeLines = (): string[] => logged.slice(before).filter(line => !line.includes('"msg":"request"'))
  const answers: number[] = []
  for (let i = 0; i < 6; i++) {
    store.failing = i % 2 === 0
    answers.push((await call('POST', '/__mock/clock/advance', { by: 'PT1S' })).status)
  }
  t.same(answers.filter((_, i) => i % 2 === 0), [503, 503, 503], 'refused writes answer 503')
  t.equal((await call('GET', '/readyz')).status, 200, 'ready while writes are taken')
  t.equal(storeLines().length, 1, `one line so far, however often it flapped: ${storeLines().join('')}`)
  await new Promise(resolve => setTimeout(resolve, 1100))
  t.equal((await call('POST', '/__mock/clock/advance', { by: 'PT1S' })).status, 200)
  t.equal(storeLines().length, 2, 'and one when it ended')
  t.match(storeLines()[1], /can write again after \d+ s: 3 write\(s\) refused meanwhile/)
})

t.test('with memory (no --state-dir) the store is never called: no serialisation on any request', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7 }), { logger: false })
  t.teardown(() => app.close())
  const { MemoryStore } = await import('../../src/world/stores/memory.js')
  let calls = 0
  for (const method of ['list', 'load', 'save', 'delete', 'expire'] as const) {
    const original = MemoryStore.prototype[method] as (...args: unknown[]) => unknown
    MemoryStore.prototype[method] = function (this: unknown, ...args: unknown[]) { calls++; return original.apply(this, args) } as never
    t.teardown(() => { MemoryStore.prototype[method] = original as never })
  }
  await app.inject({ method: 'POST', url: '/baas/debit-cards/card_maya_virtual/lock', headers: { authorization: `Bearer ${TOKENS.maya}` } })
  await app.inject({ method: 'GET', url: '/__mock/state' })
  await app.inject({ method: 'DELETE', url: '/__mock/sessions/default' })
  t.equal(calls, 0)
})
