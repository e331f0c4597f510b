import t from 'tap'
import type { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'
import { Receiver, until, type Behaviour } from '../helpers/receiver.js'
import { replica, SharedStore, type Replica } from '../helpers/shared-store.js'

/**
 * Webhook deliveries when replicas share the sessions (issue 20): each is sent once, by one
 * replica, and its attempts are in the session as stored, so every replica lists them.
 */

interface Teardown { teardown: (fn: () => unknown) => void }

type Delivery = { id: string; status: string; attempts: Array<{ status?: number; manual?: true }> }

const FAST = { webhookRetrySchedule: [0, 0, 0], webhookTimeoutMs: 5000 }
const maya = { authorization: 'Bearer tok_maya' }

async function receiver (t: Teardown, behaviour?: Behaviour): Promise<Receiver> {
  const started = await Receiver.start(behaviour)
  t.teardown(() => started.close())
  return started
}

async function json<T> (response: Promise<Response>): Promise<T> {
  return await (await response).json() as T
}

const deliveriesOf = async (r: Replica): Promise<Delivery[]> => (await json<{ data: Delivery[] }>(r.fetch('/__mock/webhooks/deliveries'))).data

/** The session's only delivery as `r` lists it, once it has `attempts` attempts and has settled. */
async function settledOn (r: Replica, attempts: number): Promise<Delivery> {
  return await until(async () => {
    const [delivery, ...more] = await deliveriesOf(r)
    return more.length === 0 && delivery !== undefined && delivery.status !== 'PENDING' && delivery.attempts.length === attempts ? delivery : undefined
  }, `a settled delivery with ${attempts} attempts`, 10_000, async () => await deliveriesOf(r))
}

/** Nothing waits or is being sent on either replica: any duplicate would have gone out by now. */
async function drained (...replicas: Replica[]): Promise<void> {
  for (const r of replicas) await (r.services.sessions.webhooks.queue as WebhookDispatcher).drained()
}

async function setUp (t: Teardown, behaviour?: Behaviour, overrides = {}): Promise<{ hooks: Receiver; a: Replica; b: Replica }> {
  const hooks = await receiver(t, behaviour)
  const store = new SharedStore()
  const a = replica(store, { ...FAST, ...overrides }, t)
  const b = replica(store, { ...FAST, ...overrides }, t)
  const added = await a.fetch('/__mock/webhooks/endpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: hooks.url }) })
  if (added.status !== 201) throw new Error(`adding the endpoint answered ${added.status}`)
  return { hooks, a, b }
}

const lock = async (r: Replica): Promise<number> => (await r.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: maya })).status

t.test('an event made through replica A is delivered once, though both replicas serve the session\'s later requests', async t => {
  const { hooks, a, b } = await setUp(t)
  t.equal(await lock(a), 200)
  // Every request below loads the session on its replica, the delivery still waiting or settled.
  t.equal((await b.fetch('/__mock/state')).status, 200)
  t.equal((await a.fetch('/__mock/state')).status, 200)
  const [received] = await hooks.next(1)
  t.equal((await b.fetch('/baas/customers', { headers: maya })).status, 200)
  const seen = await settledOn(b, 1)
  t.match(seen, { status: 'SUCCEEDED', attempts: [{ status: 200 }] }, 'B lists the attempt A made')
  await drained(a, b)
  t.equal((await a.fetch('/__mock/state')).status, 200)
  t.equal((await b.fetch('/__mock/state')).status, 200)
  await drained(a, b)
  t.equal(hooks.received.length, 1, 'one request reached the receiver')
  t.same(await deliveriesOf(a), [seen], 'A lists the same')
  t.ok(received?.headers['webhook-id'])
})

t.test('a failing first attempt, then a success: replica B lists both attempts of the delivery A sent', async t => {
  const { hooks, a, b } = await setUp(t, n => (n === 0 ? 500 : 200))
  t.equal(await lock(a), 200)
  const seen = await settledOn(b, 2)
  t.same(seen.attempts.map(attempt => attempt.status), [500, 200])
  t.equal(seen.status, 'SUCCEEDED')
  await drained(a, b)
  t.equal(hooks.received.length, 2, 'two attempts, no more')
  t.same(new Set(hooks.received.map(r => r.headers['webhook-id'])).size, 1, 'the same webhook-id')
})

t.test('a receiver that always fails gets as many attempts as the schedule has, then the delivery has FAILED, on every replica', async t => {
  const { hooks, a, b } = await setUp(t, () => 500)
  t.equal(await lock(a), 200)
  const seen = await settledOn(b, 3)
  t.equal(seen.status, 'FAILED')
  await drained(a, b)
  t.equal(hooks.received.length, 3, 'no attempt beyond the schedule')
  t.same(await deliveriesOf(a), [seen])
})

t.test('a retry through replica B is sent once, from B, and A lists it', async t => {
  const { hooks, a, b } = await setUp(t)
  t.equal(await lock(a), 200)
  const first = await settledOn(b, 1)
  await drained(a, b)
  t.equal(hooks.received.length, 1)
  const retried = await b.fetch(`/__mock/webhooks/deliveries/${first.id}/retry`, { method: 'POST' })
  t.equal(retried.status, 202)
  t.equal((await a.fetch('/__mock/state')).status, 200, 'A loads the session while the retry is under way')
  const again = await settledOn(a, 2)
  t.match(again, { status: 'SUCCEEDED', attempts: [{ status: 200 }, { status: 200, manual: true }] }, 'A lists the attempt B made by hand')
  await drained(a, b)
  t.equal((await b.fetch('/__mock/state')).status, 200)
  await drained(a, b)
  t.equal(hooks.received.length, 2, 'the retry reached the receiver once')
})

t.test('a retry through B of a delivery waiting on A\'s schedule: when it fails, B goes on with the schedule', async t => {
  // A's second attempt would wait a minute; B's retry takes the delivery over, and its schedule's next step is at once.
  const { hooks, a, b } = await setUp(t, n => (n < 2 ? 500 : 200), { webhookRetrySchedule: [0, 60_000, 0] })
  t.equal(await lock(a), 200)
  const waiting = await until(async () => {
    const [delivery] = await deliveriesOf(b)
    return delivery?.attempts.length === 1 ? delivery : undefined
  }, 'the first attempt, listed by B')
  t.equal(waiting.status, 'PENDING')
  t.equal((await b.fetch(`/__mock/webhooks/deliveries/${waiting.id}/retry`, { method: 'POST' })).status, 202)
  const seen = await settledOn(a, 3)
  t.same(seen.attempts.map(attempt => [attempt.status, attempt.manual]), [[500, undefined], [500, true], [200, undefined]], 'the failed retry left it PENDING, and B sent the next attempt')
  t.equal(seen.status, 'SUCCEEDED')
  await drained(b)
  t.equal(hooks.received.length, 3)
})

t.test('a retry of a delivery another replica is sending now answers 409 webhook_delivery_in_flight', async t => {
  const hooks = await receiver(t, () => 'hang')
  const store = new SharedStore()
  const a = replica(store, FAST, t)
  const b = replica(store, FAST, t)
  await a.fetch('/__mock/webhooks/endpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: hooks.url }) })
  t.equal(await lock(a), 200)
  await hooks.next(1)
  const [delivery] = await deliveriesOf(b)
  const retried = await b.fetch(`/__mock/webhooks/deliveries/${delivery?.id ?? ''}/retry`, { method: 'POST' })
  t.equal(retried.status, 409)
  t.match(await retried.json(), { code: 'webhook_delivery_in_flight' })
  t.equal(hooks.received.length, 1, 'nothing more was sent')
})

t.test('a delivery whose replica died before sending it is taken over by another, once its claim ran out', async t => {
  // A short time-out: a claim lasts the attempt's time-out twice past its due time.
  const { hooks, a, b } = await setUp(t, undefined, { webhookTimeoutMs: 100 })
  await a.services.sessions.webhooks.queue.close() // A records the event, then sends nothing: as if it died
  t.equal(await lock(a), 200)
  t.match(await deliveriesOf(b), [{ status: 'PENDING', attempts: [] }], 'recorded, not sent')
  // Each listing is a request of the session on B: the first after the claim ran out takes the delivery over.
  const seen = await settledOn(b, 1)
  t.match(seen, { status: 'SUCCEEDED', attempts: [{ status: 200 }] })
  await drained(b)
  t.equal(hooks.received.length, 1)
})

t.test('the deliveries list pages across replicas: a cursor from A reads on through B, each delivery once', async t => {
  const { hooks, a, b } = await setUp(t)
  for (const path of ['lock', 'unlock', 'lock']) {
    const status = (await (path === 'unlock' ? b : a).fetch(`/baas/debit-cards/card_maya_virtual/${path}`, { method: path === 'unlock' ? 'PUT' : 'POST', headers: maya })).status
    t.equal(status, 200)
  }
  await hooks.next(3)
  await drained(a, b)
  const seen: string[] = []
  let cursor: string | undefined
  for (const [i, r] of [a, b, a, b].entries()) {
    const page = await json<{ data: Delivery[]; nextCursor?: string }>(r.fetch(`/__mock/webhooks/deliveries?order=asc&limit=1${cursor === undefined ? '' : `&cursor=${cursor}`}`))
    seen.push(...page.data.map(d => d.id))
    cursor = page.nextCursor
    if (cursor === undefined) {
      t.equal(i, 2, 'three pages of one')
      break
    }
  }
  t.equal(new Set(seen).size, 3, 'three deliveries, none twice')
  t.same(seen, (await json<{ data: Delivery[] }>(b.fetch('/__mock/webhooks/deliveries?order=asc'))).data.map(d => d.id))
})
