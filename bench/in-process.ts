import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createMock, type Mock } from '../src/index.js'
import { createHandlers } from '../src/msw.js'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BUNDLED_FIXTURES } from '../src/config/config.js'

/**
 * The in-process ways in, each against a hand-written stateless baseline answering the same bytes,
 * in this one process (bench.ts spawns it once per round and reads the JSON line it prints):
 *
 * - `mock.fetch` against a Fetch handler that only routes and answers fixed JSON: what the mock's
 *   pipeline (sessions, validation, journal, serialisation) costs on top of Request and Response;
 * - `createHandlers` under msw/node's `setupServer` against one `http.get` handler answering the
 *   customer JSON: MSW's own interception costs most of a request, and the stateful mock should
 *   add little to it.
 *
 * Each figure is requests per second over a fixed time, a few requests in flight at once.
 */
const SECONDS = Number(process.env.BENCH_INPROCESS_SECONDS ?? 3)
const WARM_UP_SECONDS = Math.min(1, SECONDS)
const IN_FLIGHT = 8
/** Alternates which of a pair runs first, so that neither always gets the warmer process. */
const BASELINE_FIRST = process.env.BENCH_BASELINE_FIRST !== 'false'
const ORIGIN = 'https://bank.example'
const HEADERS = { authorization: 'Bearer tok_maya', 'content-type': 'application/json' }

export interface Rate { rps: number; non2xx: number }
export interface InProcessFigures {
  seconds: number
  inFlight: number
  fetchGet: { baseline: Rate; mock: Rate }
  fetchLock: { baseline: Rate; mock: Rate }
  mswGet: { baseline: Rate; mock: Rate }
  /** The same lock + unlock with a dialect (an envelope, renamed fields, a value map) against the mock without one. */
  shapedLock: { baseline: Rate; mock: Rate }
}

/** A team's card and error shapes, as a dialect typically writes them. */
const BENCH_DIALECT = `shapes:
  DebitCard:
    envelope: /data
    fields:
      /id: /id
      /type: { const: card }
      /attributes/card_state: { from: /status, values: { ACTIVE: active, LOCKED: frozen, CLOSED: closed, PENDING_ACTIVATION: pending } }
      /attributes/last_4: /last4
      /attributes/kind: { from: /form, values: { VIRTUAL: virtual, PHYSICAL: plastic } }
      /attributes/updated_at: /updatedAt
  Problem:
    fields: { /errors/0/code: /code, /errors/0/detail: /detail }
`

/** Requests per second of `send` (one or more requests per call) over `seconds`, IN_FLIGHT calls at a time. */
async function rate (send: () => Promise<Response[]>, seconds: number): Promise<Rate> {
  let requests = 0
  let non2xx = 0
  const began = performance.now()
  const until = began + seconds * 1000
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      for (const response of await send()) {
        await response.arrayBuffer()
        requests++
        if (!response.ok) non2xx++
      }
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  return { rps: Math.round(requests / ((performance.now() - began) / 1000)), non2xx }
}

async function measure (send: () => Promise<Response[]>): Promise<Rate> {
  await rate(send, WARM_UP_SECONDS)
  return rate(send, SECONDS)
}

/** Baseline and mock, in this round's order. */
async function pair (measureBaseline: () => Promise<Rate>, measureMock: () => Promise<Rate>): Promise<{ baseline: Rate; mock: Rate }> {
  if (BASELINE_FIRST) {
    const baseline = await measureBaseline()
    return { baseline, mock: await measureMock() }
  }
  const measured = await measureMock()
  return { baseline: await measureBaseline(), mock: measured }
}

const mock: Mock = await createMock({ seed: 1 })
// The baselines answer exactly what the mock answers, taken from it once.
const customerJson = await (await mock.fetch('/baas/customers', { headers: HEADERS })).text()
const lockedJson = await (await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: HEADERS })).text()
const unlockedJson = await (await mock.fetch('/baas/debit-cards/card_maya_virtual/unlock', { method: 'PUT', headers: HEADERS })).text()
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

/** A stateless Fetch handler: routes by method and path, answers fixed JSON. */
async function statelessFetch (request: Request): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (request.method === 'GET' && pathname === '/baas/customers') return new Response(customerJson, { headers: JSON_TYPE })
  if (request.method === 'POST' && pathname.endsWith('/lock')) return new Response(lockedJson, { headers: JSON_TYPE })
  if (request.method === 'PUT' && pathname.endsWith('/unlock')) return new Response(unlockedJson, { headers: JSON_TYPE })
  return new Response(null, { status: 404 })
}

const get = (fetchWith: (request: Request) => Promise<Response>) => async () =>
  [await fetchWith(new Request(`${ORIGIN}/baas/customers`, { headers: HEADERS }))]
const lockUnlock = (fetchWith: (request: Request) => Promise<Response>) => async () => [
  await fetchWith(new Request(`${ORIGIN}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: HEADERS })),
  await fetchWith(new Request(`${ORIGIN}/baas/debit-cards/card_maya_virtual/unlock`, { method: 'PUT', headers: HEADERS }))
]
const mockFetch = (request: Request): Promise<Response> => mock.fetch(request)

// BENCH_ONLY_SHAPED=1: only the dialect's row (node dist/bench/in-process.js), for a quick look.
const onlyShaped = process.env.BENCH_ONLY_SHAPED === '1'
const skipped = { baseline: { rps: 0, non2xx: 0 }, mock: { rps: 0, non2xx: 0 } }
const fetchGet = onlyShaped ? skipped : await pair(() => measure(get(statelessFetch)), () => measure(get(mockFetch)))
const fetchLock = onlyShaped ? skipped : await pair(() => measure(lockUnlock(statelessFetch)), () => measure(lockUnlock(mockFetch)))

const shapedFixtures = mkdtempSync(join(tmpdir(), 'baas-bench-dialect-'))
cpSync(BUNDLED_FIXTURES, shapedFixtures, { recursive: true })
writeFileSync(join(shapedFixtures, 'dialect.yaml'), BENCH_DIALECT)
const shaped: Mock = await createMock({ seed: 1, fixtures: shapedFixtures })
const shapedLock = await pair(() => measure(lockUnlock(mockFetch)), () => measure(lockUnlock(request => shaped.fetch(request))))
await shaped.close()
rmSync(shapedFixtures, { recursive: true, force: true })

/** The app's own fetch, intercepted by MSW's server with these handlers. */
async function underMsw (handlers: Parameters<typeof setupServer>): Promise<Rate> {
  const server = setupServer(...handlers)
  server.listen({ onUnhandledRequest: 'error' })
  try {
    return await measure(get(request => fetch(request)))
  } finally {
    server.close()
  }
}
const statelessMsw = http.get(`${ORIGIN}/baas/customers`, () => new HttpResponse(customerJson, { headers: JSON_TYPE }))
const mswGet = onlyShaped ? skipped : await pair(() => underMsw([statelessMsw]), () => underMsw(createHandlers({ baseUrl: ORIGIN, mock })))

await mock.close()
const figures: InProcessFigures = { seconds: SECONDS, inFlight: IN_FLIGHT, fetchGet, fetchLock, mswGet, shapedLock }
console.log(JSON.stringify(figures))
