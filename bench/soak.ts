import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, totalmem } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

/**
 * `npm run soak`: many sessions and a long mixed load against one server, on loopback only, with
 * the default caps. Passes when no request fails, RSS stays under the bound, and once the sessions
 * idle out (a short --session-idle-seconds, so it fits in the run) RSS comes back near its idle
 * figure. Appends the figures to bench/RESULTS.md under `## Soak`. Ends itself within 90 s.
 *
 * Knobs for investigating: SOAK_SESSIONS, SOAK_CONNECTIONS, SOAK_IDLE_SECONDS, SOAK_OUT (report
 * file), SOAK_ENTRY (server script), SOAK_ARGS (extra server flags), SOAK_NODE_ARGS (node flags for
 * the server, e.g. --trace-gc with SOAK_TRACE=1 to print its major collections).
 */
const SESSIONS = Number(process.env.SOAK_SESSIONS ?? 20_000)
const PER_SESSION = 10 // one pass over the request mix below
const REQUESTS = SESSIONS * PER_SESSION
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32)
const IDLE_SECONDS = Number(process.env.SOAK_IDLE_SECONDS ?? 5)
const RSS_LIMIT_MB = 300
/** "Near the idle figure": what a warmed-up process keeps (JIT code, grown pools) may stay. */
const RETURN_MARGIN_MB = 40
const DEADLINE_MS = 90_000

const root = new URL('../../', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { bin: Record<string, string> }
const entry = process.env.SOAK_ENTRY ?? fileURLToPath(new URL(pkg.bin['baas-mock'] ?? 'dist/src/cli.js', root))

const began = Date.now()
let server: ChildProcess | undefined
const deadline = setTimeout(() => {
  console.error(`soak: still running after ${DEADLINE_MS / 1000} s; stopping`)
  server?.kill('SIGKILL')
  process.exit(1)
}, DEADLINE_MS)
deadline.unref()

async function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function ready (url: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return
    } catch { /* not yet */ }
    await sleep(25)
  }
  throw new Error(`no answer from ${url}`)
}

function memory (pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mb = (field: string): number => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024 * 10) / 10
  return { rss: mb('VmRSS'), peak: mb('VmHWM') }
}

interface Context { session?: string }

/** One session's pass: reads, card writes, MFA, a transfer, the journal, a clock move and a snapshot. */
const MIX: autocannon.Request[] = [
  { method: 'GET', path: '/baas/customers' },
  { method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', body: '{}' },
  { method: 'GET', path: '/baas/scheduled-transfers' },
  { method: 'POST', path: '/mfa/send-code', body: '{}' },
  { method: 'POST', path: '/mfa/verify', body: '{"code":"000000"}' },
  { method: 'PUT', path: '/baas/debit-cards/card_maya_virtual/unlock', body: '{}' },
  { method: 'POST', path: '/baas/scheduled-transfers/internal', body: JSON.stringify({ fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100, frequency: 'WEEKLY', startDate: '2099-01-01' }) },
  { method: 'GET', path: '/__mock/requests?limit=5' },
  { method: 'POST', path: '/__mock/clock/advance', body: '{"by":"P1D"}' },
  { method: 'GET', path: '/__mock/state' }
]

async function main (): Promise<number> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, [...(process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean), entry, '--port', String(port), '--host', '127.0.0.1', '--seed', '1', '--session-idle-seconds', String(IDLE_SECONDS), ...(process.env.SOAK_ARGS ?? '').split(' ').filter(Boolean)], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' }
  })
  if (process.env.SOAK_TRACE === undefined) server.stdout?.resume() // logs: drained so the pipe never blocks the server
  else server.stdout?.on('data', (chunk: Buffer) => { for (const line of chunk.toString().split('\n')) if (line.includes('Mark-Compact')) console.error(line) })
  let stderr = ''
  server.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  server.on('exit', code => { if (code !== null && code !== 0) console.error(`soak: server exited ${code}: ${stderr}`) })
  await ready(url)
  await sleep(1000)
  const cold = memory(server.pid)
  // The idle figure of a server that has worked: compiled code and grown pools stay for the life of
  // any process. One session warms every route of the mix, then it is deleted.
  await autocannon({
    url, connections: 4, amount: 200 * MIX.length, requests: MIX,
    headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json', 'x-mock-session': 'warm-up' }
  })
  await fetch(`${url}/__mock/sessions/warm-up`, { method: 'DELETE' })
  await sleep(1000)
  const idle = memory(server.pid)

  const fiveHundreds = { count: 0 }
  let next = 0
  const sessions = new Set<string>()
  const withSession = (req: autocannon.Request, context: object): autocannon.Request =>
    ({ ...req, headers: { ...req.headers, 'x-mock-session': (context as Context).session ?? 'default' } })
  const requests: autocannon.Request[] = MIX.map((request, i) => ({
    ...request,
    // Each pass over the mix is a new session: 20,000 distinct ids, as many CI jobs would send.
    setupRequest: (req: autocannon.Request, context: object) => {
      if (i === 0) (context as Context).session = `soak-${next++}`
      return withSession(req, context)
    },
    onResponse: (status: number, _body: string, context: object) => {
      if (status >= 500) fiveHundreds.count++
      sessions.add((context as Context).session ?? 'default')
    }
  }))
  let sampled = idle.rss
  const sampler = setInterval(() => { sampled = Math.max(sampled, memory(server?.pid).rss) }, 250)
  const loadStart = Date.now()
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    // Enough for every connection to finish its last pass: at least SESSIONS whole passes.
    amount: REQUESTS + CONNECTIONS * PER_SESSION,
    requests,
    headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json' }
  })
  const loadSeconds = (Date.now() - loadStart) / 1000
  clearInterval(sampler)
  const loaded = memory(server.pid)
  const alive = (await (await fetch(`${url}/__mock/sessions`)).json() as { sessions: unknown[] }).sessions.length

  // Nobody calls now: the sweep timer must drop every session once it has been idle long enough.
  await sleep((IDLE_SECONDS + 3) * 1000)
  const remaining = (await (await fetch(`${url}/__mock/sessions`)).json() as { sessions: unknown[] }).sessions.length
  let after = memory(server.pid).rss
  for (let i = 0; i < 10 && after > idle.rss + RETURN_MARGIN_MB; i++) {
    await sleep(1000)
    after = memory(server.pid).rss
  }
  const peak = Math.max(sampled, loaded.peak)
  const exited = new Promise(resolve => server?.once('exit', resolve))
  server.kill('SIGTERM')
  await exited

  const total = result.requests.total
  const failures = result.errors + result.timeouts + fiveHundreds.count
  const checks = {
    requests: total >= REQUESTS,
    sessions: sessions.size >= SESSIONS,
    failures: failures === 0,
    peak: peak <= RSS_LIMIT_MB,
    expired: remaining === 0,
    returned: after <= idle.rss + RETURN_MARGIN_MB,
    bounded: (Date.now() - began) <= DEADLINE_MS
  }
  const mark = (ok: boolean): string => (ok ? 'met' : '**missed**')
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`
  const section = `
## Soak

\`npm run soak\` on ${new Date().toISOString().slice(0, 10)}: ${machine}. One server with the default caps
(1,000 sessions, 500 journal entries and 200 messages per session, 64 KiB bodies, logs at \`info\` with a line per
4xx or 5xx answer, the default off a terminal) but
\`--session-idle-seconds ${IDLE_SECONDS}\`, so that idle expiry happens within the run. ${CONNECTIONS} connections on loopback;
each session sends one pass of a ${MIX.length}-request mix (customer read, lock, unlock, transfer list and create,
MFA send and a wrong code, journal, clock advance of one day, state snapshot), then is never used again.

| measure | value | target | |
|---|---|---|---|
| requests | ${total.toLocaleString('en-US')} in ${loadSeconds.toFixed(1)} s (${Math.round(total / loadSeconds).toLocaleString('en-US')}/s) | ≥ ${REQUESTS.toLocaleString('en-US')} | ${mark(checks.requests)} |
| distinct sessions | ${sessions.size.toLocaleString('en-US')} | ≥ ${SESSIONS.toLocaleString('en-US')} | ${mark(checks.sessions)} |
| errors, time-outs, 5xx | ${failures} | 0 | ${mark(checks.failures)} |
| RSS idle MB, cold / warmed up (${(200 * MIX.length).toLocaleString('en-US')} requests on one session, then deleted) | ${cold.rss} / ${idle.rss} | | |
| RSS peak MB | ${peak} | ≤ ${RSS_LIMIT_MB} | ${mark(checks.peak)} |
| RSS at the end of the load MB | ${loaded.rss} (${alive} sessions alive; the cap is 1,000) | | |
| sessions alive ${IDLE_SECONDS + 3} s after the last request | ${remaining} | 0 | ${mark(checks.expired)} |
| RSS after idle expiry MB | ${after} | ≤ warmed-up idle + ${RETURN_MARGIN_MB} | ${mark(checks.returned)} |
| whole run | ${((Date.now() - began) / 1000).toFixed(1)} s | ≤ ${DEADLINE_MS / 1000} s | ${mark(checks.bounded)} |
`
  console.log(section)
  const out = process.env.SOAK_OUT ?? fileURLToPath(new URL('bench/RESULTS.md', root))
  const previous = (() => { try { return readFileSync(out, 'utf8') } catch { return '# Benchmark results\n\n`npm run bench` writes the comparison here.\n' } })()
  const head = previous.includes('\n## Soak') ? previous.slice(0, previous.indexOf('\n## Soak')) : previous.replace(/\n*$/, '\n')
  // The demo soak's section (bench/demo-soak.ts) follows this one and is its own.
  const demo = previous.indexOf('\n## Demo soak')
  writeFileSync(out, head + section + (demo === -1 ? '' : previous.slice(demo)))
  console.log(`wrote ${out}`)
  return Object.values(checks).every(Boolean) ? 0 : 1
}

main().then(code => { process.exitCode = code }, (error: unknown) => {
  console.error(error)
  server?.kill('SIGKILL')
  process.exitCode = 1
})
