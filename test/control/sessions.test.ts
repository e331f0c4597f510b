import t from 'tap'
import { SessionStore } from '../../src/world/sessions.js'
import type { World } from '../../src/world/world.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

t.test('sessions are isolated: state, outbox, journal and faults', async t => {
  const { call } = await buildTestApp(t)
  const locked = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'test-a' })
  t.equal(locked.body.status, 'LOCKED')
  await call('POST', '/__mock/faults', { session: 'test-a', body: { operation: 'getCustomer', status: 503 } })

  const inB = await call('GET', '/__mock/state', { session: 'test-b' })
  t.equal(inB.body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'test-b starts from the fixtures')
  t.equal((await call('GET', '/baas/customers', { session: 'test-b' })).status, 200, 'test-a\'s fault does not reach test-b')
  t.equal((await call('GET', '/baas/customers', { session: 'test-a' })).status, 503)
  const journalB = await call('GET', '/__mock/requests', { session: 'test-b' })
  t.same(journalB.body.data.map((r: { operationId: string }) => r.operationId), ['getCustomer'])
  const inDefault = await call('GET', '/__mock/state')
  t.equal(inDefault.body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'no header: the default session')
})

t.test('GET /__mock/sessions lists sessions most recent first; DELETE drops one', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan, session: 'ci-1', body: {} })
  await call('GET', '/baas/customers', { session: 'ci-2' })
  await call('POST', '/__mock/faults', { session: 'ci-2', body: { delay: 1 } })
  const list = await call('GET', '/__mock/sessions')
  t.equal(list.status, 200)
  t.equal(list.body.maxSessions, 1000)
  t.equal(list.body.idleTimeoutSeconds, 3600)
  t.same(list.body.sessions.map((s: { id: string }) => s.id), ['ci-2', 'ci-1'], 'listing does not create or touch a session')
  t.match(list.body.sessions[0], { id: 'ci-2', scenario: 'default', now: '2026-11-23T15:00:00.000Z', journalSize: 1, outboxSize: 0, faults: 1 })
  t.match(list.body.sessions[1], { id: 'ci-1', journalSize: 1, outboxSize: 1, faults: 0 })
  t.match(list.body.sessions[0].lastSeen, /^\d{4}-\d\d-\d\dT/)

  t.equal((await call('DELETE', '/__mock/sessions/ci-1')).status, 204)
  const after = await call('GET', '/__mock/sessions')
  t.same(after.body.sessions.map((s: { id: string }) => s.id), ['ci-2'])
  const again = await call('DELETE', '/__mock/sessions/ci-1')
  t.equal(again.status, 404)
  t.equal(again.body.code, 'session_not_found')
  t.equal((await call('DELETE', '/__mock/sessions/bad%20id')).status, 400)
  const fresh = await call('GET', '/__mock/outbox', { session: 'ci-1' })
  t.same(fresh.body.data, [], 'a dropped session comes back fresh')
})

t.test('an invalid session id is a 400 problem', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/baas/customers', { session: 'no spaces allowed' })
  t.equal(res.status, 400)
  t.equal(res.body.code, 'invalid_session_id')
})

t.test('the session cap evicts the least recently used; idle sessions expire; default stays', async t => {
  let now = 0
  const made: string[] = []
  const store = new SessionStore((id): World => { made.push(id); return { scenario: 'default' } as unknown as World }, { maxSessions: 2, idleTimeoutMs: 1000, journalCap: 5, now: () => now })
  store.get('default')
  store.get('a')
  store.get('default')
  store.get('b')
  t.same(store.list().map(s => s.id), ['default', 'b'], '"a" was least recently used')
  now = 5000
  store.get('c')
  t.same(store.list().map(s => s.id).sort(), ['c', 'default'], 'idle "b" expired; default is never dropped')
  t.same(made, ['default', 'a', 'b', 'c'])
  const reset = store.reset('c', 'other')
  t.equal(reset.faults.size, 0)
  t.equal(store.maxSessions, 2)
  t.equal(store.idleTimeoutMs, 1000)
})

t.test('a run of requests from one session keeps it the most recent, and its idle time fresh', async t => {
  let now = 0
  const store = new SessionStore((): World => ({ scenario: 'default' } as unknown as World), { maxSessions: 3, idleTimeoutMs: 1000, journalCap: 5, now: () => now })
  for (const id of ['a', 'b', 'b', 'b', 'a', 'a']) store.get(id)
  t.same(store.list().map(s => s.id), ['b', 'a'])
  now = 900
  store.get('a')
  now = 1500
  store.get('a')
  t.same(store.list().map(s => s.id), ['a'], '"b" idled out while "a" kept being used')
  store.delete('a')
  t.not(store.get('a').createdMs, 0, 'a deleted session comes back new')
})

t.test('the cap and idle timeout come from the configuration', async t => {
  const { call } = await buildTestApp(t, { maxSessions: 2, sessionIdleSeconds: 60 })
  for (const id of ['one', 'two', 'three']) await call('GET', '/baas/customers', { session: id })
  const list = await call('GET', '/__mock/sessions')
  t.equal(list.body.maxSessions, 2)
  t.equal(list.body.idleTimeoutSeconds, 60)
  t.same(list.body.sessions.map((s: { id: string }) => s.id), ['three', 'two'])
})
