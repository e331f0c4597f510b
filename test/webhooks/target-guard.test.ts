import t from 'tap'
import { loadConfig } from '../../src/config/config-loader.js'
import { createMock } from '../../src/index.js'
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'
import { pinnedFetch } from '../../src/webhooks/pinned-send.js'
import { blockedKind, targetGuard, type Lookup } from '../../src/webhooks/target-guard.js'
import type { Delivery, DeliveryJob } from '../../src/world/deliveries.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'
import { Receiver, until } from '../helpers/receiver.js'

// With the control plane open to a network (--admin-token none off loopback), webhooks must not be
// a way to probe the mock's network. No test here reaches anything but loopback: names resolve
// through a lookup of the test's own, and every refusal comes before a connection.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** Every way of writing an address fetch would reach inside, with what it is. */
const DISGUISES: Array<[string, RegExp]> = [
  ['http://2130706433:4950/hooks', /loopback address \(127\.0\.0\.1\)/],
  ['http://0x7f000001:4950/', /loopback/],
  ['http://0x7f.1/', /loopback/],
  ['http://0177.0.0.1/', /loopback/],
  ['http://127.1/', /loopback/],
  ['http://[::1]:4950/', /loopback/],
  ['http://[::ffff:127.0.0.1]/', /loopback/],
  ['http://[::ffff:7f00:1]/', /loopback/],
  ['http://localhost:4950/', /a loopback name/],
  ['http://LOCALHOST./', /a loopback name/],
  ['http://app.localhost/', /a loopback name/],
  ['http://10.1.2.3/', /private address/],
  ['http://172.16.0.9/', /private/],
  ['http://192.168.1.1/', /private/],
  ['http://[::ffff:192.168.1.1]/', /private/],
  ['http://3232235777/', /private address \(192\.168\.1\.1\)/],
  ['http://[fd00::1]/', /private/],
  ['http://169.254.169.254/latest/meta-data', /link-local/],
  ['http://[fe80::1]/', /link-local/],
  ['http://0.0.0.0:4950/', /reserved/],
  ['http://0/', /reserved/],
  ['http://[::]/', /reserved/],
  ['http://[64:ff9b::7f00:1]/', /reserved/]
]

t.test('every disguise of a loopback, private or link-local address is refused from the URL alone', async t => {
  const guard = targetGuard({ lookup: async () => { throw new Error('no name should be resolved for an address') } })
  for (const [url, why] of DISGUISES) {
    t.match(guard.literal(url), why, url)
    t.match(await guard.check(url), why, `${url}, again before an attempt`)
  }
  for (const url of ['http://93.184.216.34/', 'https://[2606:4700::1111]/hooks', 'https://backend.example.com/hooks']) t.equal(guard.literal(url), undefined, `${url} may be an endpoint`)
  t.equal(blockedKind('not an address'), undefined)
  t.equal(guard.literal('not a URL'), undefined, 'a URL that does not parse is refused elsewhere, as invalid_webhook_url')
})

t.test('a name is resolved before each attempt: one that points inside, now or after a rebinding, is refused', async t => {
  const answers: Record<string, string[]> = { 'rebind.example': ['93.184.216.34'], 'mixed.example': ['93.184.216.34', '10.0.0.7'], 'public.example': ['93.184.216.34'] }
  const lookup: Lookup = async host => {
    const found = answers[host]
    if (found === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return found
  }
  const guard = targetGuard({ lookup, trusted: 'http://backend:3000/hooks' })
  t.equal(guard.literal('http://rebind.example/hooks'), undefined, 'a name passes as the endpoint is added')
  t.equal(await guard.check('http://rebind.example/hooks'), undefined, 'and while it points outside')
  answers['rebind.example'] = ['127.0.0.1']
  t.match(await guard.check('http://rebind.example/hooks'), /is a name for a loopback address \(127\.0\.0\.1\)/, 'rebound to loopback: refused')
  t.match(await guard.check('http://mixed.example/hooks'), /private address \(10\.0\.0\.7\)/, 'one address inside among others is enough')
  t.equal(await guard.check('http://public.example/hooks'), undefined)
  t.match(await guard.check('http://nowhere.example/hooks'), /nowhere\.example did not resolve \(ENOTFOUND\)/)
  t.equal(await guard.check('http://backend:3000/hooks'), undefined, 'the operator\'s own --webhook-url goes wherever it points')
  t.equal(guard.literal('http://backend:3000/hooks'), undefined)
})

t.test('the dispatcher refuses before connecting: the receiver on loopback hears nothing, the attempt says why', async t => {
  const receiver = await Receiver.start()
  t.teardown(() => receiver.close())
  const port = new URL(receiver.url).port
  const connected: string[] = []
  const fetch = (async (url: string) => { connected.push(url); return new Response(null, { status: 204 }) }) as unknown as typeof globalThis.fetch
  const guard = targetGuard({ lookup: async () => ['127.0.0.1'] })
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0], timeoutMs: 60_000, maxPending: 10, maxPendingPerSession: 10, maxInFlight: 4, maxInFlightPerSession: 4, fetch, checkTarget: guard.check })
  const delivery: Delivery = { id: 'dlv_r', eventId: 'evt_r', eventType: 'card.locked', endpointId: 'ep_r', url: `http://rebind.example:${port}/hooks`, status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: new Date().toISOString() }
  const job: DeliveryJob = { delivery, session: 'default', payload: '{}', secret: () => SECRET, changed: () => {} }
  dispatcher.schedule(job, 0)
  await dispatcher.drained()
  t.same(connected, [])
  t.equal(receiver.received.length, 0)
  t.match(delivery, { status: 'FAILED', attempts: [{ error: /rebind\.example.*is a name for a loopback address \(127\.0\.0\.1\).*--webhook-allow-private/ }] })
  t.notOk('status' in (delivery.attempts[0] ?? {}), 'no status: nothing answered')
  await dispatcher.close()
})

t.test('the address vetted is the address connected to: a name rebound between the check and the connection is refused', async t => {
  const receiver = await Receiver.start()
  t.teardown(() => receiver.close())
  const port = new URL(receiver.url).port
  // Public when the guard checks, loopback when the connection resolves it: what a short-TTL rebinding does.
  let lookups = 0
  const guard = targetGuard({ lookup: async () => (++lookups === 1 ? ['93.184.216.34'] : ['127.0.0.1']) })
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0], timeoutMs: 60_000, maxPending: 10, maxPendingPerSession: 10, maxInFlight: 4, maxInFlightPerSession: 4, fetch: guard.send, checkTarget: guard.check })
  t.teardown(() => dispatcher.close())
  const delivery: Delivery = { id: 'dlv_f', eventId: 'evt_f', eventType: 'card.locked', endpointId: 'ep_f', url: `http://flip.example:${port}/hooks`, status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: new Date().toISOString() }
  dispatcher.schedule({ delivery, session: 'default', payload: '{}', secret: () => SECRET, changed: () => {} }, 0)
  await dispatcher.drained()
  t.equal(lookups, 2, 'checked, then resolved again to connect')
  t.equal(receiver.received.length, 0, 'the receiver on loopback heard nothing')
  t.match(delivery.attempts, [{ error: /flip\.example is a name for a loopback address \(127\.0\.0\.1\)/ }])
})

t.test('through the guard\'s connections, a name that stays public is delivered as fetch would: signed, the status recorded', async t => {
  const receiver = await Receiver.start((n, path) => (path === '/slow' ? 'hang' : n === 0 ? 503 : 200))
  t.teardown(() => receiver.close())
  const port = new URL(receiver.url).port
  // Only the connection's lookup reaches the receiver: the test's "public" name is loopback here, vetted by a guard of its own.
  const send = pinnedFetch((host, options, callback) => {
    if (host !== 'receiver.example') callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), '', 0)
    else if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }])
    else callback(null, '127.0.0.1', 4)
  })
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0, 0], timeoutMs: 60_000, maxPending: 10, maxPendingPerSession: 10, maxInFlight: 4, maxInFlightPerSession: 4, fetch: send })
  t.teardown(() => dispatcher.close())
  const delivered: Delivery = { id: 'dlv_p', eventId: 'evt_p', eventType: 'card.locked', endpointId: 'ep_p', url: `http://receiver.example:${port}/hooks`, status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: new Date().toISOString() }
  const unknown: Delivery = { ...delivered, id: 'dlv_u', attempts: [], url: 'http://nowhere.example/hooks' }
  const slow: Delivery = { ...delivered, id: 'dlv_s', attempts: [], url: `http://receiver.example:${port}/slow` }
  for (const delivery of [delivered, unknown]) dispatcher.schedule({ delivery, session: 'default', payload: '{"type":"card.locked"}', secret: () => SECRET, changed: () => {} }, 0)
  await dispatcher.drained()
  t.match(delivered, { status: 'SUCCEEDED', attempts: [{ status: 503 }, { status: 200 }] })
  t.match(receiver.received[1], { path: '/hooks', body: '{"type":"card.locked"}', headers: { 'webhook-id': 'evt_p', 'content-type': 'application/json' } })
  t.match(receiver.received[1]?.headers['webhook-signature'], /^v1,/)
  t.match(unknown, { status: 'FAILED', attempts: [{ error: 'ENOTFOUND' }, { error: 'ENOTFOUND' }] })
  const impatient = new WebhookDispatcher({ retrySchedule: [0], timeoutMs: 100, maxPending: 10, maxPendingPerSession: 10, maxInFlight: 4, maxInFlightPerSession: 4, fetch: send })
  t.teardown(() => impatient.close())
  impatient.schedule({ delivery: slow, session: 'default', payload: '{}', secret: () => SECRET, changed: () => {} }, 0)
  await impatient.drained()
  t.match(slow, { status: 'FAILED', attempts: [{ error: 'timed out after 100 ms' }] }, 'the time-out still ends an attempt that never answers')
})

t.test('an open control plane off loopback refuses those endpoints (400 webhook_url_not_allowed at /url); a public one is added', async t => {
  const { call } = await buildTestApp(t, { host: '0.0.0.0', adminToken: 'none' })
  for (const [url, why] of DISGUISES) {
    const added = await call('POST', '/__mock/webhooks/endpoints', { body: { url } })
    t.match(added, { status: 400, body: { code: 'webhook_url_not_allowed', errors: [{ pointer: '/url', message: why }] } }, url)
  }
  t.equal((await call('POST', '/__mock/webhooks/endpoints', { body: { url: 'https://backend.example.com/hooks' } })).status, 201)
  t.same((await call('GET', '/__mock/webhooks/endpoints')).body.endpoints.map((e: { url: string }) => e.url), ['https://backend.example.com/hooks'], 'nothing else was added')
})

t.test('local receivers keep working: on the loopback mock, behind a token, with --webhook-allow-private, and at the operator\'s --webhook-url', async t => {
  const receiver = await Receiver.start()
  t.teardown(() => receiver.close())
  const setups = [
    { name: 'the default loopback mock, open', config: {} },
    { name: 'loopback, --admin-token none', config: { adminToken: 'none' } },
    { name: '0.0.0.0 behind a token', config: { host: '0.0.0.0', adminToken: 'change-me' }, headers: { 'x-mock-admin-token': 'change-me' } },
    { name: '0.0.0.0, open, with --webhook-allow-private', config: { host: '0.0.0.0', adminToken: 'none', webhookAllowPrivate: true } }
  ]
  for (const [i, setup] of setups.entries()) {
    const { call } = await buildTestApp(t, { ...setup.config, webhookRetrySchedule: [0] })
    const headers = setup.headers ?? {}
    t.equal((await call('POST', '/__mock/webhooks/endpoints', { headers, body: { url: `${receiver.url}/${i}` } })).status, 201, setup.name)
    t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers, token: TOKENS.maya })).status, 200)
    await receiver.next(i + 1)
    t.equal(receiver.received.at(-1)?.path, `/hooks/${i}`, `${setup.name}: delivered`)
  }
  // The operator's own URL is theirs to point inside, whatever the control plane.
  const { call } = await buildTestApp(t, { host: '0.0.0.0', adminToken: 'none', webhookUrl: `${receiver.url}/configured`, webhookRetrySchedule: [0] })
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })).status, 200)
  await until(async () => receiver.received.some(r => r.path === '/hooks/configured'), 'the configured endpoint\'s delivery')
  t.pass('the --webhook-url receiver on loopback got its delivery')
})

t.test('--webhook-allow-private: the flag, MOCK_WEBHOOK_ALLOW_PRIVATE and createMock\'s webhookAllowPrivate', async t => {
  const config = (env: Record<string, string>, flags: Record<string, string | boolean> = {}): ReturnType<typeof loadConfig> => loadConfig({ flags, env, cwd: process.cwd(), isTTY: false })
  t.equal(config({}).webhookAllowPrivate, false, 'off unless asked')
  t.equal(config({ MOCK_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate, true)
  t.equal(config({}, { 'webhook-allow-private': true }).webhookAllowPrivate, true)
  const mock = await createMock({ webhookAllowPrivate: true })
  t.teardown(() => mock.close())
  t.ok(mock)
})
