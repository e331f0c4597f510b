import t from 'tap'
import type { DomainEvent } from '../../src/domain/events.js'
import { NO_DELIVERIES, type DeliveryJob, type DeliveryQueue } from '../../src/world/deliveries.js'
import { plainWebhookContext, SessionWebhooks, type WebhookContext } from '../../src/world/webhooks.js'

const event = (n: number): DomainEvent => ({ type: 'card.locked', at: `2027-01-0${n}T00:00:00.000Z`, entityId: 'card_x', data: { id: 'card_x', status: 'LOCKED', n }, previousAttributes: { status: 'ACTIVE' }, detail: 'Locked' })

/** A queue that sends nothing and remembers what it was given. */
function recordingQueue (): DeliveryQueue & { scheduled: Array<{ id: string; delayMs: number; payload: string }> } {
  const scheduled: Array<{ id: string; delayMs: number; payload: string }> = []
  return { ...NO_DELIVERIES, retrySchedule: [0, 1000], scheduled, schedule: (job: DeliveryJob, delayMs: number) => { scheduled.push({ id: job.delivery.id, delayMs, payload: job.payload }) } }
}

t.test('a session\'s webhook state is plain JSON: snapshot, restore, the same snapshot; waiting deliveries are sent on', async t => {
  const queue = recordingQueue()
  const context: WebhookContext = { ...plainWebhookContext(), queue, seed: 3 }
  const first = new SessionWebhooks('s1', context)
  const endpoint = first.addEndpoint({ url: 'http://127.0.0.1:2/hooks', events: ['card.locked'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  first.record([event(1), event(2)], 'default')
  t.equal(queue.scheduled.length, 2, 'a delivery per event')
  const snapshot = first.snapshot()
  t.same(JSON.parse(JSON.stringify(snapshot)), snapshot, 'nothing but JSON in it')
  t.equal(snapshot.deliveries[0]?.payload, queue.scheduled[0]?.payload, 'a waiting delivery keeps what it sends')

  const restoredQueue = recordingQueue()
  const second = new SessionWebhooks('s1', { ...context, queue: restoredQueue })
  second.restore(JSON.parse(JSON.stringify(snapshot)))
  t.same(second.snapshot(), snapshot, 'the same state back')
  t.same(restoredQueue.scheduled.map(s => [s.id, s.payload]), queue.scheduled.map(s => [s.id, s.payload]), 'both deliveries are sent on after the restore')
  t.same(second.endpoints(), [endpoint])
  second.record([event(3)], 'default')
  const ids = second.query({ order: 'asc' })?.map(e => e.id) ?? []
  t.equal(new Set(ids).size, 3, 'ids made after a restore do not repeat the restored ones, seeded or not')
})

t.test('the event log is bounded: an advance making more events than it keeps stores only the last, and counts them all', async t => {
  const second = new SessionWebhooks('s2', { ...plainWebhookContext(), eventCap: 2 })
  second.record([1, 2, 3, 4, 5].map(event), 'default')
  t.same(second.query({ order: 'asc' })?.map(e => (e.data as { n: number }).n), [4, 5])
  t.equal(second.events.recorded, 5)
})
