import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { redisMissing, startRedis } from '../helpers/redis-server.js'
import { startDns } from '../helpers/dns-server.js'
import { nginxMissing, startNginx } from '../helpers/nginx.js'

// deploy/nginx.conf as the compose stack runs it, with Debian's nginx on loopback: the replicas
// are in-process mocks on addresses of their own (127.0.0.2, .3, …) and one port, as containers
// are, and a small DNS server stands in for Docker's, answering the replicas' current addresses.

/** The token compose.yaml gives the replicas when .env sets none: the one the guide's lines send. */
// The token the replicas guide puts in .env (compose.yaml has none of its own: without .env the mock refuses to start).
const composeToken = /echo 'MOCK_ADMIN_TOKEN=([^']+)' > \.env/.exec(readFileSync(new URL('../../docs/guides/replicas.md', import.meta.url), 'utf8'))?.[1] ?? 'the guide sets none'

const skip = redisMissing !== false ? redisMissing : nginxMissing

/** A port free on every loopback address the replicas take. */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise(resolve => server.close(resolve))
  return port
}

async function replica (t: Test, store: string, host: string, port: number): Promise<FastifyInstance> {
  const app = await buildApp(defaultConfig({ store, logLevel: 'silent', adminToken: composeToken, host }), { logger: false })
  t.teardown(() => app.close())
  await app.listen({ host, port })
  return app
}

/** The `curl` lines of docs/guides/replicas.md's compose recipe, as printed. */
const guideCurls = (): string[] => {
  const guide = readFileSync(new URL('../../docs/guides/replicas.md', import.meta.url), 'utf8')
  const recipe = /## Docker Compose[\s\S]*?```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? ''
  return recipe.split('\n').filter(line => line.startsWith('curl '))
}

/** Runs a line of the guide with bash, at the load balancer's address in place of localhost:4010; its output. */
const run = async (line: string, base: string): Promise<string> =>
  (await promisify(execFile)('bash', ['-o', 'pipefail', '-c', line.replaceAll('localhost:4010', base.replace('http://', ''))], { encoding: 'utf8' })).stdout

const customer = (base: string): Promise<Response> => fetch(`${base}/baas/customers`, { headers: { authorization: 'Bearer tok_maya' } })

/** The statuses of `count` reads through the load balancer, one after the other. */
async function statuses (base: string, count: number): Promise<number[]> {
  const seen: number[] = []
  for (let i = 0; i < count; i++) {
    const res = await customer(base)
    await res.arrayBuffer()
    seen.push(res.status)
  }
  return seen
}

/** Waits for the stack to settle: reads until one answers 200 (nginx asks the DNS again every 2 s). */
async function settled (base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const res = await customer(base).catch(() => undefined)
    await res?.arrayBuffer()
    if (res?.status === 200) return
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

t.test('replicas restarted on new addresses are reached again: no 502 once the stack settles, and the data is shared', { skip }, async t => {
  const redis = await startRedis(t)
  const dns = await startDns(t)
  const port = await freePort()
  dns.set('mock', ['127.0.0.2', '127.0.0.3'])
  const first = [await replica(t, redis.url, '127.0.0.2', port), await replica(t, redis.url, '127.0.0.3', port)]
  const lb = await startNginx(t, { port: await freePort(), dnsPort: dns.port, mockPort: port })
  t.same(await statuses(lb.url, 6), [200, 200, 200, 200, 200, 200], 'both replicas serve')
  // The guide's recipe, line by line: a lock through one replica, its status read through whichever answers.
  const [lock, check] = guideCurls()
  t.ok(lock !== undefined && check !== undefined, 'the guide locks a card, then reads it')
  await run(lock ?? 'false', lb.url)
  t.match(await run(check ?? 'false', lb.url), /"status":"LOCKED"/, 'the guide\'s check reads the card locked')

  // `docker compose restart mock`: each replica stops and comes back on another address.
  for (const app of first) await app.close()
  dns.set('mock', ['127.0.0.4', '127.0.0.5'])
  await replica(t, redis.url, '127.0.0.4', port)
  await replica(t, redis.url, '127.0.0.5', port)
  await settled(lb.url)
  const after = await statuses(lb.url, 10)
  t.same(after.filter(status => status !== 200), [], 'every read answers 200 through the restarted replicas')
  const served = lb.accessLog().split('\n').slice(-6).join('\n')
  t.match(served, /127\.0\.0\.[45]:/, 'served by the new addresses')
  t.match(await run(check ?? 'false', lb.url), /"status":"LOCKED"/, 'the guide\'s check reads it locked after the restart')
})

t.test('a replica that cannot reach Redis (not ready, 503) is skipped: every read answers 200 through the other', { skip }, async t => {
  const redis = await startRedis(t)
  const dns = await startDns(t)
  const port = await freePort()
  dns.set('mock', ['127.0.0.6', '127.0.0.7'])
  await replica(t, redis.url, '127.0.0.6', port)
  // Its Redis is a port nothing listens on: it starts, and answers 503 store_unavailable until it can reach one.
  const cutOff = await replica(t, `redis://127.0.0.1:${await freePort()}/0`, '127.0.0.7', port)
  t.equal((await cutOff.inject({ method: 'GET', url: '/readyz' })).statusCode, 503, 'the cut-off replica says it is not ready')
  const lb = await startNginx(t, { port: await freePort(), dnsPort: dns.port, mockPort: port })
  const seen = await statuses(lb.url, 12)
  t.same(seen.filter(status => status !== 200), [], 'no read fails on the replica that is not ready')
})

t.test('the access log never holds the admin token of a dashboard link', { skip }, async t => {
  const redis = await startRedis(t)
  const dns = await startDns(t)
  const port = await freePort()
  dns.set('mock', ['127.0.0.8'])
  await replica(t, redis.url, '127.0.0.8', port)
  const lb = await startNginx(t, { port: await freePort(), dnsPort: dns.port, mockPort: port })
  const res = await fetch(`${lb.url}/__mock/ui?token=${composeToken}`)
  await res.arrayBuffer()
  const log = lb.accessLog()
  t.match(log, /GET \/__mock\/ui /, 'the request is logged')
  t.notOk(log.includes(composeToken), 'without its token')
})
