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

t.test('a session\'s webhook state is plain JSON: snapshot and event rows, restore, the same back; waiting deliveries are sent on', async t => {
  const queue = recordingQueue()
  const context: WebhookContext = { ...plainWebhookContext(), queue, seed: 3 }
  const first = new SessionWebhooks('s1', context)
  const endpoint = first.addEndpoint({ url: 'http://127.0.0.1:2/hooks', events: ['card.locked'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  first.record([event(1), event(2)], 'default')
  t.equal(queue.scheduled.length, 2, 'a delivery per event')
  const snapshot = first.snapshot()
  const rows = first.events.rowsAfter(0)
  t.same(JSON.parse(JSON.stringify(snapshot)), snapshot, 'nothing but JSON in it')
  t.same(JSON.parse(JSON.stringify(rows)), rows, 'nor in the event rows')
  t.equal(snapshot.events, undefined, 'the events are rows of their own, not in the snapshot')
  t.same(rows.map(r => r.id), [1, 2], 'each numbered in the session')
  t.equal(snapshot.deliveries[0]?.payload, queue.scheduled[0]?.payload, 'a waiting delivery keeps what it sends')

  const restoredQueue = recordingQueue()
  const second = new SessionWebhooks('s1', { ...context, queue: restoredQueue })
  second.restore(JSON.parse(JSON.stringify(snapshot)))
  second.restoreEvents(first.events.recorded, JSON.parse(JSON.stringify(rows)))
  t.same(second.snapshot(), snapshot, 'the same state back')
  t.same(second.events.rowsAfter(0), rows, 'the same events, numbered alike')
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

t.test('deliveries: the oldest past the listed cap goes (a waiting one is counted as dropped); a deleted endpoint fails its waiting ones', async t => {
  const queue = recordingQueue()
  const cancelled: string[] = []
  const webhooks = new SessionWebhooks('s3', { ...plainWebhookContext(), queue: { ...queue, cancel: d => { cancelled.push(d.id) } }, deliveryCap: 2 })
  const endpoint = webhooks.addEndpoint({ url: 'http://127.0.0.1:2/hooks', events: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  webhooks.record([event(1), event(2), event(3)], 'default')
  const listed = webhooks.deliveries()
  t.equal(listed.length, 2)
  t.equal(webhooks.droppedDeliveries, 1)
  t.equal(cancelled.length, 1, 'the dropped one will not be sent')
  t.ok(webhooks.removeEndpoint(endpoint.id))
  t.same(webhooks.deliveries().map(d => [d.status, d.failureReason]), [['FAILED', 'the endpoint was deleted'], ['FAILED', 'the endpoint was deleted']])
  t.notOk(webhooks.removeEndpoint(endpoint.id), 'gone')
  t.throws(() => webhooks.retry(listed[0]?.id ?? ''), { code: 'webhook_endpoint_deleted' })
})

t.test('a restored delivery that lost its payload fails rather than send something else', async t => {
  const webhooks = new SessionWebhooks('s4', plainWebhookContext())
  const snapshot = webhooks.snapshot()
  webhooks.restore({
    ...snapshot,
    endpoints: [{ id: 'ep_x', url: 'http://127.0.0.1:2/hooks', events: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
    deliveries: [{ id: 'dlv_x', eventId: 'evt_x', eventType: 'card.locked', endpointId: 'ep_x', url: 'http://127.0.0.1:2/hooks', status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: '2027-01-01T00:00:00.000Z' }]
  })
  t.match(webhooks.delivery('dlv_x'), { status: 'FAILED', failureReason: 'not restored with its payload' })
  t.throws(() => webhooks.retry('dlv_x'), { code: 'webhook_event_gone' })
  t.equal(webhooks.retry('dlv_nope'), undefined)
})

t.test('the logs of all sessions share one byte budget: past it the oldest event goes, whatever its session', async t => {
  const context = { ...plainWebhookContext(), eventBudget: new (await import('../../src/world/journal-budget.js')).JournalBudget(1000) }
  const a = new SessionWebhooks('a', context)
  const b = new SessionWebhooks('b', context)
  a.record([event(1), event(2)], 'default')
  b.record([event(3), event(4)], 'default')
  t.ok(context.eventBudget.bytes <= 1000, 'two events of about 430 accounted bytes fit, not three')
  t.same(a.query({ order: 'asc' })?.map(e => (e.data as { n: number }).n), [], 'a\'s events were the oldest')
  t.same(b.query({ order: 'asc' })?.map(e => (e.data as { n: number }).n), [3, 4])
  a.close()
  b.close()
  t.equal(context.eventBudget.bytes, 0, 'closed sessions give their bytes back')
})

t.test('a body template that fails sends nothing, and says why; a text body is kept as text', async t => {
  const queue = recordingQueue()
  const override = (body: (context: unknown) => string) => ({ file: 'events.yaml', silent: false, type: undefined, body })
  const failing = new SessionWebhooks('s5', {
    ...plainWebhookContext(), queue,
    presentation: { data: e => JSON.stringify(e.data), override: (_scenario, type) => override(type === 'card.locked' ? () => { throw new Error('boom') } : () => 'plain text') }
  })
  failing.addEndpoint({ url: 'http://127.0.0.1:2/hooks', events: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  failing.record([event(1), { ...event(2), type: 'card.unlocked' }], 'default')
  const [text, failed] = failing.query() ?? []
  t.match(failed, { type: 'card.locked', templateError: 'events.yaml: boom' })
  t.equal(failed?.payload, undefined)
  t.equal(text?.payload, 'plain text')
  t.same(queue.scheduled.map(s => s.payload), ['plain text'], 'only the event whose body rendered is delivered')
})

t.test('an event recorded moves no revision of the webhook state (its row is saved instead); an endpoint or a delivery does', async t => {
  const webhooks = new SessionWebhooks('s6', { ...plainWebhookContext(), queue: recordingQueue() })
  const before = webhooks.revision
  webhooks.record([event(1)], 'default')
  t.equal(webhooks.revision, before, 'an event alone')
  t.same(webhooks.events.rowsAfter(0).map(r => r.id), [1])
  webhooks.addEndpoint({ url: 'http://127.0.0.1:2/hooks', events: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  const withEndpoint = webhooks.revision
  t.not(withEndpoint, before, 'an endpoint added')
  webhooks.record([event(2)], 'default')
  t.not(webhooks.revision, withEndpoint, 'an event delivered somewhere makes a delivery')
})

t.test('a snapshot of store format 1 (events inside) restores them, numbered as they were', async t => {
  const first = new SessionWebhooks('s7', { ...plainWebhookContext(), eventCap: 2 })
  first.record([1, 2, 3].map(event), 'default')
  const held = first.events.rowsAfter(0)
  const second = new SessionWebhooks('s7', { ...plainWebhookContext(), eventCap: 2 })
  second.restore({ ...first.snapshot(), version: 1, events: held.map(r => r.event), recorded: 3 })
  t.same(second.events.rowsAfter(0), held, 'the last two, as 2 and 3')
  t.equal(second.events.recorded, 3)
})

t.test('events extended from a store\'s later rows: the unsaved ones go, the new follow, within the cap', async t => {
  const source = new SessionWebhooks('s8', { ...plainWebhookContext(), eventCap: 3 })
  source.record([1, 2, 3, 4].map(event), 'default')
  const rows = source.events.rowsAfter(0)
  const copy = new SessionWebhooks('s8', { ...plainWebhookContext(), eventCap: 3 })
  copy.restoreEvents(2, rows.filter(r => r.id <= 2))
  copy.record([event(9)], 'default')
  copy.restoreEvents(4, rows.filter(r => r.id > 2), 2)
  t.same(copy.events.rowsAfter(0), rows, 'as the store holds them: 2, 3, 4')
  t.same(copy.query({ order: 'asc' })?.map(e => (e.data as { n: number }).n), [2, 3, 4], 'the one recorded here and never saved is gone')
})

t.test('an event is presented when first read: it accounts about the bytes its text will take, and reads the same as one presented at once', async t => {
  const context = plainWebhookContext()
  const webhooks = new SessionWebhooks('s1', context)
  const card = { id: 'card_x', customerId: 'cus_maya', status: 'LOCKED', maskedPan: '411111******4242', expirationMonth: 9, lockedAt: '2027-01-01T00:00:00.000Z', shipment: { method: 'EXPRESS', events: [{ at: '2027-01-01', status: 'ORDERED' }] } }
  const locked: DomainEvent = { type: 'card.locked', at: '2027-01-01T00:00:00.000Z', entityId: 'card_x', data: card, previousAttributes: { status: 'ACTIVE', lockedAt: null }, detail: 'Locked' }
  webhooks.record([locked], 'default')
  const stored = webhooks.events.newest
  if (stored === undefined) throw new Error('no event held')
  const estimated = stored.bytes
  const presented = stored.json
  const exact = 256 + presented.canonical.length + presented.detail.length + presented.id.length
  t.ok(Math.abs(estimated - exact) <= exact * 0.1, `accounted ${estimated} bytes before its text was made, ${exact} after: within a tenth`)
  t.equal(context.eventBudget.bytes, estimated, 'the budget holds what the event accounted when it was recorded')
  t.same(webhooks.query()?.[0]?.data, card, 'listed, it shows the data it was recorded with')
  t.equal(stored.json, presented, 'presented once, then kept')
})

t.test('events are presented when first read, once: recording one runs no serializer', async t => {
  let presented = 0
  const context: WebhookContext = { ...plainWebhookContext(), presentation: { data: e => { presented++; return JSON.stringify(e.data) }, override: () => undefined } }
  const webhooks = new SessionWebhooks('s1', context)
  webhooks.record([event(1), event(2)], 'default')
  t.equal(presented, 0, 'recorded, not presented')
  t.equal(webhooks.query({ order: 'asc' })?.length, 2)
  t.equal(presented, 2, 'presented when listed')
  webhooks.query()
  webhooks.events.rowsAfter(0)
  t.equal(presented, 2, 'and kept: a second list, or a store\'s save, presents nothing again')
})

t.test('the suite freezes every event as it is recorded: data changed afterwards throws instead of altering what is listed later', async t => {
  t.equal(process.env.BAAS_MOCK_FREEZE_EVENTS, '1', 'set by .taprc')
  const webhooks = new SessionWebhooks('s1', plainWebhookContext())
  const locked = event(1)
  webhooks.record([locked], 'default')
  t.throws(() => { (locked.data as { status: string }).status = 'ACTIVE' }, TypeError)
})

t.test('a URL with credentials from an older store is shown without its password, in the endpoint, the delivery and its attempts\' errors', async t => {
  const webhooks = new SessionWebhooks('s9', plainWebhookContext())
  const url = 'http://ops:hunter%402@127.0.0.1:2/hooks'
  const quoted = `Request cannot be constructed from a URL that includes credentials: ${url} (hunter@2)`
  webhooks.restore({
    ...webhooks.snapshot(),
    endpoints: [{ id: 'ep_old', url, events: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
    deliveries: [{ id: 'dlv_old', eventId: 'evt_1', eventType: 'card.locked', endpointId: 'ep_old', url, status: 'FAILED', attempts: [{ at: '2026-11-23T15:00:00.000Z', error: quoted, durationMs: 1 }], nextAttemptAt: null, createdAt: '2026-11-23T15:00:00.000Z' }]
  })
  const shown = JSON.stringify([webhooks.endpoints(), webhooks.deliveries(), webhooks.snapshot()])
  t.notMatch(shown, /hunter/, 'the password is nowhere, in either spelling')
  t.equal(webhooks.endpoint('ep_old')?.url, 'http://ops:***@127.0.0.1:2/hooks', 'the user is kept, to tell which URL it was')
  t.match(webhooks.delivery('dlv_old'), { url: 'http://ops:***@127.0.0.1:2/hooks', attempts: [{ error: /includes credentials: http:\/\/ops:\*\*\*@127\.0\.0\.1:2\/hooks \(\*\*\*\)/ }] })
})

t.test('a delivery makes at most 20 attempts: a retry by hand past them is refused, naming the cap', async t => {
  const retried: string[] = []
  const webhooks = new SessionWebhooks('s10', { ...plainWebhookContext(), queue: { ...NO_DELIVERIES, retryNow: job => { retried.push(job.delivery.id) } } })
  const attempts = (n: number): Array<{ at: string; status: number; durationMs: number }> => Array.from({ length: n }, () => ({ at: '2026-11-23T15:00:00.000Z', status: 503, durationMs: 1 }))
  const delivery = { id: 'dlv_x', eventId: 'evt_1', eventType: 'card.locked', endpointId: 'ep_x', url: 'http://127.0.0.1:2/hooks', status: 'FAILED' as const, nextAttemptAt: null, createdAt: '2026-11-23T15:00:00.000Z' }
  webhooks.restore({
    ...webhooks.snapshot(),
    endpoints: [{ id: 'ep_x', url: 'http://127.0.0.1:2/hooks', events: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
    deliveries: [{ ...delivery, attempts: attempts(20) }, { ...delivery, id: 'dlv_y', attempts: attempts(19), payload: '{}' }]
  })
  t.throws(() => webhooks.retry('dlv_x'), { code: 'too_many_webhook_attempts', message: /20 attempts, the most one delivery makes \(20, retries by hand included\)/ })
  t.match(webhooks.delivery('dlv_y'), { status: 'FAILED' })
  t.match(webhooks.retry('dlv_y'), { status: 'PENDING' }, 'the 20th may still go')
  t.same(retried, ['dlv_y'])
})
