import t from 'tap'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createServer, connect, type Server, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { SAVE_SCRIPT } from '../../src/world/stores/redis-scripts.js'
import { REDIS_CLIENT_OPTIONS, RedisStore } from '../../src/world/stores/redis.js'
import { perLog, StoreUnavailableError, type SessionChange } from '../../src/world/stores/store.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { redisMissing, startRedis } from '../helpers/redis-server.js'

// A save that reached Redis and whose answer never came back (the connection cut under it) may have
// been applied: 503 store_outcome_unknown, saying to read before retrying, not store_unavailable
// (which says nothing was kept). A save never sent (no connection) is store_unavailable still.

/**
 * A TCP proxy in front of Redis that, once armed, passes the next save on to Redis, waits for
 * Redis's answer and cuts the mock's connection instead of passing the answer on.
 */
async function cuttingProxy (redisPort: number): Promise<{ port: number; arm: () => void; cut: () => boolean; close: () => Promise<void> }> {
  const sha = createHash('sha1').update(SAVE_SCRIPT).digest('hex')
  let armed = false
  let cut = false
  const sockets = new Set<Socket>()
  const server: Server = createServer(client => {
    const upstream = connect(redisPort, '127.0.0.1')
    let swallow = false
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => { /* the other side is cut too */ })
    }
    client.on('data', chunk => {
      if (armed && chunk.includes(sha)) {
        armed = false
        swallow = true
      }
      upstream.write(chunk)
    })
    upstream.on('data', chunk => {
      if (!swallow) {
        client.write(chunk)
        return
      }
      // Redis answered: the save was applied. The mock never hears it.
      cut = true
      client.destroy()
      upstream.destroy()
    })
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as { port: number }).port,
    arm: () => { armed = true },
    cut: () => cut,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise(resolve => server.close(resolve))
    }
  }
}

interface Served { status: number; headers: Record<string, unknown>; body: { code?: string; detail?: string; debitCards?: Array<{ id: string; status: string }> } }

function caller (app: FastifyInstance) {
  return async (method: string, url: string, headers: Record<string, string> = {}): Promise<Served> => {
    const res = await app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TOKENS.maya}`, ...headers } })
    return { status: res.statusCode, headers: res.headers, body: res.body === '' ? {} : JSON.parse(res.body) }
  }
}

t.test('a save whose answer the cut connection lost: 503 store_outcome_unknown, and it was in fact kept', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const proxy = await cuttingProxy(redis.port)
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, store: `redis://127.0.0.1:${proxy.port}/0` }), { logger: false })
  t.teardown(async () => {
    await app.close()
    await proxy.close()
  })
  const call = caller(app)
  const cardOf = async (): Promise<string | undefined> => (await call('GET', '/__mock/state')).body.debitCards?.find(card => card.id === 'card_maya_virtual')?.status
  t.equal(await cardOf(), 'ACTIVE', 'the session is made and saved through the proxy')

  proxy.arm()
  const key = { 'idempotency-key': 'lock-once' }
  const lost = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', key)
  t.ok(proxy.cut(), 'the save reached Redis and its answer was cut')
  t.equal(lost.status, 503)
  t.match(lost.headers['content-type'], /^application\/problem\+json/)
  t.equal(lost.headers['retry-after'], '1')
  t.match(lost.body, { code: 'store_outcome_unknown', detail: /may have been applied: read the resource before retrying; an API request sent with an Idempotency-Key may be retried with the same key/ })

  // The client reconnects by itself (its own timer); then the read shows what the 503 could not tell.
  let status: string | undefined
  for (let i = 0; i < 100 && status === undefined; i++) {
    status = await cardOf()
    if (status === undefined) await new Promise(resolve => setTimeout(resolve, 50))
  }
  t.equal(status, 'LOCKED', 'the lock answered 503 was kept')
  const retried = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', key)
  t.equal(retried.status, 200, 'a retry with the same Idempotency-Key gets the first answer')
  t.equal(retried.headers['idempotent-replayed'], 'true', 'replayed, not done twice')
})

t.test('a save never sent (Redis cannot be reached) is known not kept: store_unavailable, not outcome unknown', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const client = new Redis(redis.url, REDIS_CLIENT_OPTIONS)
  client.on('error', () => { /* the store's own listener says it */ })
  await once(client, 'ready')
  const store = new RedisStore(client, 'redis://127.0.0.1', { prefix: 'baas:', idleTimeoutMs: 60_000, maxSessions: 10 })
  t.teardown(() => store.close())
  await redis.stop()
  while (client.status === 'ready') await new Promise(resolve => setTimeout(resolve, 10))
  const change = {
    meta: { id: 'sess_never_sent', createdMs: 0, lastSeenMs: 0, pinned: false },
    baseVersion: 0,
    parts: {},
    rows: perLog(() => ({ from: 0, appended: [] }))
  } as unknown as SessionChange
  const refused = await store.save(change).then(() => undefined, (error: unknown) => error)
  t.ok(refused instanceof StoreUnavailableError, 'the save fails as the store being unavailable')
  t.equal((refused as StoreUnavailableError).outcomeUnknown, false, 'and is known not to have been applied')
})
