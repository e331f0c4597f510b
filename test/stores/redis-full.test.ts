import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { setTimeout as sleep } from 'node:timers/promises'
import { OUTAGE_QUIET_MS } from '../../src/world/stores/write-outage.js'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js'

// A Redis that is full (maxmemory reached, noeviction) refuses writes and still reads: the mock
// answers reads, refuses writes (503, nothing changed), and says so once at the start and once at the end.

const JUNK = 'junk:'

/** Fills Redis with keys of its own until it refuses one (OOM): maxmemory a little above what it holds, noeviction. */
async function fill (client: Redis): Promise<number> {
  const used = Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1])
  await client.config('SET', 'maxmemory-policy', 'noeviction')
  await client.config('SET', 'maxmemory', String(used + 1_000_000))
  const value = 'x'.repeat(10_000)
  for (let i = 0; ; i++) {
    try {
      await client.set(`${JUNK}${i}`, value)
    } catch (error) {
      if (!/OOM/.test((error as Error).message)) throw error
      // At the brim, a request's own buffers can tip it either way: a little under what it holds now, it is full for sure.
      const now = Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1])
      await client.config('SET', 'maxmemory', String(now - 100_000))
      return i
    }
  }
}

async function empty (client: Redis): Promise<void> {
  const keys = await client.keys(`${JUNK}*`)
  if (keys.length > 0) await client.del(...keys)
}

async function serve (t: Test, redis: RedisServer) {
  const logged: string[] = []
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, store: redis.url }), {
    logger: { level: 'info', stream: { write: (line: string) => { logged.push(line) } } }
  })
  t.teardown(() => app.close())
  const call = async (method: string, url: string) => {
    const res = await app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TOKENS.maya}` } })
    return { status: res.statusCode, body: res.body === '' ? {} : JSON.parse(res.body) }
  }
  return { app, call, logged }
}

t.test('a full Redis (maxmemory, noeviction): reads answer 200, writes 503 and change nothing, /readyz says why, one log line at each end', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const client = new Redis(redis.url)
  t.teardown(() => client.quit())
  const { call, logged } = await serve(t, redis)
  t.equal((await call('GET', '/baas/customers')).status, 200)
  t.equal((await call('GET', '/readyz')).status, 200)
  const before = logged.length

  t.ok(await fill(client) > 0, 'Redis is full')
  const answers: Record<string, number[]> = {}
  const reads = ['/baas/customers', '/baas/scheduled-transfers', '/__mock/state']
  for (let i = 0; i < 5; i++) {
    for (const url of reads) (answers[url] ??= []).push((await call('GET', url)).status)
    ;(answers.lock ??= []).push((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status)
  }
  for (const url of reads) t.same(answers[url], Array(5).fill(200), `GET ${url} answers 200 throughout`)
  t.same(answers.lock, Array(5).fill(503), 'every write answers 503')
  const ready = await call('GET', '/readyz')
  t.equal(ready.status, 503, '/readyz: not ready')
  t.match(ready.body, { code: 'store_unavailable', detail: /cannot write: OOM command not allowed/ })
  const during = logged.slice(before).filter(line => !line.includes('"msg":"request"'))
  t.equal(during.length, 1, `one line for the whole outage so far: ${during.join('')}`)
  t.match(during[0], /"level":40.*state store cannot write: OOM command not allowed/)

  await empty(client)
  // The end is said once no write was refused for OUTAGE_QUIET_MS (a flapping store is one outage).
  await sleep(OUTAGE_QUIET_MS + 100)
  const state = await call('GET', '/__mock/state')
  t.equal(state.body.debitCards.find((card: { id: string }) => card.id === 'card_maya_virtual')?.status, 'ACTIVE', 'no refused lock was kept')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200, 'writes work again once Redis has room')
  t.equal((await call('GET', '/readyz')).status, 200, 'and it is ready again')
  const after = logged.slice(before).filter(line => !line.includes('"msg":"request"'))
  t.equal(after.length, 2, `one more line, the end: ${after.join('')}`)
  t.match(after[1], /"level":30.*state store can write again after \d+ s: 5 write\(s\) refused meanwhile, \d+ journal entry\(ies\) of answered requests not kept/,
    'the five locks refused, counted apart from the journal entries of the reads')
  t.notMatch(after.join(''), /"stack"/, 'no stack')
})
