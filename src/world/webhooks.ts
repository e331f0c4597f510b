import { EVENT_TYPES, type DomainEvent } from '../domain/events.js'
import type { IdSource } from '../domain/context.js'
import { createIdSource } from './ids.js'
import { EventLog, type EventPresentation, type StoredEvent, type StoredEventJson, type WebhookEvent } from './event-log.js'
import { JournalBudget } from './journal-budget.js'
import { Listeners } from './listeners.js'
import { nextRevision } from './revision.js'
import { NO_DELIVERIES, type Delivery, type DeliveryJob, type DeliveryQueue, type WebhookEndpoint } from './deliveries.js'

export type { EventPresentation, StoredEvent, WebhookEvent } from './event-log.js'
export type { Delivery, DeliveryAttempt, WebhookEndpoint } from './deliveries.js'

/** What every session's webhook state shares: how events are presented and sent, and the bounds. */
export interface WebhookContext {
  readonly presentation: EventPresentation
  /** Events kept per session. */
  readonly eventCap: number
  /** What the event logs of all sessions may hold together. */
  readonly eventBudget: JournalBudget
  /** `--seed`: event ids repeat run to run. */
  readonly seed: number | undefined
  readonly queue: DeliveryQueue
  /** The endpoint every session starts with (`--webhook-url`, `--webhook-secret`). */
  readonly initialEndpoint?: { url: string; secret: string } | undefined
  /** Endpoints one session may have. */
  readonly maxEndpoints: number
  /** Deliveries one session keeps listed (the oldest go first). */
  readonly deliveryCap: number
  /** Real time: deliveries happen in it, whatever the mock clock says. */
  readonly realNow: () => number
  /** Event types an endpoint may subscribe to: the mock's own and those fixtures rename them to. */
  readonly knownEventTypes: ReadonlySet<string>
}

/** Which deliveries to list. */
export interface DeliveryFilter {
  status?: string | undefined
  endpointId?: string | undefined
  eventId?: string | undefined
}

/** What a watcher (the dashboard's feed) is told. */
export type WebhookNotice = { kind: 'event'; value: WebhookEvent } | { kind: 'delivery'; value: Delivery }

/** A delivery as held: its record, and what it sends while it may still send. */
interface HeldDelivery {
  record: Delivery
  /** Its number in the session, in the order deliveries were made: its place in the list. */
  seq: number
  /** Dropped once settled: a retry of a settled delivery re-reads its event from the log. */
  payload: string | undefined
}

/** One session's webhook state as plain JSON (see SessionWebhooks.snapshot). */
export interface WebhooksSnapshot {
  version: 1
  events: StoredEventJson[]
  recorded: number
  endpoints: WebhookEndpoint[]
  deliveries: Array<Delivery & { payload?: string }>
  droppedDeliveries: number
}

/** The id the starting endpoint (`--webhook-url`) has in every session. */
export const CONFIGURED_ENDPOINT_ID = 'ep_configured'

/** Presents events as JSON.stringify does, with no fixture overrides: for sessions made without a core (tests). */
export const PLAIN_PRESENTATION: EventPresentation = { data: event => JSON.stringify(event.data), override: () => undefined }

export function plainWebhookContext (): WebhookContext {
  return {
    presentation: PLAIN_PRESENTATION, eventCap: 500, eventBudget: new JournalBudget(16 * 1024 * 1024), seed: undefined,
    queue: NO_DELIVERIES, maxEndpoints: 10, deliveryCap: 500, realNow: Date.now, knownEventTypes: new Set(EVENT_TYPES)
  }
}

/** Why an endpoint cannot be added, for the control plane to answer. */
export class WebhookStateError extends Error {
  constructor (readonly code: 'too_many_webhook_endpoints' | 'webhook_delivery_in_flight' | 'webhook_endpoint_deleted' | 'webhook_event_gone', message: string) {
    super(message)
  }
}

/**
 * Everything about webhooks one session holds, in one place: its event log, its endpoints and its
 * deliveries. It outlives resets of the world, as the journal does, and `snapshot()`/`restore()`
 * carry it as plain JSON.
 */
export class SessionWebhooks {
  readonly events: EventLog
  private readonly endpointList = new Map<string, WebhookEndpoint>()
  private readonly deliveryList = new Map<string, HeldDelivery>()
  private readonly listeners = new Listeners<WebhookNotice>()
  private ids: IdSource
  private dropped = 0
  private changes = nextRevision()
  private deliveriesMade = 0

  constructor (readonly sessionId: string, private readonly context: WebhookContext) {
    this.ids = createIdSource(context.seed, `webhooks:${sessionId}`)
    this.events = new EventLog(context.eventCap, context.eventBudget, { token: length => this.ids.token(length) })
    const initial = context.initialEndpoint
    if (initial !== undefined) {
      this.endpointList.set(CONFIGURED_ENDPOINT_ID, { id: CONFIGURED_ENDPOINT_ID, url: initial.url, events: null, secret: initial.secret })
    }
  }

  /**
   * Records events of the session's world (of `scenario`, whose fixtures may reshape or silence
   * them), in order, and delivers them to the endpoints that want them. One advance of the clock
   * can make thousands: only those the log will still hold afterwards, or an endpoint wants, are
   * presented (a transfer with its executions is kilobytes of JSON); the others are counted.
   */
  record (events: readonly DomainEvent[], scenario: string): void {
    const { presentation } = this.context
    const made = events.filter(event => presentation.override(scenario, event.type)?.silent !== true)
    if (made.length > 0) this.changes = nextRevision()
    const firstKept = made.length - this.events.capacity
    for (const [i, event] of made.entries()) {
      const kept = i >= firstKept
      const endpoints = this.endpointsFor(presentation.override(scenario, event.type)?.type ?? event.type, event.type)
      if (!kept && endpoints.length === 0) {
        this.events.skip(1)
        continue
      }
      const stored = this.events.make(event, scenario, this.sessionId, presentation)
      if (kept) this.events.add(stored)
      else this.events.skip(1)
      if (kept && this.listeners.active) this.listeners.notify({ kind: 'event', value: stored.entry() })
      for (const endpoint of endpoints) this.deliver(stored, endpoint)
    }
  }

  /** Matching events in the list's order, made into entries when read; undefined when `after` names no event held. */
  selectEvents (...args: Parameters<EventLog['select']>): StoredEvent[] | undefined {
    return this.events.select(...args)
  }

  /** The same events, as entries. */
  query (...args: Parameters<EventLog['select']>): WebhookEvent[] | undefined {
    return this.events.select(...args)?.map(e => e.entry())
  }

  // ------------------------------------------------------------------ endpoints

  endpoints (): WebhookEndpoint[] {
    return [...this.endpointList.values()].map(e => ({ ...e, events: e.events === null ? null : [...e.events] }))
  }

  endpoint (id: string): WebhookEndpoint | undefined {
    const found = this.endpointList.get(id)
    return found === undefined ? undefined : { ...found, events: found.events === null ? null : [...found.events] }
  }

  addEndpoint (spec: { url: string; events: string[] | null; secret: string }): WebhookEndpoint {
    if (this.endpointList.size >= this.context.maxEndpoints) {
      throw new WebhookStateError('too_many_webhook_endpoints', `Session ${this.sessionId} has ${this.endpointList.size} webhook endpoints, the most one session keeps; delete one first.`)
    }
    const endpoint: WebhookEndpoint = { id: `ep_${this.ids.token(16)}`, url: spec.url, events: spec.events, secret: spec.secret }
    this.endpointList.set(endpoint.id, endpoint)
    this.changes = nextRevision()
    return { ...endpoint }
  }

  /** Removes the endpoint; its deliveries still waiting fail. False when there is none. */
  removeEndpoint (id: string): boolean {
    if (!this.endpointList.delete(id)) return false
    this.changes = nextRevision()
    for (const held of this.deliveryList.values()) {
      if (held.record.endpointId === id && held.record.status === 'PENDING') this.settle(held, 'the endpoint was deleted')
    }
    return true
  }

  private endpointsFor (type: string, originalType: string): WebhookEndpoint[] {
    if (this.endpointList.size === 0) return []
    return [...this.endpointList.values()].filter(e => e.events === null || e.events.includes(type) || e.events.includes(originalType))
  }

  // ------------------------------------------------------------------ deliveries

  /** Newest first. */
  deliveries (filter: DeliveryFilter = {}): Delivery[] {
    return this.numberedDeliveries(filter).reverse().map(d => d.delivery)
  }

  /** The matching deliveries, oldest first, each with its number in the session (see HeldDelivery.seq). */
  numberedDeliveries (filter: DeliveryFilter = {}): Array<{ seq: number; delivery: Delivery }> {
    const kept: Array<{ seq: number; delivery: Delivery }> = []
    for (const { seq, record: d } of this.deliveryList.values()) {
      if ((filter.status === undefined || d.status === filter.status) &&
        (filter.endpointId === undefined || d.endpointId === filter.endpointId) &&
        (filter.eventId === undefined || d.eventId === filter.eventId)) kept.push({ seq, delivery: copyOf(d) })
    }
    return kept
  }

  delivery (id: string): Delivery | undefined {
    const held = this.deliveryList.get(id)
    return held === undefined ? undefined : copyOf(held.record)
  }

  /** Deliveries this session dropped: the oldest ones past the cap, and those a full queue turned away. */
  get droppedDeliveries (): number {
    return this.dropped
  }

  /** Sends the delivery once more, now (same webhook-id); undefined when there is no such delivery. */
  retry (id: string): Delivery | undefined {
    const held = this.deliveryList.get(id)
    if (held === undefined) return undefined
    const { record } = held
    if (this.context.queue.sending(record)) throw new WebhookStateError('webhook_delivery_in_flight', `Delivery ${id} is being sent now; retry once it has an answer.`)
    if (!this.endpointList.has(record.endpointId)) throw new WebhookStateError('webhook_endpoint_deleted', `The endpoint of delivery ${id} (${record.endpointId}) was deleted; nothing to send it to.`)
    held.payload ??= this.events.find(record.eventId)?.payload
    if (held.payload === undefined) {
      throw new WebhookStateError('webhook_event_gone', `The event of delivery ${id} (${record.eventId}) is no longer held (past --event-cap): it cannot be sent again.`)
    }
    if (record.status !== 'PENDING') {
      record.status = 'PENDING'
      delete record.failureReason
    }
    this.context.queue.retryNow(this.jobOf(held))
    return copyOf(record)
  }

  private deliver (event: StoredEvent, endpoint: WebhookEndpoint): void {
    const payload = event.payload
    if (payload === undefined) return // the fixture's template failed: nothing goes out
    const record: Delivery = {
      id: `dlv_${this.ids.token(16)}`, eventId: event.id, eventType: event.type, endpointId: endpoint.id, url: endpoint.url,
      status: 'PENDING', attempts: [], nextAttemptAt: null, createdAt: this.realIso()
    }
    const held: HeldDelivery = { record, seq: ++this.deliveriesMade, payload }
    this.deliveryList.set(record.id, held)
    if (this.deliveryList.size > this.context.deliveryCap) {
      const [oldestId, oldest] = this.deliveryList.entries().next().value as [string, HeldDelivery]
      this.deliveryList.delete(oldestId)
      if (oldest.record.status === 'PENDING') {
        this.context.queue.cancel(oldest.record)
        this.dropped++
      }
    }
    this.context.queue.schedule(this.jobOf(held), this.context.queue.retrySchedule[0] ?? 0)
    this.notify(record)
  }

  private jobOf (held: HeldDelivery): DeliveryJob {
    return {
      delivery: held.record,
      payload: held.payload ?? '',
      secret: () => this.endpointList.get(held.record.endpointId)?.secret,
      changed: () => {
        if (held.record.status !== 'PENDING') {
          held.payload = undefined
          if (held.record.failureReason?.startsWith('dropped') === true) this.dropped++
        }
        this.notify(held.record)
      }
    }
  }

  private settle (held: HeldDelivery, reason: string): void {
    this.context.queue.cancel(held.record)
    held.record.status = 'FAILED'
    held.record.failureReason = reason
    held.record.nextAttemptAt = null
    held.payload = undefined
    this.notify(held.record)
  }

  private notify (record: Delivery): void {
    this.changes = nextRevision()
    if (this.listeners.active) this.listeners.notify({ kind: 'delivery', value: copyOf(record) })
  }

  private realIso (): string {
    return new Date(this.context.realNow()).toISOString()
  }

  /** Calls `listener` (which must not throw) with every notice from now on; returns the unsubscribe. */
  subscribe (listener: (notice: WebhookNotice) => void): () => void {
    return this.listeners.subscribe(listener)
  }

  /** The session is gone: nothing more is sent for it, and its events' bytes go back to the shared budget. */
  close (): void {
    for (const held of this.deliveryList.values()) if (held.record.status === 'PENDING') this.context.queue.cancel(held.record)
    this.events.clear()
  }

  /** Bumped by every change (an event, an endpoint, a delivery's attempt), so a store saves this state only then. */
  get revision (): number {
    return this.changes
  }

  snapshot (): WebhooksSnapshot {
    return {
      version: 1,
      events: this.events.toJSON(),
      recorded: this.events.recorded,
      endpoints: this.endpoints(),
      deliveries: [...this.deliveryList.values()].map(h => ({ ...copyOf(h.record), ...(h.payload === undefined || h.record.status !== 'PENDING' ? {} : { payload: h.payload }) })),
      droppedDeliveries: this.dropped
    }
  }

  /** Puts back what a snapshot held; deliveries still pending are sent on, at their next attempt's time. */
  restore (snapshot: WebhooksSnapshot): void {
    this.close()
    this.deliveryList.clear()
    this.endpointList.clear()
    // Ids drawn from here on must not repeat those restored (a seeded source would start over).
    this.ids = createIdSource(this.context.seed, `webhooks:${this.sessionId}:after:${snapshot.events.at(-1)?.id ?? ''}:${snapshot.deliveries.length}`)
    this.events.restore(snapshot.events, snapshot.recorded)
    for (const endpoint of snapshot.endpoints) this.endpointList.set(endpoint.id, { ...endpoint, events: endpoint.events === null ? null : [...endpoint.events] })
    this.dropped = snapshot.droppedDeliveries
    this.changes = nextRevision()
    for (const { payload, ...record } of snapshot.deliveries) {
      const held: HeldDelivery = { record: copyOf(record), seq: ++this.deliveriesMade, payload }
      this.deliveryList.set(record.id, held)
      if (held.record.status !== 'PENDING') continue
      if (payload === undefined) {
        this.settle(held, 'not restored with its payload')
        continue
      }
      const due = held.record.nextAttemptAt === null ? 0 : Date.parse(held.record.nextAttemptAt) - this.context.realNow()
      this.context.queue.schedule(this.jobOf(held), Math.max(0, due))
    }
  }
}

function copyOf (record: Delivery): Delivery {
  return { ...record, attempts: record.attempts.map(a => ({ ...a })) }
}
