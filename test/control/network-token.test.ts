import { Writable } from 'node:stream'
import t, { type Test } from 'tap'
import { isLoopbackHost } from '../../src/config/network-token.js'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig, type Config } from '../../src/config/config.js'
import { loggerOptions } from '../../src/transports/fastify/logger.js'
import { TEST_NOW } from '../helpers/app.js'

/**
 * A mock reachable from a network (0.0.0.0, as the Docker image listens) must not hand the control
 * plane — every MFA code, resets, faults — to whoever reaches the port: without a token of its own
 * it makes one up and says it once at start-up. The decision is the configured host's; the servers
 * here listen on loopback all the same.
 */

interface Started { base: string; lines: () => Array<{ level: number; msg: string }>; raw: () => string }

async function start (t: Test, overrides: Partial<Config>): Promise<Started> {
  const chunks: string[] = []
  const stream = new Writable({ write (chunk: Buffer, _encoding, done) { chunks.push(chunk.toString()); done() } })
  const config = defaultConfig({ now: TEST_NOW, seed: 7, logRequests: 'all', ...overrides })
  const app = await buildApp(config, { logger: loggerOptions(config, stream) })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const raw = (): string => chunks.join('')
  return {
    base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    raw,
    lines: () => raw().split('\n').filter(Boolean).map(line => JSON.parse(line) as { level: number; msg: string })
  }
}

t.test('on 0.0.0.0 without a token, the control plane gets a generated one, printed once with the dashboard link that carries it', async t => {
  const { base, lines, raw } = await start(t, { host: '0.0.0.0' })
  const notice = lines().find(line => line.msg.includes('/__mock/ui?token='))
  t.ok(notice, 'the start-up log says where the dashboard is, with its token')
  t.equal(notice?.level, 40, 'a warning, so that LOG_LEVEL=warn still shows it')
  const link = /(http:\/\/\S+\/__mock\/ui\?token=(\S+))/.exec(notice?.msg ?? '')
  const token = link?.[2] ?? ''
  t.ok(token.length >= 32, 'a long random token')

  const locked = await fetch(`${base}/__mock/state`)
  t.equal(locked.status, 401, 'the control plane is closed to whoever has no token')
  t.equal(((await locked.json()) as { code: string }).code, 'admin_token_required')
  t.equal((await fetch(`${base}/__mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":500}' })).status, 401)
  t.equal((await fetch(`${base}/__mock/state`, { headers: { 'x-mock-admin-token': token } })).status, 200, 'the printed token opens it')
  t.equal((await fetch(`${base}/__mock/events?token=${token}`, { signal: AbortSignal.timeout(2000) }).then(res => { const status = res.status; void res.body?.cancel(); return status })), 200, 'the dashboard feed takes it from its query')
  t.equal((await fetch(link?.[1] ?? '')).status, 200, 'the printed link opens the dashboard')
  const exchanged = await fetch(link?.[1] ?? '', { redirect: 'manual' })
  t.equal(exchanged.status, 303, 'the printed link trades the token for the dashboard cookie')
  t.equal(exchanged.headers.get('location'), 'ui/')
  const cookie = (exchanged.headers.get('set-cookie') ?? '').split(';')[0] as string
  t.equal((await fetch(`${base}/__mock/events`, { headers: { cookie }, signal: AbortSignal.timeout(2000) }).then(res => { const status = res.status; void res.body?.cancel(); return status })), 200, 'the feed takes the cookie, no token in its URL')

  // What the container check probes, and what a frontend calls, stay open.
  t.equal((await fetch(`${base}/healthz`)).status, 200)
  t.equal((await fetch(`${base}/readyz`)).status, 200)
  t.equal((await fetch(`${base}/baas/customers`)).status, 200)
  t.equal((await fetch(`${base}/docs/json`)).status, 200)

  t.ok(raw().split(token).length === 2, 'the token is written once, in the start-up notice, never in a request line')
  t.ok(lines().filter(line => line.msg === 'request').length >= 8, 'the requests above were logged')
})

t.test('each start on a network address makes a new token', async t => {
  const tokenOf = async (): Promise<string> => /\?token=(\S+)/.exec((await start(t, { host: '0.0.0.0', seed: 7 })).raw())?.[1] ?? ''
  const [first, second] = [await tokenOf(), await tokenOf()]
  t.not(first, second, 'not derived from --seed')
})

t.test('--admin-token none leaves the control plane open on a network address, with a warning', async t => {
  const { base, lines } = await start(t, { host: '0.0.0.0', adminToken: 'none' })
  t.equal((await fetch(`${base}/__mock/state`)).status, 200)
  t.ok(lines().some(line => line.level === 40 && /admin token none: the control plane .* is open to anyone who can reach 0\.0\.0\.0/.test(line.msg)))
  t.notOk(lines().some(line => line.msg.includes('?token=')), 'no token made up')
})

t.test('a token given is the token, on any host', async t => {
  const { base, raw } = await start(t, { host: '0.0.0.0', adminToken: 'given-token' })
  t.equal((await fetch(`${base}/__mock/state`)).status, 401)
  t.equal((await fetch(`${base}/__mock/state`, { headers: { 'x-mock-admin-token': 'given-token' } })).status, 200)
  t.notMatch(raw(), /\?token=|given-token/, 'nothing printed')
})

t.test('on loopback the control plane stays open without a token, as before', async t => {
  for (const host of ['127.0.0.1', '::1', 'localhost', '[::1]']) {
    const { base, raw } = await start(t, { host })
    t.equal((await fetch(`${base}/__mock/state`)).status, 200, host)
    t.notMatch(raw(), /\?token=/, `${host}: no token made up`)
  }
})

t.test('loopback is 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost; anything else may be reached from a network', async t => {
  for (const host of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) t.ok(isLoopbackHost(host), host)
  for (const host of ['0.0.0.0', '::', '[::]', '10.0.0.7', '192.168.1.20', 'fe80::1', 'my-laptop.local', 'localhost.example.com']) t.notOk(isLoopbackHost(host), host)
})
