import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

/**
 * Two replicas on one Redis against one in-memory process, behind the same load: pipelines
 * (sessions) that each send lock + unlock through both replicas, as a load balancer spreads them.
 * Each loader is one autocannon instance with its own session; loader i goes to replica i % 2, so
 * every session is written through both replicas at once (their saves contend, and some rerun).
 */

export const REDIS_SERVER = '/usr/bin/redis-server'
const SESSIONS = 5
const LOADERS = 10

export interface ReplicaLoad { rps: number; p99: number; errors: number; non2xx: number }

export interface StartedMock { child: ChildProcess; url: string }

type StartMock = (extraArgs: string[]) => Promise<StartedMock>
type StopMock = (child: ChildProcess) => Promise<void>

async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')))
    })
  })
}

async function startRedis (): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'baas-bench-redis-'))
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Ready to accept connections')) resolve()
    })
    child.on('exit', code => reject(new Error(`redis-server exited ${code}: ${out}`)))
  })
  return {
    url: `redis://127.0.0.1:${port}/0`,
    stop: async () => {
      const exited = new Promise(resolve => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Every loader at once, for `seconds`: summed req/s, the worst p99, every error and non-2xx. */
async function loadAll (urls: string[], connections: number, seconds: number): Promise<ReplicaLoad> {
  const perLoader = Math.max(1, Math.round(connections / LOADERS))
  const results = await Promise.all(Array.from({ length: LOADERS }, async (_, i) => await autocannon({
    url: urls[i % urls.length] ?? '',
    connections: perLoader,
    duration: seconds,
    headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json', 'x-mock-session': `bench-pipeline-${i % SESSIONS}` },
    requests: [
      { method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', body: '{}' },
      { method: 'PUT', path: '/baas/debit-cards/card_maya_virtual/unlock', body: '{}' }
    ]
  })))
  return {
    rps: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    p99: Math.max(...results.map(r => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0)
  }
}

/** The same load on one in-memory process, then on two replicas sharing a Redis; undefined without redis-server. */
export async function measureReplicas (start: StartMock, stop: StopMock, connections: number, seconds: number): Promise<{ single: ReplicaLoad; replicas: ReplicaLoad } | undefined> {
  if (!existsSync(REDIS_SERVER)) return undefined
  const one = await start([])
  await loadAll([one.url], connections, 2) // warm-up, not reported
  const single = await loadAll([one.url], connections, seconds)
  await stop(one.child)

  const redis = await startRedis()
  try {
    const a = await start(['--store', redis.url])
    const b = await start(['--store', redis.url])
    await loadAll([a.url, b.url], connections, 2)
    const replicas = await loadAll([a.url, b.url], connections, seconds)
    await stop(a.child)
    await stop(b.child)
    return { single, replicas }
  } finally {
    await redis.stop()
  }
}
