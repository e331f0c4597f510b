import fc from 'fast-check'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { ContractValidator } from '../helpers/contract.js'
import { endpointsOf, entities, request, SEED, starPattern, toInject, type FuzzRequest } from './arbitraries.js'

/**
 * Every endpoint (API and control plane) against generated valid and invalid paths, query strings,
 * headers and bodies. Properties: no 5xx the caller did not ask for; every 4xx is problem+json with
 * a code; every answer matches the OpenAPI document; a rejected request changes no entity.
 */

/** Sessions whose entities are compared around every request. */
const WATCHED = ['fuzz', 'default', 'other-1']

/** Answers the caller chose (Prefer, a response example, a fault rule) may be anything, 5xx included. */
const CHOSEN_SOURCES = new Set(['prefer', 'override', 'fault'])

/**
 * A wrong code is a rejected request that must change state: it spends one of the code's checks, and
 * an expired or exhausted verification is removed. Those rules have their own properties.
 */
const REJECTION_CHANGES_STATE = new Set(['verifyPhoneVerificationCode'])

/** The PIN page is for people: its errors are HTML pages (see routes/mock/pin.ts). */
const HTML_ERRORS = new Set(['mockPinPage'])

t.test('no request, however malformed, gets an unasked-for 5xx, a non-problem 4xx or changes state when rejected', async t => {
  const { app } = await buildTestApp(t)
  const contract = new ContractValidator(app.swagger() as never)
  const endpoints = endpointsOf(app.swagger() as never)
  t.ok(endpoints.length >= 40, `fuzzing ${endpoints.length} endpoints`)
  const settle = async (session: string): Promise<void> => {
    // Brings a fresh session's fixtures up to its clock, so the first request does not fire due work.
    await app.inject({ method: 'POST', url: '/__mock/clock/advance', headers: { 'x-mock-session': session }, payload: { by: 'PT0S' } })
  }
  for (const session of WATCHED) await settle(session)

  const seen = new Map<string, number>()
  await fc.assert(fc.asyncProperty(request(endpoints), async (req: FuzzRequest) => {
    const before = await Promise.all(WATCHED.map(s => entities(app, s)))
    const res = await app.inject(toInject(req))
    const type = String(res.headers['content-type'] ?? '')
    const source = String(res.headers['x-mock-source'] ?? '')
    const where = `${req.endpoint.method} ${req.url} → ${res.statusCode} ${type}\n${res.body.slice(0, 300)}`
    seen.set(req.endpoint.operationId, (seen.get(req.endpoint.operationId) ?? 0) + 1)

    if (res.statusCode >= 500 && !CHOSEN_SOURCES.has(source)) throw new Error(`unasked-for 5xx: ${where}`)
    // A segment such as `.` or `..` normalises the URL onto no route at all: the document cannot describe that 404.
    const unrouted = res.statusCode === 404 && res.body.includes('"code":"route_not_found"')
    // Dot segments are resolved before the request leaves (as any client does): check the path that was sent.
    const sent = new URL(req.url, 'http://mock.test').pathname
    if (!CHOSEN_SOURCES.has(source) && !unrouted) contract.check(req.endpoint.method, sent, res.statusCode, type, res.body, res.headers)
    if (res.statusCode >= 400 && res.statusCode < 500 && !CHOSEN_SOURCES.has(source) && !(HTML_ERRORS.has(req.endpoint.operationId) && type.startsWith('text/html'))) {
      if (!type.startsWith('application/problem+json')) throw new Error(`4xx without problem+json: ${where}`)
      const problem = JSON.parse(res.body) as { code?: unknown; status?: unknown }
      if (typeof problem.code !== 'string' || problem.code === '' || problem.status !== res.statusCode) throw new Error(`problem without code or status: ${where}`)
      if (!REJECTION_CHANGES_STATE.has(req.endpoint.operationId)) {
        const after = await Promise.all(WATCHED.map(s => entities(app, s)))
        for (let i = 0; i < WATCHED.length; i++) {
          if (JSON.stringify(before[i]) !== JSON.stringify(after[i])) {
            throw new Error(`rejected request changed session ${WATCHED[i]}: ${where}`)
          }
        }
      }
    }
    // A fault rule the fuzzer managed to add must not slow down or break the runs after it.
    if (req.endpoint.operationId === 'mockAddFault' && res.statusCode === 201) {
      await app.inject({ method: 'DELETE', url: '/__mock/faults', headers: { 'x-mock-session': req.headers['x-mock-session'] ?? 'default' } })
    }
    if (req.endpoint.operationId === 'mockDeleteSession' || req.endpoint.operationId === 'mockReset') for (const session of WATCHED) await settle(session)
  }), { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? 1500), interruptAfterTimeLimit: Number(process.env.FC_MS ?? 25_000), markInterruptAsFailure: false })

  t.ok(seen.size >= endpoints.length * 0.9, `reached ${seen.size} of ${endpoints.length} endpoints`)
  const health = await app.inject({ method: 'GET', url: '/healthz' })
  t.equal(health.statusCode, 200, 'the app still answers after the fuzzing')
})

t.test('the journal filter answers every pattern of stars over long paths the client chose', async t => {
  const { app } = await buildTestApp(t)
  const paths = [`/baas/${'a'.repeat(3000)}`, `/baas/${'x'.repeat(3000)}`, `/baas/${'ax/'.repeat(500)}`]
  for (const url of paths) await app.inject({ method: 'GET', url })
  let runs = 0
  await fc.assert(fc.asyncProperty(starPattern, async pattern => {
    const res = await app.inject({ method: 'GET', url: `/__mock/requests?path=${encodeURIComponent(pattern)}` })
    runs++
    if (res.statusCode !== 200) throw new Error(`?path=${pattern} answered ${res.statusCode}: ${res.body.slice(0, 300)}`)
    const found = (JSON.parse(res.body) as { data: Array<{ path: string }> }).data.map(entry => entry.path)
    for (const path of found) if (!paths.includes(path)) throw new Error(`?path=${pattern} found ${path}`)
  }), { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? 300) })
  t.ok(runs > 0, `${runs} patterns answered`)
})
