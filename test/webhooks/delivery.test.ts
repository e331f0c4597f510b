import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { createMock, startServer } from '../../src/index.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'
import { Receiver, until, type Behaviour } from '../helpers/receiver.js'

// Short steps, so that retries happen within a test; the code is the same.
const FAST = { webhookRetrySchedule: [0, 20, 20], webhookTimeoutMs: 5000 }
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

interface Teardown { teardown: (fn: () => unknown) => void }

async function receiver (t: Teardown, behaviour?: Behaviour): Promise<Receiver> {
  const started = await Receiver.start(behaviour)
  t.teardown(() => started.close())
  return started
}

async function app (t: Teardown, overrides: Parameters<typeof buildTestApp>[1] = {}): Promise<TestApp> {
  return await buildTestApp(t, { ...FAST, ...overrides })
}

type Delivery = { id: string; status: string; eventId: string; attempts: Array<{ status?: number; error?: string; manual?: true }>; nextAttemptAt: string | null; failureReason?: string }

/** The session's only delivery once it has settled (SUCCEEDED or FAILED). */
async function settled (call: TestApp['call'], session = 'default', count = 1): Promise<Delivery[]> {
  return await until(async () => {
    const { data: deliveries } = (await call('GET', '/__mock/webhooks/deliveries', { session })).body as { data: Delivery[] }
    return deliveries.length === count && deliveries.every(d => d.status !== 'PENDING') ? deliveries : undefined
  }, `${count} settled deliveries in session ${session}`, 10_000, async () => (await call('GET', '/__mock/webhooks/deliveries', { session })).body)
}

const lock = async (call: TestApp['call'], session = 'default'): Promise<void> => {
  const { status } = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session })
  if (status !== 200) throw new Error(`lock answered ${status}`)
}

t.test('a delivery is the event, POSTed with Standard Webhooks headers that standardwebhooks verifies', async t => {
  const hooks = await receiver(t)
  const { call } = await app(t)
  const added = await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url, secret: SECRET } })
  t.equal(added.status, 201)
  t.match(added.body, { id: /^ep_/, url: hooks.url, events: null, secret: SECRET })
  await lock(call)
  const [request] = await hooks.next(1)
  const payload = new Webhook(SECRET).verify(request?.body ?? '', request?.headers ?? {}) as Record<string, unknown>
  const [event] = (await call('GET', '/__mock/webhooks/events')).body.data
  t.same(payload, { type: 'card.locked', timestamp: event.timestamp, data: event.data, previousAttributes: event.previousAttributes }, 'the payload is the event')
  t.equal(request?.headers['webhook-id'], event.id)
  t.equal(request?.headers['content-type'], 'application/json')
  t.ok(Math.abs(Number(request?.headers['webhook-timestamp']) - Date.now() / 1000) < 300, 'webhook-timestamp is real Unix seconds, as receivers check it against their own clock')
  t.throws(() => new Webhook('whsec_' + Buffer.from('another secret, 24 bytes!').toString('base64')).verify(request?.body ?? '', request?.headers ?? {}), 'another secret does not verify')
  const [delivery] = await settled(call)
  t.match(delivery, { status: 'SUCCEEDED', eventId: event.id, attempts: [{ status: 200 }], nextAttemptAt: null })
})

t.test('a 500 is retried on the schedule with the same webhook-id, until a 2xx', async t => {
  const hooks = await receiver(t, n => (n < 2 ? 500 : 204))
  const { call } = await app(t)
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url, secret: SECRET } })
  await lock(call)
  const requests = await hooks.next(3)
  t.same(new Set(requests.map(r => r.headers['webhook-id'])).size, 1, 'one webhook-id for every attempt')
  for (const request of requests) t.ok(new Webhook(SECRET).verify(request.body, request.headers), 'each attempt is signed anew, and verifies')
  const [delivery] = await settled(call)
  t.same(delivery?.attempts.map(a => a.status), [500, 500, 204])
  t.equal(delivery?.status, 'SUCCEEDED')
})

t.test('a time-out and a refused connection are retried too; after the last attempt the delivery has FAILED', async t => {
  const hooks = await receiver(t, n => (n === 0 ? 'hang' : 200))
  // More attempts than needed: on a loaded machine an answer may come late, and a late one is a time-out too.
  const { call } = await app(t, { webhookTimeoutMs: 500, webhookRetrySchedule: [0, 20, 20, 20, 20, 20] })
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url } })
  await lock(call)
  const [timedOut] = await settled(call)
  t.match(timedOut?.attempts[0], { error: 'timed out after 500 ms' }, 'the receiver that never answered timed out')
  t.match(timedOut?.attempts.at(-1), { status: 200 })
  t.equal(timedOut?.status, 'SUCCEEDED')
  await until(async () => hooks.open === 0, 'the timed-out request to be closed')

  // Port 2 on loopback: nothing listens there (an ephemeral port just closed may be taken by another test meanwhile).
  const gone = 'http://127.0.0.1:2/hooks'
  const other = await app(t)
  await other.call('POST', '/__mock/webhooks/endpoints', { body: { url: gone } })
  await lock(other.call)
  const [refused] = await settled(other.call)
  t.equal(refused?.status, 'FAILED')
  t.equal(refused?.attempts.length, 3, 'as many attempts as the schedule has')
  t.match(refused?.attempts[0]?.error, /refused/)
})

t.test('a slow receiver never slows an API answer: the write is answered while its delivery hangs', async t => {
  const hooks = await receiver(t, () => 'hang')
  const { call } = await app(t, { webhookTimeoutMs: 60_000 })
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url } })
  await lock(call)
  await hooks.next(1)
  t.equal((await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })).status, 200, 'answered while the first delivery is still hanging')
  await hooks.next(2)
  t.equal(hooks.open, 2)
  t.match((await call('GET', '/__mock/webhooks/deliveries')).body.data, [{ status: 'PENDING', attempts: [] }, { status: 'PENDING', attempts: [] }])
})

t.test('a receiver that never answers ties up at most 16 sockets, 4 of them for one session', async t => {
  const hooks = await receiver(t, () => 'hang')
  const { call } = await app(t, { webhookTimeoutMs: 60_000 })
  const sessions = ['s1', 's2', 's3', 's4', 's5']
  for (const session of sessions) {
    await call('POST', '/__mock/webhooks/endpoints', { session, body: { url: `${hooks.url}/${session}` } })
    for (let i = 0; i < 3; i++) {
      await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session })
      await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya, session })
    }
  }
  await hooks.next(16)
  const { data: deliveries } = (await call('GET', '/__mock/webhooks/deliveries', { session: 's1' })).body as { data: Delivery[] }
  t.equal(deliveries.length, 6)
  t.equal(deliveries.filter(d => d.status === 'PENDING').length, 6, 'the others wait their turn')
  t.equal(hooks.maxOpen, 16, 'never more than 16 requests open at once')
  for (const session of sessions) t.ok(hooks.received.filter(r => r.path.endsWith(session)).length <= 4, `at most 4 of session ${session}`)
})

t.test('one session flooding a slow receiver neither drops nor holds up another session\'s delivery; its own new ones are refused, visibly', async t => {
  // The audit's shape: a healthy receiver, slow for the flooding session (here it never answers it).
  const hooks = await receiver(t, (_n, path) => path.endsWith('/flood') ? 'hang' : 204)
  const { call } = await app(t, { webhookTimeoutMs: 60_000 })
  await call('POST', '/__mock/webhooks/endpoints', { session: 'flood', body: { url: `${hooks.url}/flood` } })
  await call('POST', '/__mock/webhooks/endpoints', { session: 'quiet', body: { url: `${hooks.url}/quiet` } })
  const share = 200
  for (let i = 0; i < share / 2 + 5; i++) {
    await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'flood' })
    await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya, session: 'flood' })
  }
  await lock(call, 'quiet')
  const [delivered] = await settled(call, 'quiet')
  t.match(delivered, { status: 'SUCCEEDED', attempts: [{ status: 204 }] }, 'the other session\'s delivery went out')
  const flood = (await call('GET', '/__mock/webhooks/deliveries?status=FAILED', { session: 'flood' })).body as { dropped: number; data: Delivery[] }
  t.equal(flood.data.length, 10, 'past its share, the flooding session\'s new deliveries were refused')
  t.match(flood.data[0], { attempts: [], failureReason: /^refused: session flood has 200 deliveries waiting, its share of the webhook queue/ })
  t.equal(flood.dropped, 10, 'and counted')
  t.equal((await call('GET', '/__mock/webhooks/deliveries?status=PENDING&limit=500', { session: 'flood' })).body.data.length, share, 'its share still waits')
})

t.test('events reach the endpoints that want them, in mock-time order, and only their own session\'s', async t => {
  const hooks = await receiver(t)
  const locks = await receiver(t)
  const { call } = await app(t)
  const everything = (await call('POST', '/__mock/webhooks/endpoints', { session: 'a', body: { url: hooks.url } })).body
  await call('POST', '/__mock/webhooks/endpoints', { session: 'a', body: { url: locks.url, events: ['card.locked'] } })
  await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, session: 'a', body: { shippingMethod: 'EXPRESS' } })
  await call('POST', '/__mock/clock/advance', { session: 'a', body: { by: 'P3D' } })
  await lock(call, 'a')
  await lock(call, 'b')
  const events = (await call('GET', '/__mock/webhooks/events?order=asc', { session: 'a' })).body.data as Array<{ id: string; type: string; timestamp: string }>
  t.same(events.map(e => e.type).filter(type => type !== 'card.delivered' && type !== 'card.activated'), ['card.created', 'card.shipped', 'card.locked'],
    'the order, the shipment, deliveries (Jordan\'s card, and Sam\'s fixture replacement) and the lock')
  t.same(events.map(e => e.timestamp), [...events.map(e => e.timestamp)].sort(), 'in mock-time order')
  const all = await hooks.next(events.length)
  t.same(new Set(all.map(r => r.headers['webhook-id'])), new Set(events.map(e => e.id)), 'every event of session a, none of b')
  const { data: deliveries } = (await call('GET', `/__mock/webhooks/deliveries?endpoint=${everything.id as string}`, { session: 'a' })).body as { data: Delivery[] }
  t.same(deliveries.map(d => d.eventId).reverse(), events.map(e => e.id), 'a delivery per event, made in the events\' order')
  const [onlyLocks] = await locks.next(1)
  t.equal(JSON.parse(onlyLocks?.body ?? '{}').type, 'card.locked')
  await settled(call, 'a', events.length + 1)
  t.equal(locks.received.length, 1, 'an endpoint subscribed to card.locked gets nothing else')
  t.same((await call('GET', '/__mock/webhooks/deliveries', { session: 'b' })).body.data, [], 'session b has no endpoint')
})

t.test('a failed delivery is sent again by hand, with the same webhook-id', async t => {
  let failing = true
  const hooks = await receiver(t, () => (failing ? 503 : 200))
  const { call } = await app(t)
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url } })
  await lock(call)
  const [failed] = await settled(call)
  t.equal(failed?.status, 'FAILED')
  failing = false
  const retried = await call('POST', `/__mock/webhooks/deliveries/${failed?.id ?? ''}/retry`)
  t.equal(retried.status, 202)
  t.match(retried.body, { id: failed?.id, status: 'PENDING' })
  const [again] = await settled(call)
  t.match(again, { status: 'SUCCEEDED', attempts: [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, manual: true }] })
  const ids = new Set(hooks.received.map(r => r.headers['webhook-id']))
  t.equal(ids.size, 1)
  t.equal((await call('POST', '/__mock/webhooks/deliveries/dlv_nope/retry')).status, 404)
})

t.test('retries by hand stop at the 20 attempts the docs state: past them, 409 too_many_webhook_attempts', async t => {
  const hooks = await receiver(t, () => 503)
  const { call } = await app(t, { webhookRetrySchedule: [0] })
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url } })
  await lock(call)
  let [delivery] = await settled(call)
  for (let attempt = 2; attempt <= 20; attempt++) {
    t.equal((await call('POST', `/__mock/webhooks/deliveries/${delivery?.id ?? ''}/retry`)).status, 202)
    delivery = (await until(async () => {
      const [listed] = (await call('GET', '/__mock/webhooks/deliveries')).body.data as Delivery[]
      return listed?.status === 'FAILED' && listed.attempts.length === attempt ? listed : undefined
    }, `attempt ${attempt}`))
  }
  const refused = await call('POST', `/__mock/webhooks/deliveries/${delivery?.id ?? ''}/retry`)
  t.match(refused, { status: 409, body: { code: 'too_many_webhook_attempts', detail: /20 attempts/ } })
  t.equal(hooks.received.length, 20, 'nothing more was sent')
})

t.test('endpoint CRUD: the errors name the field, and a deleted endpoint gets nothing more', async t => {
  const hooks = await receiver(t)
  const { call } = await app(t)
  const bad = async (body: unknown): Promise<unknown> => (await call('POST', '/__mock/webhooks/endpoints', { body })).body
  t.match(await bad({ url: 'ftp://example.com/x' }), { status: 400, code: 'invalid_webhook_url', errors: [{ pointer: '/url' }] })
  t.match(await bad({ url: 'file:///etc/passwd' }), { code: 'invalid_webhook_url' })
  t.match(await bad({ url: 'not a url' }), { code: 'invalid_webhook_url' })
  const withPassword = await bad({ url: 'http://ops:hunter2@127.0.0.1:2/hooks' })
  t.match(withPassword, { status: 400, code: 'invalid_webhook_url', errors: [{ pointer: '/url', message: /must not carry credentials/ }] })
  t.notMatch(JSON.stringify(withPassword), /hunter2/, 'the password is not repeated')
  t.match(await bad({ url: 'http://ops@127.0.0.1:2/hooks' }), { code: 'invalid_webhook_url', errors: [{ pointer: '/url' }] }, 'a user name alone neither')
  t.match(await bad({ url: hooks.url, secret: 'hunter2' }), { code: 'invalid_webhook_secret', errors: [{ pointer: '/secret' }] })
  t.match(await bad({ url: hooks.url, events: ['card.locked', 'card.lockd'] }), { code: 'unknown_event_type', errors: [{ pointer: '/events/1', message: /did you mean card\.locked/ }] })
  t.match(await bad({ url: hooks.url, colour: 'red' }), { status: 400, errors: [{ pointer: '/colour' }] })
  t.same((await call('GET', '/__mock/webhooks/endpoints')).body.endpoints, [], 'none of them was added')

  const made = []
  for (let i = 0; i < 10; i++) made.push((await call('POST', '/__mock/webhooks/endpoints', { body: { url: `${hooks.url}/${i}` } })).body)
  t.match(await bad({ url: hooks.url }), { status: 409, code: 'too_many_webhook_endpoints' })
  t.match((await call('GET', `/__mock/webhooks/endpoints/${made[3].id as string}`)).body, made[3])
  t.equal((await call('GET', '/__mock/webhooks/endpoints/ep_nope')).status, 404)
  for (const endpoint of made.slice(1)) t.equal((await call('DELETE', `/__mock/webhooks/endpoints/${endpoint.id as string}`)).status, 204)
  t.equal((await call('DELETE', `/__mock/webhooks/endpoints/${made[1].id as string}`)).status, 404)
  t.same((await call('GET', '/__mock/webhooks/endpoints')).body.endpoints.map((e: { id: string }) => e.id), [made[0].id])
  await lock(call)
  await settled(call)
  t.same(hooks.received.map(r => r.path), ['/hooks/0'], 'one delivery, to the endpoint left')
})

t.test('--webhook-url gives every session an endpoint; its secret is generated once and shown to the control plane', async t => {
  const hooks = await receiver(t)
  const { call } = await app(t, { webhookUrl: hooks.url })
  const [endpoint] = (await call('GET', '/__mock/webhooks/endpoints')).body.endpoints
  t.match(endpoint, { id: 'ep_configured', url: hooks.url, events: null, secret: /^whsec_[A-Za-z0-9+/]{32}$/ })
  t.equal((await call('GET', '/__mock/webhooks/endpoints', { session: 'other' })).body.endpoints[0].secret, endpoint.secret, 'the same secret in every session')
  await lock(call, 'other')
  const [request] = await hooks.next(1)
  t.ok(new Webhook(endpoint.secret as string).verify(request?.body ?? '', request?.headers ?? {}))
  t.equal((await call('DELETE', '/__mock/webhooks/endpoints/ep_configured')).status, 204, 'a session may remove it')
})

t.test('a fixture\'s reshaped body is what is sent, verbatim and signed', async t => {
  const dir = t.testdir()
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  writeFileSync(join(dir, 'events.yaml'), 'card.locked:\n  type: CARD_FROZEN\n  body: { event: CARD_FROZEN, card: "{{data.id}}" }\ncard.unlocked:\n  silent: true\n')
  const hooks = await receiver(t)
  const { call } = await app(t, { fixturesDir: dir })
  await call('POST', '/__mock/webhooks/endpoints', { body: { url: hooks.url, secret: SECRET, events: ['CARD_FROZEN', 'card.unlocked'] } })
  await lock(call)
  await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  const [request] = await hooks.next(1)
  t.equal(request?.body, '{"event":"CARD_FROZEN","card":"card_maya_virtual"}')
  t.same(new Webhook(SECRET).verify(request?.body ?? '', request?.headers ?? {}), { event: 'CARD_FROZEN', card: 'card_maya_virtual' })
  await settled(call)
  t.equal(hooks.received.length, 1, 'the silenced event is not sent')
})

t.test('through mock.fetch: the same deliveries, and close() stops a hanging one', async t => {
  const hooks = await receiver(t, n => (n === 0 ? 200 : 'hang'))
  const mock = await createMock({ seed: 7, now: '2026-11-23T15:00:00Z', webhookRetrySchedule: '0,20ms', webhookTimeoutMs: 60_000 })
  const session = mock.session('in-process')
  const endpoint = await session.webhooks.endpoints.add({ url: hooks.url, secret: SECRET })
  t.same(await session.webhooks.endpoints.list(), [endpoint])
  const headers = { authorization: 'Bearer tok_maya', 'x-mock-session': 'in-process' }
  await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers })
  const [request] = await hooks.next(1)
  t.match(new Webhook(SECRET).verify(request?.body ?? '', request?.headers ?? {}), { type: 'card.locked' })
  await mock.fetch('/baas/debit-cards/card_maya_virtual/unlock', { method: 'PUT', headers })
  await hooks.next(2)
  t.match(await session.webhooks.deliveries(), [{ status: 'PENDING', eventType: 'card.unlocked' }, { status: 'SUCCEEDED', eventType: 'card.locked' }])
  await mock.close()
  await until(async () => hooks.open === 0, 'the hanging request to be closed')
  t.pass('close() aborted the hanging request')
  await t.rejects(mock.fetch('/baas/customers'), 'the mock answers nothing after')
})

t.test('closing the server stops its deliveries: a request hanging on a receiver is aborted at once', async t => {
  const hooks = await receiver(t, () => 'hang')
  const server = await startServer({ webhookUrl: hooks.url, webhookTimeoutMs: 60_000 })
  const locked = await fetch(`${server.url}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  t.equal(locked.status, 200)
  await hooks.next(1)
  await server.close()
  await until(async () => hooks.open === 0, 'the hanging delivery to be aborted', 5000)
  t.pass('aborted, not left to its 60 s time-out')
})
