import t from 'tap'
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'
import { formatRetrySchedule, parseRetrySchedule } from '../../src/webhooks/retry-schedule.js'
import { generateSecret, secretProblem } from '../../src/webhooks/signing.js'
import type { Delivery, DeliveryJob } from '../../src/world/deliveries.js'
import { loadConfig } from '../../src/config/config-loader.js'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

function job (id: string, changes: string[] = [], session = 'default', url = 'http://127.0.0.1:9/never'): DeliveryJob {
  const delivery: Delivery = { id, eventId: `evt_${id}`, eventType: 'card.locked', endpointId: 'ep_x', url, status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: new Date().toISOString() }
  return { delivery, session, payload: '{}', secret: () => SECRET, changed: () => changes.push(`${id}:${delivery.status}`) }
}

/** Bounds large enough not to matter to a test of something else. */
const ROOMY = { maxPendingPerSession: 100, maxInFlightPerSession: 4 }

/** A fetch that never answers until aborted, counting what it was asked. */
function hangingFetch (): { fetch: typeof fetch; started: string[] } {
  const started: string[] = []
  const fake = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    started.push(String((init?.headers as Record<string, string>)['webhook-id']))
    return await new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
  }
  return { fetch: fake as typeof fetch, started }
}

t.test('a session past its share of the queue has its new deliveries refused, visibly and reported once; another session\'s go out', async t => {
  const { fetch, started } = hangingFetch()
  const reports: Array<[string, number]> = []
  let reported: () => void = () => {}
  const done = new Promise<void>(resolve => { reported = resolve })
  const changes: string[] = []
  const dispatcher = new WebhookDispatcher({
    retrySchedule: [0], timeoutMs: 60_000, maxPending: 6, maxPendingPerSession: 3, maxInFlight: 3, maxInFlightPerSession: 2, fetch,
    onRefused: (session, count) => { reports.push([session, count]); reported() }, reportEveryMs: 1
  })
  const flood = ['a1', 'a2', 'a3', 'a4', 'a5'].map(id => job(id, changes, 'flood'))
  for (const j of flood) dispatcher.schedule(j, 0)
  const quiet = job('b1', changes, 'quiet')
  dispatcher.schedule(quiet, 0)
  await new Promise(resolve => setImmediate(resolve))
  t.same(started, ['evt_a1', 'evt_a2', 'evt_b1'], 'the flooding session has its share of the sockets, the quiet one gets the one left')
  t.equal(dispatcher.pending, 4)
  t.equal(dispatcher.refused, 2)
  t.same(changes, ['a4:FAILED', 'a5:FAILED'], 'the flood\'s newest were refused; nothing of the quiet session was dropped')
  t.match(flood[3]?.delivery, { status: 'FAILED', attempts: [], failureReason: /^refused: session flood has 3 deliveries waiting, its share of the webhook queue/ })
  t.match(quiet.delivery, { status: 'PENDING' })
  await done
  t.same(reports, [['flood', 2]], 'one report for the session, not one per delivery')

  // The queue of all sessions full: the newcomer is refused, whatever its session; nobody else's dropped.
  for (const id of ['c1', 'c2', 'c3']) dispatcher.schedule(job(id, changes, 'third'), 0)
  t.equal(dispatcher.pending, 6)
  const late = job('d1', changes, 'fourth')
  dispatcher.schedule(late, 0)
  t.match(late.delivery, { status: 'FAILED', failureReason: /^refused: 6 deliveries of all sessions are waiting/ })
  t.equal(dispatcher.pending, 6)
  await dispatcher.close()
  t.equal(dispatcher.pending, 0)
})

t.test('sockets go round-robin between the sessions with deliveries due', async t => {
  const started: string[] = []
  const answers: Array<() => void> = []
  const fetch = (async (_url: string, init?: RequestInit) => {
    started.push(String((init?.headers as Record<string, string>)['webhook-id']).slice(4))
    return await new Promise<Response>(resolve => answers.push(() => resolve(new Response(null, { status: 204 }))))
  }) as unknown as typeof globalThis.fetch
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0], timeoutMs: 60_000, maxPending: 100, maxPendingPerSession: 10, maxInFlight: 1, maxInFlightPerSession: 4, fetch })
  const cancelled = job('b0', [], 'b')
  for (const j of [job('a1', [], 'a'), job('a2', [], 'a'), job('a3', [], 'a'), cancelled, job('b1', [], 'b'), job('b2', [], 'b')]) dispatcher.schedule(j, 0)
  dispatcher.cancel(cancelled.delivery)
  for (let sent = 1; sent <= 5; sent++) {
    while (started.length < sent) await new Promise(resolve => setImmediate(resolve))
    answers.shift()?.()
  }
  await dispatcher.drained()
  t.same(started, ['a1', 'a2', 'b1', 'a3', 'b2'], 'one session\'s backlog does not hold the other\'s up; a cancelled one is passed over')
  await dispatcher.close()
})

t.test('close() aborts requests in flight, leaves their records PENDING and sends nothing more', async t => {
  const { fetch, started } = hangingFetch()
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0, 10], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, ...ROOMY, fetch })
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
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0, 10], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, ...ROOMY, fetch })
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
  t.throws(() => config({ MOCK_WEBHOOK_URL: 'http://ops:hunter2@example.com/hooks' }), { name: 'ConfigError', message: /must not carry credentials.*got http:\/\/ops:\*\*\*@example\.com\/hooks\.$/ })
  t.throws(() => config({ MOCK_WEBHOOK_URL: 'http://ops:hunter2@exa mple.com' }), { name: 'ConfigError', message: /http: or https: URL, got \(not a URL\)\.$/ })
  t.equal(config({ MOCK_WEBHOOK_URL: 'http://example.com/a@b' }).webhookUrl, 'http://example.com/a@b', 'an @ in the path is no credential')
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
  const dispatcher = new WebhookDispatcher({ retrySchedule: [60_000, 60_000], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, ...ROOMY, fetch })
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

t.test('a URL with credentials kept from an older store is never sent, and its attempt does not quote the password', async t => {
  const { fetch, started } = hangingFetch()
  const dispatcher = new WebhookDispatcher({ retrySchedule: [0], timeoutMs: 60_000, maxPending: 10, maxInFlight: 4, ...ROOMY, fetch })
  const old = job('old', [], 'default', 'http://ops:hunter2@127.0.0.1:2/hooks')
  dispatcher.schedule(old, 0)
  await dispatcher.drained()
  t.same(started, [])
  t.match(old.delivery, { status: 'FAILED', attempts: [{ error: /carries credentials/ }] })
  t.notMatch(JSON.stringify(old.delivery.attempts), /hunter2/)
})
