import type { ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import t from 'tap'
import { startCli } from '../helpers/spawn.js'

/**
 * SIGTERM against keep-alive clients, as Node's fetch (undici), test runners and proxies are: the
 * mock must answer what is in flight, close the connections the clients keep, and exit 0 well
 * within the 10 s Docker and Kubernetes wait. Before, a kept connection held the exit until
 * close-with-grace killed the process at 8 s with exit code 1 ("killed by timeout").
 */

/** Long enough to tell a hung process from a slow machine; the process must have exited by then. */
const WATCHDOG_MS = 15_000

/** The exit code, or a sentence if the process was still running after the watchdog (it is then killed). */
function exitOf (child: ChildProcess): Promise<number | null | string> {
  return new Promise(resolve => {
    const watchdog = setTimeout(() => {
      child.kill('SIGKILL')
      resolve(`still running ${WATCHDOG_MS / 1000} s after SIGTERM`)
    }, WATCHDOG_MS)
    child.on('exit', code => { clearTimeout(watchdog); resolve(code) })
  })
}

/** Resolves once the server is handling a request of this session: its session exists from the request's start. */
async function untilSessionExists (baseUrl: string, session: string): Promise<void> {
  for (;;) {
    const { sessions } = await (await fetch(`${baseUrl}/__mock/sessions`)).json() as { sessions: Array<{ id: string }> }
    if (sessions.some(s => s.id === session)) return
    await new Promise(resolve => setImmediate(resolve))
  }
}

t.test('SIGTERM during a keep-alive request: the answer arrives with Connection: close, then the process exits 0', async t => {
  const { child, baseUrl, output } = await startCli([])
  const inFlight = fetch(`${baseUrl}/baas/customers`, { headers: { prefer: 'delay=3000', 'x-mock-session': 'in-flight', authorization: 'Bearer tok_sam' } })
  // The polling keeps a second keep-alive connection in fetch's pool, idle at the signal.
  await untilSessionExists(baseUrl, 'in-flight')
  const exited = exitOf(child)
  child.kill('SIGTERM')

  const res = await inFlight
  t.equal(res.status, 200, 'the request in flight is answered')
  t.equal(((await res.json()) as { id: string }).id, 'cus_sam')
  t.equal(res.headers.get('connection'), 'close', 'an answer during shutdown tells the client not to reuse its connection')
  t.equal(await exited, 0)
  t.notMatch(output(), /killed by timeout/)
})

t.test('SIGTERM under load over 50 keep-alive connections: what is in flight is answered, and the process exits 0', async t => {
  const { child, baseUrl, output } = await startCli([])
  const CONNECTIONS = 50
  const PER_CONNECTION = 20
  let signalled = false
  let answered = 0
  const statuses = new Set<number>()
  let loaded: () => void = () => {}
  const enoughLoad = new Promise<void>(resolve => { loaded = resolve })
  // Each worker keeps one request in flight, so fetch's pool holds 50 connections. The load stops
  // with the signal, as a test run's does: each worker finishes its request and leaves its
  // connection idle in the pool.
  const worker = async (n: number): Promise<void> => {
    for (let i = 0; i < PER_CONNECTION && !signalled; i++) {
      try {
        const res = await fetch(`${baseUrl}/baas/customers`, { headers: { prefer: 'delay=100', 'x-mock-session': `load-${n % 5}` } })
        await res.arrayBuffer()
        statuses.add(res.status)
        if (++answered === 2 * CONNECTIONS) loaded()
      } catch {
        return // a request sent as its connection was being closed
      }
    }
    loaded() // bounded: the load may end before the signal on a very slow machine
  }
  const workers = Array.from({ length: CONNECTIONS }, (_, n) => worker(n))
  await enoughLoad
  const exited = exitOf(child)
  signalled = true
  child.kill('SIGTERM')
  await Promise.all(workers)

  t.ok(answered >= 2 * CONNECTIONS, `${answered} requests answered`)
  t.same([...statuses].filter(s => s !== 200 && s !== 503), [], 'answers are 200, or 503 for a request that arrived after the signal')
  t.equal(await exited, 0)
  t.notMatch(output(), /killed by timeout/)
})

t.test('SIGTERM while clients hold connections busy (a 30 s delay, headers never finished): cut after the grace period, exit 0', async t => {
  const { child, baseUrl, output } = await startCli([])
  const delayed = fetch(`${baseUrl}/baas/customers`, { headers: { prefer: 'delay=30000', 'x-mock-session': 'slow' } }).then(res => res.status, () => 'cut')
  const slowloris = connect(Number(new URL(baseUrl).port), '127.0.0.1')
  const slowlorisClosed = new Promise(resolve => slowloris.on('close', resolve))
  slowloris.on('error', () => {})
  await new Promise(resolve => slowloris.on('connect', resolve))
  slowloris.write('GET /baas/customers HTTP/1.1\r\nHost: x\r\n')
  await untilSessionExists(baseUrl, 'slow')
  const exited = exitOf(child)
  child.kill('SIGTERM')

  t.equal(await exited, 0)
  t.equal(await delayed, 'cut', 'the delayed request was cut, not answered')
  await slowlorisClosed
  t.match(output(), /connections still busy 5 s after the signal are closed/)
  t.notMatch(output(), /killed by timeout/)
})
