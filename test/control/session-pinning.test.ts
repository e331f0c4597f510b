import { Writable } from 'node:stream'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { loggerOptions } from '../../src/transports/fastify/logger.js'
import { MAX_PINNED_SESSIONS, SessionStore, type DropReport } from '../../src/world/sessions.js'
import type { World } from '../../src/world/world.js'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'

const CREATED = 'x-mock-session-created'
const MAX_SESSIONS = 5
const FLOOD = 60

async function mayaCard (call: TestApp['call'], session: string): Promise<string> {
  const { body } = await call('GET', '/__mock/state', { session })
  return body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status
}

async function flood (call: TestApp['call']): Promise<void> {
  const statuses = new Set<number>()
  for (let i = 0; i < FLOOD; i++) statuses.add((await call('GET', '/baas/customers', { session: `flood-${i}` })).status)
  if (statuses.size !== 1 || !statuses.has(200)) throw new Error(`the flood was answered ${[...statuses].join(', ')}`)
}

t.test('a pinned session keeps its state through a flood of new sessions; an unpinned one is evicted and says so when it comes back', async t => {
  const { call } = await buildTestApp(t, { maxSessions: MAX_SESSIONS })
  const pinned = await call('POST', '/__mock/sessions/ci-pinned/pin')
  t.equal(pinned.status, 200)
  t.match(pinned.body, { id: 'ci-pinned', pinned: true, scenario: 'default' })
  t.equal(pinned.headers[CREATED], 'true', 'pinning made the session, and says so')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'ci-pinned' })).headers[CREATED], undefined, 'it was announced already')

  const first = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'ci-plain' })
  t.equal(first.status, 200)
  t.equal(first.headers[CREATED], 'true', 'the first answer of a session says it was made from the scenario')
  t.equal((await call('GET', '/baas/customers', { session: 'ci-plain' })).headers[CREATED], undefined, 'later answers do not')

  await flood(call)

  t.equal(await mayaCard(call, 'ci-pinned'), 'LOCKED', 'the pinned session kept its locked card')
  const back = await call('GET', '/baas/customers', { session: 'ci-plain' })
  t.equal(back.headers[CREATED], 'true', 'the evicted session says it was made anew')
  t.equal(await mayaCard(call, 'ci-plain'), 'ACTIVE', 'from the scenario: the lock is gone')

  const { body: listed } = await call('GET', '/__mock/sessions')
  t.ok(listed.sessions.length <= MAX_SESSIONS + 1, 'the unpinned sessions stay within the cap')
  t.match(listed.sessions.find((s: { id: string }) => s.id === 'ci-pinned'), { pinned: true })
  t.equal(listed.maxPinned, MAX_PINNED_SESSIONS)

  const unpinned = await call('DELETE', '/__mock/sessions/ci-pinned/pin')
  t.match(unpinned, { status: 200, body: { id: 'ci-pinned', pinned: false } })
  await flood(call)
  t.equal(await mayaCard(call, 'ci-pinned'), 'ACTIVE', 'once unpinned, it can be evicted like any other')
})

t.test('the control plane says when it made a session too', async t => {
  const { call } = await buildTestApp(t)
  t.equal((await call('GET', '/__mock/state', { session: 'cp-1' })).headers[CREATED], 'true')
  t.equal((await call('GET', '/__mock/state', { session: 'cp-1' })).headers[CREATED], undefined)
  t.equal((await call('GET', '/__mock/sessions')).headers[CREATED], undefined, 'listing sessions makes none')
  t.equal((await call('DELETE', '/__mock/sessions/cp-1')).status, 204)
  t.equal((await call('GET', '/__mock/requests', { session: 'cp-1' })).headers[CREATED], 'true', 'after a delete, the next call makes it anew')
})

t.test('pins are bounded; pinning twice is harmless; unknown sessions are 404', async t => {
  const { call } = await buildTestApp(t)
  for (let i = 0; i < MAX_PINNED_SESSIONS; i++) t.equal((await call('POST', `/__mock/sessions/pin-${i}/pin`)).status, 200)
  const again = await call('POST', '/__mock/sessions/pin-0/pin')
  t.match(again, { status: 200, body: { pinned: true } })
  t.equal(again.headers[CREATED], undefined)
  const over = await call('POST', '/__mock/sessions/one-too-many/pin')
  t.equal(over.status, 409)
  t.equal(over.body.code, 'too_many_pinned_sessions')
  t.match(over.body.detail, String(MAX_PINNED_SESSIONS))
  t.notOk((await call('GET', '/__mock/sessions')).body.sessions.some((s: { id: string }) => s.id === 'one-too-many'), 'a refused pin makes no session')
  t.equal((await call('DELETE', '/__mock/sessions/pin-3')).status, 204, 'deleting a pinned session frees its pin')
  t.equal((await call('POST', '/__mock/sessions/one-too-many/pin')).status, 200)
  t.equal((await call('DELETE', '/__mock/sessions/nobody/pin')).status, 404)
  t.equal((await call('POST', '/__mock/sessions/bad%20id/pin')).status, 400)
})

/** A stand-in world: the store never looks inside it. */
const world = (): World => ({ scenario: 'default' } as unknown as World)

t.test('the store: pinned sessions are neither evicted nor expired, and do not count against the cap', async t => {
  let now = 0
  const store = new SessionStore(world, { maxSessions: 2, idleTimeoutMs: 1000, journalCap: 5, now: () => now })
  store.pin('keep')
  store.get('a')
  store.get('b')
  t.same(store.list().map(s => s.id), ['keep', 'a', 'b'], 'two unpinned, the cap, plus the pinned one')
  store.get('c')
  t.same(store.list().map(s => s.id), ['keep', 'b', 'c'])
  now = 5000
  store.get('d')
  t.same(store.list().map(s => s.id), ['keep', 'd'], 'the idle ones expired; the pinned one did not')
  t.equal(store.pinned, 1)
  store.unpin('keep')
  now = 10_000
  store.get('e')
  t.same(store.list().map(s => s.id), ['e'])
  t.equal(store.unpin('gone'), undefined)
})

t.test('the store: evictions are reported in one batch per report, naming the first few', async t => {
  const reports: DropReport[] = []
  let now = 0
  const store = new SessionStore(world, { maxSessions: 3, idleTimeoutMs: 1000, journalCap: 5, now: () => now, onDropped: r => reports.push(r) })
  store.reportDrops()
  t.same(reports, [], 'nothing dropped, nothing said')
  for (let i = 0; i < 50; i++) store.get(`s-${i}`)
  t.same(reports, [], 'a flood is not reported session by session')
  store.reportDrops()
  t.same(reports, [{ evicted: 47, expired: 0, evictedIds: ['s-0', 's-1', 's-2', 's-3', 's-4'], size: 3 }])
  now = 5000
  store.sweep()
  store.reportDrops()
  t.same(reports[1], { evicted: 0, expired: 3, evictedIds: [], size: 0 })
  store.reportDrops()
  t.equal(reports.length, 2, 'each drop is reported once')
})

t.test('the server logs a flood\'s evictions in a line per sweep, naming the flag and the way out', async t => {
  const evictions: Array<Record<string, unknown> & { evicted: number }> = []
  let logged: () => void = () => {}
  const allLogged = new Promise<void>(resolve => { logged = resolve })
  const stream = new Writable({
    write (chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(line => line.includes('"evicted"'))) {
        evictions.push(JSON.parse(line) as Record<string, unknown> & { evicted: number })
        if (evictions.reduce((sum, e) => sum + e.evicted, 0) >= FLOOD - MAX_SESSIONS) logged()
      }
      done()
    }
  })
  // 10 s idle time: the sweeper, which reports, runs every second.
  const config = defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'info', maxSessions: MAX_SESSIONS, sessionIdleSeconds: 10 })
  const app = await buildApp(config, { logger: loggerOptions(config, stream) })
  t.teardown(() => app.close())
  for (let i = 0; i < FLOOD; i++) await app.inject({ method: 'GET', url: '/baas/customers', headers: { 'x-mock-session': `flood-${i}` } })
  // The sweeper's timer does not hold the process open; this guard does, and fails the test if no line comes.
  let guard: NodeJS.Timeout | undefined
  await Promise.race([allLogged, new Promise((_resolve, reject) => { guard = setTimeout(() => reject(new Error(`evictions logged: ${JSON.stringify(evictions)}`)), 10_000) })])
  clearTimeout(guard)
  // A line per sweep (every second here), not per session: the flood's evictions come in a batch or two.
  t.ok(evictions.length < (FLOOD - MAX_SESSIONS) / 5, `${evictions.length} line(s) for ${FLOOD - MAX_SESSIONS} evictions`)
  t.match(evictions[0], { level: 40, maxSessions: MAX_SESSIONS, evictedIds: ['flood-0', 'flood-1', 'flood-2', 'flood-3', 'flood-4'] })
  t.match(evictions[0]?.msg, /--max-sessions 5.*POST \/__mock\/sessions\/\{id\}\/pin/)
})
