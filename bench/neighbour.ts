import type { ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * The noisy neighbour (issue 28): session A hammers what a client can multiply (set-PIN links,
 * chained reissues, codes to new numbers) and webhook-triggering writes (lock, unlock) at a steady
 * high rate, while session B sends a quiet steady load whose events go to a healthy receiver. B's
 * latency and deliveries are measured alone first (the quiet run), then beside A, in the same server
 * process; the target is B within 2× of its quiet run. A's rate is fixed (as the audit's client,
 * which sent 29,671 links in 80 s), so the comparison shows what A's growing state costs B, not
 * how many cores the machine has left. Knobs: NEIGHBOUR_SECONDS (A's minute), NEIGHBOUR_QUIET_SECONDS,
 * NEIGHBOUR_A_RATE, NEIGHBOUR_B_RATE (requests per second).
 */
const NOISY_SECONDS = Number(process.env.NEIGHBOUR_SECONDS ?? 60)
const QUIET_SECONDS = Number(process.env.NEIGHBOUR_QUIET_SECONDS ?? 20)
const A_RATE = Number(process.env.NEIGHBOUR_A_RATE ?? 400)
const B_RATE = Number(process.env.NEIGHBOUR_B_RATE ?? 40)
/** Time for the last deliveries of a phase to arrive before they are counted. */
const DRAIN_MS = 3000

export interface StartedMock { child: ChildProcess; url: string }
type StartMock = (extraArgs: string[]) => Promise<StartedMock>
type StopMock = (child: ChildProcess) => Promise<void>

/** What B saw in one phase. */
export interface SideFigures {
  requests: number
  p50: number
  p99: number
  failed: number
  /** B's writes that changed a card, each an event for its endpoint. */
  events: number
  delivered: number
  /** Receiver arrival minus the event's timestamp (the session clock runs in real time here), ms. */
  deliveryP50: number
  deliveryP99: number
}

export interface NeighbourFigures {
  quiet: SideFigures
  noisy: SideFigures
  a: { requests: number; rate: number; statuses: Record<string, number>; held: Record<string, number>; delivered: number }
  /** A GET in A, at its caps, and in B, after the load (sequential, ms per request). */
  getAtCapsMs: number
  getQuietMs: number
  seconds: { quiet: number; noisy: number }
  rates: { a: number; b: number }
  /** The machine's 1-minute load average as the quiet run began and as A stopped: a shared machine's noise. */
  load: { quiet: number; noisy: number }
}

const percentile = (xs: number[], p: number): number => {
  if (xs.length === 0) return 0
  const sorted = [...xs].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 100) / 100
}

/** A receiver answering 200 at once, as a healthy backend: per session, when each event arrived after it happened. */
async function receiver (): Promise<{ server: Server; url: string; lags: Map<string, Array<{ at: number; lag: number }>> }> {
  const lags = new Map<string, Array<{ at: number; lag: number }>>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString() })
    req.on('end', () => {
      const now = Date.now()
      const session = (req.url ?? '').split('/').at(-1) ?? ''
      const timestamp = Date.parse((JSON.parse(body) as { timestamp: string }).timestamp)
      const list = lags.get(session) ?? []
      lags.set(session, list)
      list.push({ at: now, lag: now - timestamp })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, lags }
}

interface Answer { status: number; body: Record<string, unknown> }

function client (base: string, session: string) {
  return async (method: string, path: string, token = 'tok_maya', body?: unknown): Promise<Answer & { ms: number }> => {
    const began = performance.now()
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-mock-session': session },
      ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) })
    })
    const text = await response.text()
    const ms = performance.now() - began
    return { status: response.status, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown>, ms }
  }
}

/** Hands out `rate` permits a second to whoever awaits one, in turn. */
function pacer (rate: number, until: number): () => Promise<boolean> {
  let next = performance.now()
  return async () => {
    const now = performance.now()
    next = Math.max(next + 1000 / rate, now - 50)
    if (next > until) return false
    if (next > now) await sleep(next - now)
    return true
  }
}

/** B's steady load: a read, a lock, a read, an unlock, in turn, at B_RATE; the card is left unlocked (that unlock is an event too). */
async function quietLoad (call: ReturnType<typeof client>, seconds: number): Promise<{ latencies: number[]; failed: number; events: number }> {
  const permit = pacer(B_RATE, performance.now() + seconds * 1000)
  const latencies: number[] = []
  let failed = 0
  let events = 0
  const steps: Array<[string, string]> = [['GET', '/baas/customers'], ['POST', '/baas/debit-cards/card_maya_virtual/lock'], ['GET', '/baas/customers'], ['PUT', '/baas/debit-cards/card_maya_virtual/unlock']]
  let i = 0
  for (; await permit(); i++) {
    const [method, path] = steps[i % steps.length] as [string, string]
    const answer = await call(method, path)
    latencies.push(answer.ms)
    if (answer.status !== 200) failed++
    else if (method !== 'GET') events++
  }
  if (i % steps.length >= 2 && (await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock')).status === 200) events++
  return { latencies, failed, events }
}

/** Requests A keeps in flight: enough for A_RATE on a loaded machine, where a request can take tens of ms. */
const A_IN_FLIGHT = 24

/**
 * A's hammering. Per writable persona, a chain: a reissue of its current card (the chain goes on
 * from the new one). Beside the chains, workers send set-PIN links for a persona's current card,
 * codes to new numbers, and locks and unlocks of the current card (webhook events), in turn.
 */
async function noisyLoad (call: ReturnType<typeof client>, seconds: number): Promise<Record<string, number>> {
  const permit = pacer(A_RATE, performance.now() + seconds * 1000)
  const statuses: Record<string, number> = {}
  const seen = (answer: Answer): Answer => {
    const key = answer.status < 300 ? String(answer.status) : `${answer.status} ${String(answer.body.code)}`
    statuses[key] = (statuses[key] ?? 0) + 1
    return answer
  }
  const personas = [
    { token: 'tok_maya', card: 'card_maya_virtual', area: '415' },
    { token: 'tok_jordan', card: 'card_jordan_virtual', area: '212' },
    { token: 'tok_sam', card: 'card_sam_locked', area: '312' }
  ]
  const chains = personas.map(async persona => {
    while (await permit()) {
      const reissued = seen(await call('POST', `/baas/debit-cards/${persona.card}/reissue`, persona.token, { reason: 'LOST' }))
      if (reissued.status === 201) persona.card = String(reissued.body.id)
    }
  })
  let n = 0
  const sprays = Array.from({ length: A_IN_FLIGHT - personas.length }, async () => {
    while (await permit()) {
      const i = n++
      const persona = personas[i % personas.length] as typeof personas[number]
      switch (Math.floor(i / personas.length) % 4) {
        case 0: seen(await call('POST', `/baas/debit-cards/${persona.card}/set-pin-url`, persona.token)); break
        case 1: seen(await call('POST', '/mfa/send-code', persona.token, { phone: `+1${persona.area}555${String(i % 10_000).padStart(4, '0')}` })); break
        case 2: seen(await call('POST', `/baas/debit-cards/${persona.card}/lock`, persona.token)); break
        default: seen(await call('PUT', `/baas/debit-cards/${persona.card}/unlock`, persona.token))
      }
    }
  })
  await Promise.all([...chains, ...sprays])
  return statuses
}

function side (load: { latencies: number[]; failed: number; events: number }, lags: Array<{ at: number; lag: number }>): SideFigures {
  const ms = lags.map(l => l.lag)
  return {
    requests: load.latencies.length, p50: percentile(load.latencies, 0.5), p99: percentile(load.latencies, 0.99), failed: load.failed,
    events: load.events, delivered: lags.length, deliveryP50: percentile(ms, 0.5), deliveryP99: percentile(ms, 0.99)
  }
}

async function getMs (call: ReturnType<typeof client>, times = 500): Promise<number> {
  const all: number[] = []
  for (let i = 0; i < times; i++) all.push((await call('GET', '/baas/customers')).ms)
  return percentile(all, 0.5)
}

export async function measureNeighbour (start: StartMock, stop: StopMock): Promise<NeighbourFigures> {
  const hooks = await receiver()
  const mock = await start([])
  try {
    const a = client(mock.url, 'neighbour-a')
    const b = client(mock.url, 'neighbour-b')
    for (const [call, name] of [[a, 'a'], [b, 'b']] as const) {
      const made = await call('POST', '/__mock/webhooks/endpoints', undefined, { url: `${hooks.url}/${name}` })
      if (made.status !== 201) throw new Error(`could not add the webhook endpoint of session ${name}: ${made.status} ${JSON.stringify(made.body)}`)
    }
    await quietLoad(b, 2) // warm-up, not reported
    await sleep(DRAIN_MS)
    const since = (from: number, to: number): Array<{ at: number; lag: number }> => (hooks.lags.get('b') ?? []).filter(l => l.at >= from && l.at < to)

    const quietLoadAverage = loadavg()[0] ?? 0
    const quietFrom = Date.now()
    const quiet = await quietLoad(b, QUIET_SECONDS)
    await sleep(DRAIN_MS)
    const quietTo = Date.now()

    const noisyFrom = Date.now()
    const aDeliveredBefore = hooks.lags.get('a')?.length ?? 0
    const [noisy, statuses] = await Promise.all([quietLoad(b, NOISY_SECONDS), noisyLoad(a, NOISY_SECONDS)])
    const noisyLoadAverage = loadavg()[0] ?? 0
    await sleep(DRAIN_MS)
    const noisyTo = Date.now()

    const state = (await a('GET', '/__mock/state')).body as Record<string, unknown[]>
    const held = { cards: state.debitCards?.length ?? 0, pinLinks: state.pinLinks?.length ?? 0, phoneVerifications: state.phoneVerifications?.length ?? 0 }
    const aRequests = Object.values(statuses).reduce((n, c) => n + c, 0)
    return {
      quiet: side(quiet, since(quietFrom, quietTo)),
      noisy: side(noisy, since(noisyFrom, noisyTo)),
      a: { requests: aRequests, rate: Math.round(aRequests / NOISY_SECONDS), statuses, held, delivered: (hooks.lags.get('a')?.length ?? 0) - aDeliveredBefore },
      getAtCapsMs: await getMs(a),
      getQuietMs: await getMs(b),
      seconds: { quiet: QUIET_SECONDS, noisy: NOISY_SECONDS },
      rates: { a: A_RATE, b: B_RATE },
      load: { quiet: Math.round(quietLoadAverage * 10) / 10, noisy: Math.round(noisyLoadAverage * 10) / 10 }
    }
  } finally {
    await stop(mock.child)
    hooks.server.closeAllConnections()
    await new Promise(resolve => hooks.server.close(resolve))
  }
}

/** Within 2× of the quiet run: B's p99, its deliveries' p99 lag, and every event of B's delivered. */
export function neighbourTargets (f: NeighbourFigures): { p99: boolean; deliveries: boolean; lag: boolean; clean: boolean } {
  return {
    p99: f.noisy.p99 <= 2 * f.quiet.p99,
    deliveries: f.noisy.delivered >= f.noisy.events && f.quiet.delivered >= f.quiet.events,
    lag: f.noisy.deliveryP99 <= 2 * Math.max(f.quiet.deliveryP99, 1),
    clean: f.quiet.failed + f.noisy.failed === 0
  }
}

export function neighbourSection (f: NeighbourFigures, date: string, machine: string): string {
  const met = neighbourTargets(f)
  const mark = (ok: boolean): string => (ok ? 'met' : '**missed**')
  const ratio = (a: number, b: number): string => (b === 0 ? 'n/a' : (a / b).toFixed(2))
  const statuses = Object.entries(f.a.statuses).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => `${k}: ${v.toLocaleString('en-US')}`).join(', ')
  return `
## Noisy neighbour

\`BENCH_ONLY=neighbour npm run bench\` (also the last part of a whole \`npm run bench\`) on ${date}: ${machine}. One mock with
its defaults; session B sends ${f.rates.b} requests/s (a read, a lock, a read, an unlock) whose events go to a receiver on
loopback answering 200 at once: ${f.seconds.quiet} s alone (quiet), then ${f.seconds.noisy} s while session A, in the same process, sends ${f.rates.a}
requests/s: for each of three personas, reissues of its card (the chain goes on from the new card), set-PIN links, codes to
new numbers, locks and unlocks, its events to the same receiver (${A_IN_FLIGHT} requests in flight at most). A delivery's lag is its arrival minus its event's
timestamp. The machine's load average (1 minute) was ${f.load.quiet} as the quiet run began and ${f.load.noisy} as A stopped.

| session B | quiet | beside A | ratio | target | |
|---|---|---|---|---|---|
| requests, p50 / p99 ms | ${f.quiet.requests.toLocaleString('en-US')}, ${f.quiet.p50} / ${f.quiet.p99} | ${f.noisy.requests.toLocaleString('en-US')}, ${f.noisy.p50} / ${f.noisy.p99} | ${ratio(f.noisy.p99, f.quiet.p99)} | p99 ≤ 2× quiet | ${mark(met.p99)} |
| events delivered / made | ${f.quiet.delivered} / ${f.quiet.events} | ${f.noisy.delivered} / ${f.noisy.events} | | all | ${mark(met.deliveries)} |
| delivery lag p50 / p99 ms | ${f.quiet.deliveryP50} / ${f.quiet.deliveryP99} | ${f.noisy.deliveryP50} / ${f.noisy.deliveryP99} | ${ratio(f.noisy.deliveryP99, Math.max(f.quiet.deliveryP99, 1))} | p99 ≤ 2× quiet (at least 1 ms) | ${mark(met.lag)} |
| failed requests | ${f.quiet.failed} | ${f.noisy.failed} | | 0 | ${mark(met.clean)} |

Session A: ${f.a.requests.toLocaleString('en-US')} requests (${f.a.rate}/s; ${statuses}); ${f.a.delivered.toLocaleString('en-US')} of its events delivered; it holds
${f.a.held.cards} cards, ${f.a.held.pinLinks} set-PIN links and ${f.a.held.phoneVerifications} pending codes at the end (the caps). A GET afterwards, p50 of 500 in turn:
${f.getAtCapsMs} ms in A, at its caps; ${f.getQuietMs} ms in B.
`
}
