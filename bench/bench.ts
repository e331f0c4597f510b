import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import type { InProcessFigures, Rate } from './in-process.js'
import { measureReplicas, REDIS_SERVER, type ReplicaLoad } from './replicas.js'
import { measureNeighbour, neighbourSection, neighbourTargets } from './neighbour.js'

/**
 * `npm run bench`: the mock against a minimal Fastify app serving the same JSON, in one run on
 * one machine, so the ratios mean something wherever it runs. Writes bench/RESULTS.md.
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SPAWNS = 5
/** Rounds of both servers, order alternating; each figure is the median over rounds (shared VMs are noisy). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const root = new URL('../../', import.meta.url)
const targets = {
  mock: { script: fileURLToPath(new URL('dist/baas-mock.js', root)), args: ['--port', '0', '--log-level', process.env.BENCH_LOG_LEVEL ?? 'info', '--seed', '1'] },
  /** The mock logging a line for every request (a terminal's default), to show what that costs. */
  mockLoggingAll: { script: fileURLToPath(new URL('dist/baas-mock.js', root)), args: ['--port', '0', '--seed', '1', '--log-level', 'info', '--log-requests', 'all'] },
  minimal: { script: fileURLToPath(new URL('dist/bench/minimal-app.js', root)), args: [] as string[] },
  /** The mock keeping its sessions in SQLite (--state-dir): every acknowledged write is in the store first. */
  mockStateDir: { script: fileURLToPath(new URL('dist/baas-mock.js', root)), args: ['--port', '0', '--seed', '1', '--log-level', 'info'] }
}
type Target = keyof typeof targets

interface Started { child: ChildProcess; url: string; ms: number }

function start (target: Target, extraArgs: string[] = [], extraEnv: Record<string, string> = {}): Promise<Started> {
  const { script } = targets[target]
  const args = [...targets[target].args, ...extraArgs]
  const began = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '0', NODE_ENV: 'production', ...extraEnv } })
    let out = ''
    const onData = (chunk: Buffer): void => {
      out += chunk.toString()
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (match?.[1] === undefined) return
      child.stdout?.off('data', onData)
      child.stdout?.resume() // keep draining logs so the pipe never blocks the server
      const url = match[1]
      void firstOk(`${url}/baas/customers`).then(() => resolve({ child, url, ms: Number(process.hrtime.bigint() - began) / 1e6 }), reject)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (c: Buffer) => { out += c.toString() })
    child.on('exit', code => reject(new Error(`${target} exited ${code}: ${out}`)))
  })
}

async function firstOk (url: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch { /* not yet */ }
    await new Promise(r => setTimeout(r, 5))
  }
  throw new Error(`no 200 from ${url}`)
}

async function stop (child: ChildProcess): Promise<void> {
  const exited = new Promise(resolve => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

function rssMb (pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024 * 10) / 10
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

/**
 * The median of SPAWNS starts after one not measured: the files are in the OS's cache then, and the
 * mock's V8 code cache is written (src/cli/compile-cache.ts), as at a developer's second `npm start`.
 */
async function coldStart (target: Target, env: Record<string, string> = {}): Promise<number> {
  await stop((await start(target, [], env)).child)
  const times: number[] = []
  for (let i = 0; i < SPAWNS; i++) {
    const s = await start(target, [], env)
    times.push(s.ms)
    await stop(s.child)
  }
  return median(times)
}

interface Load { rps: number; p50: number; p99: number; errors: number; non2xx: number }

async function load (url: string, requests: autocannon.Request[]): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, requests, headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json' } })
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx }
}

const GET: autocannon.Request[] = [{ method: 'GET', path: '/baas/customers' }]
const LOCK_UNLOCK: autocannon.Request[] = [
  { method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', body: '{}' },
  { method: 'PUT', path: '/baas/debit-cards/card_maya_virtual/unlock', body: '{}' }
]

interface Figures { coldMs: number; idleMb: number; afterMb: number; get: Load; lock: Load }

async function measure (target: Target): Promise<Figures> {
  const coldMs = await coldStart(target)
  const s = await start(target)
  await new Promise(r => setTimeout(r, 1000))
  const idleMb = rssMb(s.child.pid)
  await load(s.url, GET) // warm-up is part of a real run too; it is not reported
  const get = await load(s.url, GET)
  const lock = await load(s.url, LOCK_UNLOCK)
  const afterMb = rssMb(s.child.pid)
  await stop(s.child)
  return { coldMs, idleMb, afterMb, get, lock }
}

/** Throughput only (no cold start or memory): for the variant shown beside the main figures. */
async function measureLoads (target: Target): Promise<{ get: Load; lock: Load }> {
  const s = await start(target)
  await load(s.url, GET)
  const get = await load(s.url, GET)
  const lock = await load(s.url, LOCK_UNLOCK)
  await stop(s.child)
  return { get, lock }
}

/** mock.fetch and MSW in Node against their stateless baselines, in a process of their own (bench/in-process.ts). */
function measureInProcess (baselineFirst: boolean): Promise<InProcessFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('dist/bench/in-process.js', root))], {
      stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production', BENCH_BASELINE_FIRST: String(baselineFirst) }
    })
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => { out += chunk.toString() })
    child.on('exit', code => {
      const line = out.trim().split('\n').at(-1) ?? ''
      if (code === 0) resolve(JSON.parse(line) as InProcessFigures)
      else reject(new Error(`bench/in-process exited ${code}: ${out}`))
    })
  })
}


/** The mock with --state-dir on a fresh folder: writes go to SQLite before they are answered. */
async function measureStateDir (): Promise<{ get: Load; lock: Load }> {
  const dir = mkdtempSync(join(tmpdir(), 'baas-bench-state-'))
  try {
    const s = await start('mockStateDir', ['--state-dir', dir])
    await load(s.url, GET)
    const get = await load(s.url, GET)
    const lock = await load(s.url, LOCK_UNLOCK)
    await stop(s.child)
    return { get, lock }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`
const out = process.env.BENCH_OUT ?? fileURLToPath(new URL('bench/RESULTS.md', root))
const readResults = (): string => { try { return readFileSync(out, 'utf8') } catch { return '' } }
const NEIGHBOUR_HEADING = '\n## Noisy neighbour'

/** The noisy-neighbour section put in place of the one RESULTS.md holds (before the soak's, or at the end). */
function withNeighbour (results: string, section: string): string {
  let rest = results
  const at = results.indexOf(NEIGHBOUR_HEADING)
  if (at !== -1) {
    const next = results.indexOf('\n## ', at + 1)
    rest = results.slice(0, at) + (next === -1 ? '\n' : results.slice(next))
  }
  const soak = rest.indexOf('\n## Soak')
  return soak === -1 ? rest.replace(/\n*$/, '\n') + section : rest.slice(0, soak) + section + rest.slice(soak)
}

// `BENCH_ONLY=neighbour`: the noisy-neighbour soak alone (about 90 s), its section replaced in RESULTS.md.
if (process.env.BENCH_ONLY === 'neighbour') {
  const figures = await measureNeighbour(async args => await start('mock', args), stop)
  const section = neighbourSection(figures, new Date().toISOString().slice(0, 10), machine)
  console.log(section)
  writeFileSync(out, withNeighbour(readResults(), section))
  console.log(`wrote ${out}`)
  process.exit(Object.values(neighbourTargets(figures)).every(Boolean) ? 0 : 1)
}

const rounds: { minimal: Figures; mock: Figures; coldFirstMs: number; loggingAll: { get: Load; lock: Load }; stateDir: { get: Load; lock: Load }; inProcess: InProcessFigures; replicas: { single: ReplicaLoad; replicas: ReplicaLoad } | undefined }[] = []
for (let i = 0; i < ROUNDS; i++) {
  const order: ('minimal' | 'mock')[] = i % 2 === 0 ? ['minimal', 'mock'] : ['mock', 'minimal']
  const round: Partial<Record<'minimal' | 'mock', Figures>> = {}
  for (const target of order) round[target] = await measure(target)
  const loggingAll = await measureLoads('mockLoggingAll')
  const replicas = await measureReplicas(async args => await start('mock', args), stop, CONNECTIONS, DURATION)
  // Every start compiles the whole bundle, as the first one on a machine does.
  const coldFirstMs = await coldStart('mock', { NODE_DISABLE_COMPILE_CACHE: '1' })
  rounds.push({ ...(round as { minimal: Figures; mock: Figures }), coldFirstMs, loggingAll, stateDir: await measureStateDir(), inProcess: await measureInProcess(i % 2 === 0), replicas })
}

/** The median over rounds of every figure. */
function medianFigures (all: Figures[]): Figures {
  const m = (pick: (f: Figures) => number): number => median(all.map(pick))
  const loadOf = (pick: (f: Figures) => Load): Load => ({
    rps: m(f => pick(f).rps), p50: m(f => pick(f).p50), p99: m(f => pick(f).p99),
    errors: all.reduce((n, f) => n + pick(f).errors, 0), non2xx: all.reduce((n, f) => n + pick(f).non2xx, 0)
  })
  return { coldMs: m(f => f.coldMs), idleMb: m(f => f.idleMb), afterMb: m(f => f.afterMb), get: loadOf(f => f.get), lock: loadOf(f => f.lock) }
}
const minimal = medianFigures(rounds.map(r => r.minimal))
const mock = medianFigures(rounds.map(r => r.mock))
const coldFirstMs = median(rounds.map(r => r.coldFirstMs))
const loggingAll = { get: median(rounds.map(r => r.loggingAll.get.rps)), lock: median(rounds.map(r => r.loggingAll.lock.rps)) }
/** Median over rounds of the two-replica figures; undefined when redis-server is not installed. */
const replicaRounds = rounds.flatMap(r => r.replicas === undefined ? [] : [r.replicas])
const replicas = replicaRounds.length === 0
  ? undefined
  : {
      single: median(replicaRounds.map(r => r.single.rps)),
      singleP99: median(replicaRounds.map(r => r.single.p99)),
      rps: median(replicaRounds.map(r => r.replicas.rps)),
      p99: median(replicaRounds.map(r => r.replicas.p99)),
      failed: replicaRounds.reduce((n, r) => n + r.replicas.errors + r.replicas.non2xx + r.single.errors + r.single.non2xx, 0)
    }
const stateDir = {
  get: median(rounds.map(r => r.stateDir.get.rps)),
  lock: median(rounds.map(r => r.stateDir.lock.rps)),
  lockP99: median(rounds.map(r => r.stateDir.lock.p99)),
  failed: rounds.reduce((n, r) => n + r.stateDir.get.errors + r.stateDir.get.non2xx + r.stateDir.lock.errors + r.stateDir.lock.non2xx, 0)
}
const perRound = rounds.map((r, i) => `round ${i + 1}: GET ${(r.mock.get.rps / r.minimal.get.rps).toFixed(2)}, lock + unlock ${(r.mock.lock.rps / r.minimal.lock.rps).toFixed(2)}, cold ${(r.mock.coldMs / r.minimal.coldMs).toFixed(2)}`).join('; ')
const ratio = (a: number, b: number): string => (b === 0 ? 'n/a' : (a / b).toFixed(2))

/** The median over rounds of each in-process figure, and of its ratio to its baseline (each round's ratio is within one process). */
function inProcessMedian (pick: (f: InProcessFigures) => { baseline: Rate; mock: Rate }): { baseline: number; mock: number; ratio: number; non2xx: number } {
  const all = rounds.map(r => pick(r.inProcess))
  return {
    baseline: median(all.map(f => f.baseline.rps)),
    mock: median(all.map(f => f.mock.rps)),
    ratio: median(all.map(f => f.mock.rps / f.baseline.rps)),
    non2xx: all.reduce((n, f) => n + f.baseline.non2xx + f.mock.non2xx, 0)
  }
}
const fetchGet = inProcessMedian(f => f.fetchGet)
const fetchLock = inProcessMedian(f => f.fetchLock)
const mswGet = inProcessMedian(f => f.mswGet)
const shapedLock = inProcessMedian(f => f.shapedLock)
const perRoundInProcess = rounds.map((r, i) => `round ${i + 1}: mock.fetch GET ${(r.inProcess.fetchGet.mock.rps / r.inProcess.fetchGet.baseline.rps).toFixed(2)}, ` +
  `lock + unlock ${(r.inProcess.fetchLock.mock.rps / r.inProcess.fetchLock.baseline.rps).toFixed(2)}, MSW GET ${(r.inProcess.mswGet.mock.rps / r.inProcess.mswGet.baseline.rps).toFixed(2)}`).join('; ')
const targetsMet = {
  get: mock.get.rps / minimal.get.rps >= 0.80,
  lock: mock.lock.rps / minimal.lock.rps >= 0.70,
  p99: mock.get.p99 <= 10 && mock.lock.p99 <= 10,
  cold: mock.coldMs <= minimal.coldMs * 1.5,
  idle: mock.idleMb <= 90,
  clean: mock.get.errors + mock.get.non2xx + mock.lock.errors + mock.lock.non2xx === 0,
  msw: mswGet.ratio >= 0.70,
  shaped: shapedLock.ratio >= 0.85,
  inProcessClean: fetchGet.non2xx + fetchLock.non2xx + mswGet.non2xx + shapedLock.non2xx === 0,
  stateDir: stateDir.lock >= 1000 && stateDir.lockP99 <= 20 && stateDir.failed === 0,
  replicas: replicas !== undefined && replicas.rps >= 2000 && replicas.p99 <= 25 && replicas.failed === 0
}
const mark = (ok: boolean): string => (ok ? 'met' : '**missed**')
const rows = [
  ['GET /baas/customers req/s', minimal.get.rps, mock.get.rps, ratio(mock.get.rps, minimal.get.rps), '≥ 0.80', mark(targetsMet.get)],
  ['GET p50 / p99 ms', `${minimal.get.p50} / ${minimal.get.p99}`, `${mock.get.p50} / ${mock.get.p99}`, '', 'p99 ≤ 10', mark(mock.get.p99 <= 10)],
  ['lock + unlock req/s', minimal.lock.rps, mock.lock.rps, ratio(mock.lock.rps, minimal.lock.rps), '≥ 0.70', mark(targetsMet.lock)],
  ['lock + unlock p50 / p99 ms', `${minimal.lock.p50} / ${minimal.lock.p99}`, `${mock.lock.p50} / ${mock.lock.p99}`, '', 'p99 ≤ 10', mark(mock.lock.p99 <= 10)],
  ['cold start to first 200 ms (median of 5)', Math.round(minimal.coldMs), Math.round(mock.coldMs), ratio(mock.coldMs, minimal.coldMs), '≤ 1.5', mark(targetsMet.cold)],
  ['with the code cache off, as at the first start on a machine, ms (median of 5)', '', Math.round(coldFirstMs), ratio(coldFirstMs, minimal.coldMs), '', 'shown'],
  ['RSS idle MB', minimal.idleMb, mock.idleMb, '', '≤ 90', mark(targetsMet.idle)],
  ['RSS after load MB', minimal.afterMb, mock.afterMb, '', '', ''],
  ['with a log line for every request (`--log-requests all`): GET / lock + unlock req/s', '', `${loggingAll.get} / ${loggingAll.lock}`, `${ratio(loggingAll.get, minimal.get.rps)} / ${ratio(loggingAll.lock, minimal.lock.rps)}`, '', 'shown'],
  ['with `--state-dir` (SQLite, every write stored before its answer): lock + unlock req/s, p99 ms; GET req/s', '', `${stateDir.lock}, p99 ${stateDir.lockP99}; GET ${stateDir.get}`, '', '≥ 1,000/s, p99 ≤ 20, 0 errors', mark(targetsMet.stateDir)],
  replicas === undefined
    ? ['two replicas on one Redis (`--store`): lock + unlock req/s, p99 ms', '', `not measured: ${REDIS_SERVER} is not installed`, '', '≥ 2,000/s, p99 ≤ 25, 0 errors', mark(false)]
    : ['two replicas on one Redis (`--store`), 5 sessions each written through both: lock + unlock req/s, p99 ms (the same load on one in-memory process)', '', `${replicas.rps}, p99 ${replicas.p99} (in memory: ${replicas.single}, p99 ${replicas.singleP99})`, ratio(replicas.rps, replicas.single), '≥ 2,000/s, p99 ≤ 25, 0 errors', mark(targetsMet.replicas)],
  ['errors + non-2xx', minimal.get.errors + minimal.get.non2xx + minimal.lock.errors + minimal.lock.non2xx, mock.get.errors + mock.get.non2xx + mock.lock.errors + mock.lock.non2xx, '', '0', mark(targetsMet.clean)]
]
const neighbour = await measureNeighbour(async args => await start('mock', args), stop)
const table = ['| measure | minimal Fastify | baas-mock | ratio | target | |', '|---|---|---|---|---|---|', ...rows.map(r => `| ${r.join(' | ')} |`)].join('\n')
const inProcessRows = [
  ['`mock.fetch` GET /baas/customers req/s', 'stateless Fetch handler', fetchGet.baseline, fetchGet.mock, fetchGet.ratio.toFixed(2), '', 'shown'],
  ['`mock.fetch` lock + unlock req/s', 'stateless Fetch handler', fetchLock.baseline, fetchLock.mock, fetchLock.ratio.toFixed(2), '', 'shown'],
  ['MSW in Node (`setupServer`), GET /baas/customers req/s', 'one hand-written `http.get` handler', mswGet.baseline, mswGet.mock, mswGet.ratio.toFixed(2), '≥ 0.70', mark(targetsMet.msw)],
  ['`mock.fetch` lock + unlock in a dialect (envelope, renamed fields, value maps) req/s', 'the same mock without a dialect', shapedLock.baseline, shapedLock.mock, shapedLock.ratio.toFixed(2), '≥ 0.85', mark(targetsMet.shaped)],
  ['non-2xx', '', '', fetchGet.non2xx + fetchLock.non2xx + mswGet.non2xx + shapedLock.non2xx, '', '0', mark(targetsMet.inProcessClean)]
]
const inProcessTable = ['| in process | baseline | baseline req/s | baas-mock req/s | ratio | target | |', '|---|---|---|---|---|---|---|', ...inProcessRows.map(r => `| ${r.join(' | ')} |`)].join('\n')
const report = `# Benchmark results

\`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${machine}. ${CONNECTIONS} connections, ${DURATION} s per load,
autocannon in the same process as the harness; both servers spawned the same way. The mock runs with its
defaults: validation, sessions and the journal on, logs at \`info\` as JSON lines to a pipe, where a request gets a
line when its answer is 4xx or 5xx (none here). The row "with a log line for every request" is the same mock run
with \`--log-requests all\`, a terminal's default, measured in the same rounds; the row "with \`--state-dir\`" is the mock
keeping its sessions in SQLite on a fresh folder, in the same rounds.
A cold start is the median of ${SPAWNS} starts after one that is not measured; for the mock, that one writes V8's code
cache of the CLI, which the next starts compile from (src/cli/compile-cache.ts). The row "with the code cache off"
is the mock with \`NODE_DISABLE_COMPILE_CACHE=1\`, every start compiling the bundle anew, as the first start on a
machine does (the files are in the OS's cache all the same).
The row "two replicas on one Redis" runs a redis-server of its own and two mocks with \`--store\`, under ten
autocannon loaders of ${Math.max(1, Math.round(CONNECTIONS / 10))} connections each: loader i sends lock + unlock to replica i % 2 in session i % 5, so each
session is written through both replicas at once; the same loaders against one in-memory mock give the figure in brackets.
${ROUNDS} rounds, the order of the two servers alternating; each figure is the median over the rounds.

${table}

Ratios per round (how noisy the machine was): ${perRound}.

In process (bench/in-process.ts, a process of its own per round, ${rounds[0]?.inProcess.seconds ?? 0} s per figure after a warm-up,
${rounds[0]?.inProcess.inFlight ?? 0} requests in flight): \`mock.fetch\` against a Fetch handler that only routes and answers the same bytes, and
\`createHandlers\` under msw/node's \`setupServer\` against one hand-written \`http.get\` handler answering the same
customer JSON, through the global \`fetch\`. Each ratio is taken within one process; the figure is its median over the rounds.

${inProcessTable}

Ratios per round: ${perRoundInProcess}.
`
const neighbourReport = neighbourSection(neighbour, new Date().toISOString().slice(0, 10), machine)
console.log(report + neighbourReport)
const previous = readResults()
const soak = previous.includes('\n## Soak') ? previous.slice(previous.indexOf('\n## Soak')) : ''
writeFileSync(out, report + neighbourReport + soak)
console.log(`wrote ${out}`)
process.exitCode = Object.values({ ...targetsMet, ...neighbourTargets(neighbour) }).every(Boolean) ? 0 : 1
