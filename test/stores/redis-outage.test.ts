import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig, type Config } from '../../src/config/config.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { redisMissing, startRedis } from '../helpers/redis-server.js'

// Redis going away and coming back under a running mock: every request answers 503
// store_unavailable (problem+json, Retry-After), readiness says not ready, liveness stays up,
// nothing crashes, and the mock serves again by itself once Redis answers.

interface Served { status: number; headers: Record<string, unknown>; body: { code?: string; status?: string; debitCards?: Array<{ id: string; status: string }> } }

async function replica (t: Test, overrides: Partial<Config>): Promise<{ app: FastifyInstance; call: (method: string, url: string) => Promise<Served>; logged: string[] }> {
  const logged: string[] = []
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, ...overrides }), {
    logger: { level: 'info', stream: { write: (line: string) => { logged.push(line) } } }
  })
  t.teardown(() => app.close())
  const call = async (method: string, url: string): Promise<Served> => {
    const res = await app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TOKENS.maya}` } })
    return { status: res.statusCode, headers: res.headers, body: res.body === '' ? {} : JSON.parse(res.body) }
  }
  return { app, call, logged }
}

/** Asks until `done` holds, at most `tries` times, a short pause between: Redis's reconnection is its own timer, not ours. */
async function eventually (tries: number, ask: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await ask()) return true
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return false
}

t.test('Redis stopped mid-run: 503 store_unavailable and /readyz 503; restarted on its port: the mock serves again by itself', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const { call, logged } = await replica(t, { store: redis.url })
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200)
  t.equal((await call('GET', '/readyz')).status, 200, 'ready while Redis answers')
  await redis.stop()

  for (const [method, url] of [['PUT', '/baas/debit-cards/card_maya_virtual/unlock'], ['GET', '/baas/customers'], ['GET', '/__mock/state'], ['GET', '/__mock/sessions'], ['DELETE', '/__mock/sessions/other']]) {
    const res = await call(method as string, url as string)
    t.equal(res.status, 503, `${method} ${url} answers 503`)
    t.equal(res.body.code, 'store_unavailable')
    t.match(res.headers['content-type'], /^application\/problem\+json/)
    t.equal(res.headers['retry-after'], '1')
  }
  const ready = await call('GET', '/readyz')
  t.equal(ready.status, 503, '/readyz: not ready')
  t.equal(ready.body.code, 'store_unavailable')
  t.match(ready.headers['content-type'], /^application\/problem\+json/)
  t.equal((await call('GET', '/healthz')).status, 200, '/healthz: alive all the same')
  t.equal(logged.filter(line => line.includes('cannot be reached')).length, 1, 'the log says once that Redis cannot be reached')
  t.notOk(logged.some(line => line.includes('state store:')), 'and not again for each request')

  await redis.start()
  t.ok(await eventually(100, async () => (await call('GET', '/readyz')).status === 200), 'ready again once Redis answers')
  // Redis came back empty (it saves nothing in this test): the session starts afresh, and is written again.
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200)
  const state = await call('GET', '/__mock/state')
  t.equal(state.body.debitCards?.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED')
  t.ok(logged.some(line => line.includes('can be reached again')), 'the log says so')
})

t.test('started while Redis is down: up but not ready, and ready once Redis answers', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  await redis.stop()
  const { call, logged } = await replica(t, { store: redis.url })
  t.equal((await call('GET', '/healthz')).status, 200)
  t.equal((await call('GET', '/readyz')).status, 503)
  t.equal((await call('GET', '/baas/customers')).status, 503)
  t.ok(logged.some(line => line.includes('not reachable yet')), 'the start says it is not ready')
  await redis.start()
  t.ok(await eventually(100, async () => (await call('GET', '/readyz')).status === 200), 'ready once Redis answers')
  t.equal((await call('GET', '/baas/customers')).status, 200)
})

t.test('"baas-mock ready" is logged when /readyz says ready: listening while Redis is down, ready once it answers', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  await redis.stop()
  const { app, call, logged } = await replica(t, { store: redis.url })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.ok(await eventually(100, async () => logged.some(line => line.includes('baas-mock listening, not ready'))), 'the start says it listens, not ready')
  t.equal((await call('GET', '/readyz')).status, 503)
  t.notOk(logged.some(line => line.includes('baas-mock ready')), 'and does not say ready while /readyz says 503')
  await redis.start()
  t.ok(await eventually(100, async () => logged.some(line => line.includes('baas-mock ready'))), 'ready, once Redis answers')
  t.equal((await call('GET', '/readyz')).status, 200)
  t.equal(logged.filter(line => line.includes('baas-mock ready')).length, 1, 'said once')
})

t.test('the password in the URL reaches Redis and never the log, nor an answer', { skip: redisMissing }, async t => {
  const password = 's3cret-hunter2'
  const redis = await startRedis(t, { password })
  const { call, logged } = await replica(t, { store: redis.url })
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200, 'it authenticates')
  await redis.stop()
  const failed = await call('GET', '/__mock/state')
  t.equal(failed.status, 503)
  await redis.start()
  t.ok(await eventually(100, async () => (await call('GET', '/readyz')).status === 200))
  const wrong = await replica(t, { store: redis.url.replace(password, 'not-the-password') })
  t.equal((await wrong.call('GET', '/baas/customers')).status, 503, 'a wrong password: 503, not a crash')
  const lines = [...logged, ...wrong.logged]
  t.ok(lines.some(line => line.includes(`redis://127.0.0.1:${redis.port}/0`)), 'the log names the Redis, without the password')
  t.notOk(lines.some(line => line.includes(password) || line.includes('not-the-password')), 'no line has a password')
  t.notOk(JSON.stringify(failed.body).includes(password))
})
