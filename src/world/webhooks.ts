import { EVENT_TYPES, type DomainEvent } from '../domain/events.js'
import { createIdSource, type SessionIdSource } from './ids.js'
import { EventLog, type EventPresentation, type StoredEvent, type StoredEventJson, type StoredEventRow, type WebhookEvent } from './event-log.js'
import { JournalBudget } from './journal-budget.js'
import { Listeners } from './listeners.js'
import { nextRevision } from './revision.js'
import { redactedUrl, withoutPassword } from './url-credentials.js'
import { MAX_DELIVERY_ATTEMPTS, NO_DELIVERIES, type Delivery, type DeliveryAttempt, type DeliveryJob, type DeliveryQueue, type WebhookEndpoint } from './deliveries.js'

export type { EventPresentation, StoredEvent, StoredEventRow, WebhookEvent } from './event-log.js'
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
  /**
   * Why an endpoint may not have this URL (a private address while the control plane is open to a
   * network: src/webhooks/target-guard.ts); undefined when it may. Unset: any http(s) URL.
   */
  readonly targetRefusal?: ((url: string) => string | undefined) | undefined
  /** Set when replicas share the sessions (a shared store): deliveries go by claims recorded in the session. */
  readonly ledger?: DeliveryLedger | undefined
}

/**
 * How deliveries go when replicas share the sessions. The replica holding a delivery's claim,
 * recorded in the session, is the only one that sends it; each attempt's outcome is written to the
 * session as stored, so every replica lists it. The replica that recorded the event (or took a
 * retry) holds the claim first; a claim runs out `claimMs` after its attempt was due, and then any
 * replica that opens the session takes the delivery over (its own replica died, or could not write).
 */
export interface DeliveryLedger {
  /** This process, as claims name it. */
  readonly replica: string
  /** How long past its attempt's due time a claim holds. */
  readonly claimMs: number
  /**
   * Runs `change` on the webhooks of the session as stored now and saves what it changed (run
   * again after a conflict). Undefined, with nothing saved, when `change` answers undefined, when
   * the store has no such session, or when the store failed (reported).
   */
  update: <T>(sessionId: string, change: (webhooks: SessionWebhooks) => T | undefined) => Promise<T | undefined>
}

/** Which replica sends a delivery's next attempt (or is sending it), until when (real epoch ms). */
interface Claim {
  by: string
  until: number
  /** An attempt is being sent now: a retry by hand waits for its answer. */
  sending: boolean
}

/** What an attempt (or a full queue) did to a delivery, as its replica puts it on the stored session. */
interface DeliveryProgress {
  attempt: DeliveryAttempt | undefined
  status: Delivery['status']
  nextAttemptAt: string | null
  failureReason: string | undefined
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
  /** With a ledger: who sends it. */
  claim?: Claim | undefined
}

/**
 * One session's webhook state as plain JSON (see SessionWebhooks.snapshot): endpoints, deliveries
 * and counters. Its events are rows of their own (EventLog.rowsAfter), so an event recorded does not
 * rewrite this; version 1 (a store written before that) held them here, in `events` and `recorded`.
 */
export interface WebhooksSnapshot {
  version: 1 | 2
  /** Version 1 only: the events held, oldest first. */
  events?: StoredEventJson[] | undefined
  /** Version 1 only: events ever recorded. */
  recorded?: number | undefined
  endpoints: WebhookEndpoint[]
  deliveries: Array<Delivery & { payload?: string; claim?: Claim; seq?: number }>
  droppedDeliveries: number
  /** Deliveries ever made: numbers the next one, so list cursors stay valid across a restore (a replica's reload). */
  deliveriesMade?: number
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
  constructor (readonly code: 'too_many_webhook_endpoints' | 'too_many_webhook_attempts' | 'webhook_delivery_in_flight' | 'webhook_endpoint_deleted' | 'webhook_event_gone', message: string) {
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
  private ids: SessionIdSource
  private dropped = 0
  private changes = nextRevision()
  private deliveriesMade = 0
  /** With a ledger: what goes to the queue once the session is saved, its claims in the store. */
  private unsaved: Array<() => void> = []
  /** With a ledger: when the first claim of a pending delivery runs out (see takeOver). */
  private lapsesAt = Number.POSITIVE_INFINITY
  /**
   * Without a ledger, with a store: saves the session now that an attempt (or the queue) changed a
   * delivery off the request path. Otherwise the change would wait for the session's next save,
   * and a kill meanwhile would lose an attempt the receiver answered (issue 31).
   */
  onProgress: (() => void) | undefined

  constructor (readonly sessionId: string, private readonly context: WebhookContext) {
    this.ids = createIdSource(context.seed, `webhooks:${sessionId}`)
    this.events = new EventLog(context.eventCap, context.eventBudget, { prefixedToken: (prefix, length) => this.ids.prefixedToken(prefix, length) }, context.presentation)
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
    const overrides = events.map(event => presentation.override(scenario, event.type))
    let made = 0
    for (const override of overrides) if (override?.silent !== true) made++
    // No new revision for the events themselves: a store keeps them as rows (the events part); a delivery made is a change (notify).
    const firstKept = made - this.events.capacity
    let i = 0
    for (const [index, event] of events.entries()) {
      const override = overrides[index]
      if (override?.silent === true) continue
      const kept = i++ >= firstKept
      const endpoints = this.endpointsFor(override?.type ?? event.type, event.type)
      if (!kept && endpoints.length === 0) {
        this.events.skip(1)
        continue
      }
      const stored = this.events.make(event, override, this.sessionId, scenario)
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
    const endpoint: WebhookEndpoint = { id: this.ids.prefixedToken('ep_', 16), url: spec.url, events: spec.events, secret: spec.secret }
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
    const { ledger } = this.context
    const now = this.context.realNow()
    const sendingElsewhere = held.claim !== undefined && held.claim.sending && held.claim.until > now
    if (this.context.queue.sending(record) || sendingElsewhere) throw new WebhookStateError('webhook_delivery_in_flight', `Delivery ${id} is being sent now; retry once it has an answer.`)
    if (record.attempts.length >= MAX_DELIVERY_ATTEMPTS) {
      throw new WebhookStateError('too_many_webhook_attempts', `Delivery ${id} has made ${record.attempts.length} attempts, the most one delivery makes (${MAX_DELIVERY_ATTEMPTS}, retries by hand included).`)
    }
    if (!this.endpointList.has(record.endpointId)) throw new WebhookStateError('webhook_endpoint_deleted', `The endpoint of delivery ${id} (${record.endpointId}) was deleted; nothing to send it to.`)
    held.payload ??= this.events.find(record.eventId)?.payload
    if (held.payload === undefined) {
      throw new WebhookStateError('webhook_event_gone', `The event of delivery ${id} (${record.eventId}) is no longer held (past --event-cap): it cannot be sent again.`)
    }
    const settled = record.status !== 'PENDING'
    if (settled) {
      record.status = 'PENDING'
      delete record.failureReason
    }
    if (ledger === undefined) {
      this.context.queue.retryNow(this.jobOf(held))
      return copyOf(record)
    }
    // This replica sends it, once the claim is saved; another holding its schedule stands down at its next attempt.
    record.nextAttemptAt = new Date(now).toISOString()
    this.claimFor(held, ledger, now, false)
    this.unsaved.push(() => this.context.queue.retryNow(this.sharedJob(held, ledger), settled))
    this.notify(record)
    return copyOf(record)
  }

  private deliver (event: StoredEvent, endpoint: WebhookEndpoint): void {
    const payload = event.payload
    if (payload === undefined) return // the fixture's template failed: nothing goes out
    const record: Delivery = {
      id: this.ids.prefixedToken('dlv_', 16), eventId: event.id, eventType: event.type, endpointId: endpoint.id, url: endpoint.url,
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
    const delayMs = this.context.queue.retrySchedule[0] ?? 0
    const { ledger } = this.context
    if (ledger === undefined) {
      this.context.queue.schedule(this.jobOf(held), delayMs)
    } else {
      // Sent by this replica once the request's save holds its claim: a save that conflicts leaves nothing to send twice.
      const due = this.context.realNow() + delayMs
      record.nextAttemptAt = new Date(due).toISOString()
      this.claimFor(held, ledger, due, false)
      this.unsaved.push(() => this.context.queue.schedule(this.sharedJob(held, ledger), delayMs))
    }
    this.notify(record)
  }

  private jobOf (held: HeldDelivery): DeliveryJob {
    return {
      delivery: held.record,
      session: this.sessionId,
      payload: held.payload ?? '',
      secret: () => this.endpointList.get(held.record.endpointId)?.secret,
      changed: () => {
        if (held.record.status !== 'PENDING') {
          held.payload = undefined
          if (refusedByQueue(held.record)) this.dropped++
        }
        this.notify(held.record)
        this.onProgress?.()
      }
    }
  }

  /**
   * A job for a replica sharing the session: it sends a copy of its own, claims the delivery before
   * each attempt, and writes each outcome to the session as stored.
   */
  private sharedJob (held: HeldDelivery, ledger: DeliveryLedger): DeliveryJob {
    const delivery = copyOf(held.record)
    const payload = held.payload ?? ''
    const { sessionId, context } = this
    let secret: string | undefined
    let reported = delivery.attempts.length
    return {
      delivery,
      session: sessionId,
      payload,
      secret: () => secret,
      claim: async () => {
        const claimed = await ledger.update(sessionId, webhooks => webhooks.claim(delivery.id, ledger))
        if (claimed === undefined) return false
        delete delivery.failureReason
        Object.assign(delivery, claimed.record)
        secret = claimed.secret
        reported = delivery.attempts.length
        return true
      },
      changed: () => {
        const progress: DeliveryProgress = {
          attempt: delivery.attempts.length > reported ? delivery.attempts.at(-1) : undefined,
          status: delivery.status,
          nextAttemptAt: delivery.nextAttemptAt,
          failureReason: delivery.failureReason
        }
        reported = delivery.attempts.length
        void ledger.update(sessionId, webhooks => webhooks.progress(delivery.id, progress, ledger)).then(goesOn => {
          // Settled or taken over meanwhile (or the store failed: the claim runs out, and the delivery is taken over).
          if (goesOn !== true) context.queue.cancel(delivery)
        })
      }
    }
  }

  /**
   * On the session as stored: takes the delivery for an attempt by this replica now. Undefined when
   * it settled, is gone, or another replica's claim holds it.
   */
  claim (id: string, ledger: DeliveryLedger): { record: Delivery; secret: string | undefined } | undefined {
    const held = this.deliveryList.get(id)
    const now = this.context.realNow()
    if (held === undefined || held.record.status !== 'PENDING' || held.payload === undefined) return undefined
    if (held.claim !== undefined && held.claim.by !== ledger.replica && held.claim.until > now) return undefined
    held.record.nextAttemptAt = null
    this.claimFor(held, ledger, now, true)
    this.changes = nextRevision()
    return { record: copyOf(held.record), secret: this.endpointList.get(held.record.endpointId)?.secret }
  }

  /**
   * On the session as stored: puts what this replica's attempt did on the delivery. The attempt is
   * kept whatever happened meanwhile; its outcome only if the delivery is still this replica's to
   * send (or it succeeded). Answers whether this replica goes on with its schedule; undefined when
   * the delivery is gone.
   */
  progress (id: string, progress: DeliveryProgress, ledger: DeliveryLedger): boolean | undefined {
    const held = this.deliveryList.get(id)
    if (held === undefined) return undefined
    const { record } = held
    if (progress.attempt !== undefined) record.attempts.push({ ...progress.attempt })
    const now = this.context.realNow()
    const mine = record.status === 'PENDING' && (held.claim === undefined || held.claim.by === ledger.replica || held.claim.until <= now)
    if (mine || progress.status === 'SUCCEEDED') {
      record.status = progress.status
      record.nextAttemptAt = progress.nextAttemptAt
      if (progress.failureReason === undefined) delete record.failureReason
      else record.failureReason = progress.failureReason
      if (record.status === 'PENDING') {
        this.claimFor(held, ledger, progress.nextAttemptAt === null ? now : Date.parse(progress.nextAttemptAt), false)
      } else {
        held.claim = undefined
        held.payload = undefined
        if (refusedByQueue(record)) this.dropped++
      }
    }
    this.notify(record)
    return record.status === 'PENDING' && held.claim?.by === ledger.replica
  }

  /**
   * Sends on, through a claim, the pending deliveries whose claim ran out: their replica died, or
   * could not write. The session store calls it whenever a shared session is opened here; it costs
   * one comparison until a claim runs out.
   */
  takeOver (): void {
    const { ledger } = this.context
    if (ledger === undefined) return
    const now = this.context.realNow()
    if (now < this.lapsesAt) return
    let next = Number.POSITIVE_INFINITY
    for (const held of this.deliveryList.values()) {
      if (held.record.status !== 'PENDING' || held.payload === undefined) continue
      const until = held.claim?.until ?? 0
      if (until > now) {
        next = Math.min(next, until)
        continue
      }
      if (!this.context.queue.sending(held.record)) this.context.queue.schedule(this.sharedJob(held, ledger), 0)
      // Looked at again after a claim's time, should this attempt's claim fail to be saved.
      next = Math.min(next, now + ledger.claimMs)
    }
    this.lapsesAt = next
  }

  /** What may go to the queue once the session is saved (the session store calls it as it saves); taken, so given once. */
  takeUnsaved (): Array<() => void> | undefined {
    if (this.unsaved.length === 0) return undefined
    const taken = this.unsaved
    this.unsaved = []
    return taken
  }

  private claimFor (held: HeldDelivery, ledger: DeliveryLedger, dueMs: number, sending: boolean): void {
    held.claim = { by: ledger.replica, until: dueMs + ledger.claimMs, sending }
    this.lapsesAt = Math.min(this.lapsesAt, held.claim.until)
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
    this.stopDeliveries()
    this.events.clear()
  }

  private stopDeliveries (): void {
    // Replicas: the session lives on in the store, and its deliveries with their claims.
    if (this.context.ledger === undefined) for (const held of this.deliveryList.values()) if (held.record.status === 'PENDING') this.context.queue.cancel(held.record)
    // What a run whose save did not happen would have sent goes with it (restore stops them first).
    this.unsaved = []
  }

  /**
   * Bumped by every change to what the snapshot holds (an endpoint, a delivery, an attempt), so a
   * store saves this state only then; not by an event recorded (its row is saved instead).
   */
  get revision (): number {
    return this.changes
  }

  snapshot (): WebhooksSnapshot {
    return {
      version: 2,
      endpoints: this.endpoints(),
      deliveries: [...this.deliveryList.values()].map(h => ({
        ...copyOf(h.record),
        seq: h.seq,
        ...(h.payload === undefined || h.record.status !== 'PENDING' ? {} : { payload: h.payload }),
        ...(h.claim === undefined || h.record.status !== 'PENDING' ? {} : { claim: { ...h.claim } })
      })),
      droppedDeliveries: this.dropped,
      deliveriesMade: this.deliveriesMade
    }
  }

  /**
   * Puts back what a snapshot held. Deliveries still pending are sent on, at their next attempt's
   * time, when this process alone keeps the session (a store read at start); with a ledger the
   * replica holding a claim sends, and restoring (every request) schedules nothing (see takeOver).
   */
  restore (snapshot: WebhooksSnapshot): void {
    this.stopDeliveries()
    this.deliveryList.clear()
    this.endpointList.clear()
    // Version 1 held the events; since, they come as rows (restoreEvents, after this).
    if (snapshot.version === 1) this.events.restoreInline(snapshot.events ?? [], snapshot.recorded ?? 0)
    // A store from before URLs with credentials were refused may hold some: shown (and kept) without the password.
    for (const endpoint of snapshot.endpoints) this.endpointList.set(endpoint.id, { ...endpoint, url: redactedUrl(endpoint.url), events: endpoint.events === null ? null : [...endpoint.events] })
    this.dropped = snapshot.droppedDeliveries
    this.changes = nextRevision()
    // The next takeOver looks at every claim restored.
    this.lapsesAt = Number.NEGATIVE_INFINITY
    this.deliveriesMade = snapshot.deliveriesMade ?? 0
    for (const { payload, claim, seq, ...record } of snapshot.deliveries) {
      const held: HeldDelivery = { record: redacted(record), seq: seq ?? ++this.deliveriesMade, payload, claim: claim === undefined ? undefined : { ...claim } }
      this.deliveriesMade = Math.max(this.deliveriesMade, held.seq)
      this.deliveryList.set(record.id, held)
      if (held.record.status !== 'PENDING') continue
      if (payload === undefined) {
        this.settle(held, 'not restored with its payload')
        continue
      }
      if (this.context.ledger !== undefined) continue
      const due = held.record.nextAttemptAt === null ? 0 : Date.parse(held.record.nextAttemptAt) - this.context.realNow()
      this.context.queue.schedule(this.jobOf(held), Math.max(0, due))
    }
    this.reseed()
  }

  /**
   * Puts back the events a store kept as rows (after `restore`, which puts back the rest): all of
   * them, or, with `keptThrough`, the rows after the last event this process holds as saved.
   */
  restoreEvents (recorded: number, rows: readonly StoredEventRow[], keptThrough?: number): void {
    if (keptThrough === undefined) this.events.restore(recorded, rows)
    else this.events.extend(recorded, rows, keptThrough)
    this.reseed()
  }

  /** Ids drawn from here on must not repeat those restored (a seeded source would start over). */
  private reseed (): void {
    this.ids = createIdSource(this.context.seed, `webhooks:${this.sessionId}:after:${this.events.newest?.id ?? ''}:${this.deliveryList.size}`)
  }
}

/** Refused for its session's share of the queue (or the whole queue); `dropped` in stores of before. */
function refusedByQueue (record: Delivery): boolean {
  return record.failureReason?.startsWith('refused') === true || record.failureReason?.startsWith('dropped') === true
}

/** A copy of a stored delivery with its URL's password, and any attempt's quote of it, as `***`. */
function redacted (record: Delivery): Delivery {
  const copy = copyOf(record)
  copy.url = redactedUrl(record.url)
  for (const attempt of copy.attempts) if (attempt.error !== undefined) attempt.error = withoutPassword(attempt.error, record.url)
  return copy
}

function copyOf (record: Delivery): Delivery {
  return { ...record, attempts: record.attempts.map(a => ({ ...a })) }
}
