import t from 'tap'
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'
import { formatRetrySchedule, parseRetrySchedule } from '../../src/webhooks/retry-schedule.js'
import { generateSecret, secretProblem } from '../../src/webhooks/signing.js'
import type { Delivery, DeliveryJob } from '../../src/world/deliveries.js'
import { loadConfig } from '../../src/config/config-loader.js'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

function job (id: string, changes: string[] = []): DeliveryJob {
  const delivery: Delivery = { id, eventId: `evt_${id}`, eventType: 'card.locked', endpointId: 'ep_x', url: 'http://127.0.0.1:9/never', status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: new Date().toISOString() }
  return { delivery, payload: '{}', secret: () => SECRET, changed: () => changes.push(`${id}:${delivery.status}`) }
}

/** A fetch that never answers until aborted, counting what it was asked. */
function hangingFetch (): { fetch: typeof fetch; started: string[] } {
  const started: string[] = []
  const fake = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    started.push(String((init?.headers as Record<string, string>)['webhook-id']))
    return await new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
  }
  return { fetch: fake as typeof fetch, started }
}

t.test('past the bound, the oldest waiting delivery is dropped, counted and reported; in-flight requests stay within theirs', async t => {
  const { fetch, started } = hangingFetch()
  let report: (count: number) => void = () => {}
  const reported = new Promise<number>(resolve => { report = resolve })
  const changes: string[] = []
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0], timeoutMs: 60_000, maxPending: 3, maxInFlight: 1, fetch, onDropped: n => report(n), reportEveryMs: 1 })
  const jobs = ['a', 'b', 'c', 'd', 'e'].map(id => job(id, changes))
  for (const j of jobs) dispatcher.schedule(j, 0)
  await new Promise(resolve => setImmediate(resolve))
  t.same(started, ['evt_a'], 'one request in flight: the bound')
  t.equal(dispatcher.pending, 3)
  t.equal(dispatcher.dropped, 2)
  t.same(changes, ['a:FAILED', 'b:FAILED'], 'the oldest went first, and their records say so')
  t.match(jobs[0]?.delivery, { status: 'FAILED', failureReason: 'dropped: more than 3 deliveries were waiting' })
  t.equal(await reported, 2, 'one report for the drops, not one per delivery')
  await dispatcher.close()
  t.equal(dispatcher.pending, 0)
})

t.test('close() aborts requests in flight, leaves their records PENDING and sends nothing more', async t => {
  const { fetch, started } = hangingFetch()
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0, 10], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, fetch })
  const hung = job('hung')
  const later = job('later')
  dispatcher.schedule(hung, 0)
  dispatcher.schedule(later, 60_000)
  await new Promise(resolve => setImmediate(resolve))
  t.ok(dispatcher.sending(hung.delivery))
  await dispatcher.close()
  t.same(started, ['evt_hung'])
  t.match(hung.delivery, { status: 'PENDING', attempts: [] }, 'a persisted delivery goes on after a restart')
  dispatcher.schedule(job('after'), 0)
  await new Promise(resolve => setImmediate(resolve))
  t.same(started, ['evt_hung'], 'nothing is sent after close')
})

t.test('an endpoint deleted before its attempt makes the delivery fail, unsent', async t => {
  const { fetch, started } = hangingFetch()
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0, 10], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, fetch })
  const orphan = { ...job('orphan'), secret: () => undefined }
  dispatcher.schedule(orphan, 0)
  await dispatcher.drained()
  t.same(started, [])
  t.match(orphan.delivery, { status: 'FAILED', attempts: [{ error: 'the endpoint was deleted' }] })
})

t.test('retry schedules: durations with units, at most 20, each at most a day', async t => {
  t.same(parseRetrySchedule('0,5s,5m,30m,2h,5h,10h'), [0, 5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000])
  t.same(parseRetrySchedule(' 0 , 20ms,20 '), [0, 20, 20])
  t.equal(formatRetrySchedule([0, 5000, 300_000, 7_200_000, 20]), '0,5s,5m,2h,20ms')
  t.throws(() => parseRetrySchedule('5d'), /not a duration/)
  t.throws(() => parseRetrySchedule('25h'), /longer than 24h/)
  t.throws(() => parseRetrySchedule(Array(21).fill('1s').join(',')), /at most 20/)
  const config = (env: Record<string, string>): ReturnType<typeof loadConfig> => loadConfig({ flags: {}, env, cwd: process.cwd(), isTTY: false })
  t.same(config({ MOCK_WEBHOOK_RETRY_SCHEDULE: '0,1s' }).webhookRetrySchedule, [0, 1000])
  t.throws(() => config({ MOCK_WEBHOOK_RETRY_SCHEDULE: 'soon' }), { name: 'ConfigError', message: /MOCK_WEBHOOK_RETRY_SCHEDULE/ })
  t.throws(() => config({ MOCK_WEBHOOK_RETRY_SCHEDULE: '48h' }), { name: 'ConfigError', message: /longer than 24h/ })
  t.throws(() => config({ MOCK_WEBHOOK_URL: 'ftp://example.com' }), { name: 'ConfigError', message: /http: or https:/ })
  t.throws(() => config({ MOCK_WEBHOOK_SECRET: 'hunter2' }), { name: 'ConfigError', message: /whsec_/ })
})

t.test('secrets: whsec_ and the base64 of 16 to 64 random bytes', async t => {
  const secret = generateSecret()
  t.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/)
  t.not(generateSecret(), secret)
  t.equal(secretProblem(secret), undefined)
  t.equal(secretProblem(SECRET), undefined)
  t.match(secretProblem('whsec_c2hvcnQ='), /16 to 64/)
  t.match(secretProblem('whsec_!!!!!!!!!!!!!!!!!!!!!!!!!!!!'), /whsec_/)
})

t.test('a retry by hand of a waiting delivery goes now, in place of the scheduled attempt; one cancelled while sent keeps its status', async t => {
  const started: string[] = []
  let answer: (response: Response) => void = () => {}
  const fetch = (async (_url: string, init?: RequestInit) => {
    started.push(String((init?.headers as Record<string, string>)['webhook-id']))
    return await new Promise<Response>(resolve => { answer = resolve })
  }) as unknown as typeof globalThis.fetch
  const dispatcher = new WebhookDispatcher({ retrySchedule: [60_000, 60_000], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, fetch })
  const waiting = job('waiting')
  dispatcher.schedule(waiting, 60_000)
  t.ok(waiting.delivery.nextAttemptAt !== null)
  dispatcher.retryNow(waiting)
  await new Promise(resolve => setImmediate(resolve))
  t.same(started, ['evt_waiting'], 'sent at once, not in a minute')
  dispatcher.cancel(waiting.delivery)
  answer(new Response(null, { status: 500 }))
  await dispatcher.drained()
  t.match(waiting.delivery, { status: 'PENDING', attempts: [{ status: 500, manual: true }] }, 'the attempt is recorded; what became of the delivery is its owner\'s to say')
  await dispatcher.close()
})
