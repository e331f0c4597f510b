import type { DomainEvent } from '../domain/events.js'
import { FaultRules } from './faults.js'
import { IdempotencyStore } from './idempotency.js'
import { Journal, JournalBudget } from './journal.js'
import { plainWebhookContext, SessionWebhooks, type WebhookContext } from './webhooks.js'
import type { World } from './world.js'

/** Makes a session's world; its events go to `onEvents` (the session's webhook state). */
export type WorldFactory = (sessionId: string, scenario: string | undefined, onEvents: (events: readonly DomainEvent[], scenario: string) => void) => World

export const DEFAULT_SESSION = 'default'

/** Sessions that may be pinned at once: pinned ones live beyond `maxSessions`, so their number is bounded too. */
export const MAX_PINNED_SESSIONS = 16

export interface Session {
  readonly id: string
  world: World
  readonly journal: Journal
  /** Its events, webhook endpoints and deliveries: kept across resets, like the journal. */
  readonly webhooks: SessionWebhooks
  faults: FaultRules
  /** Answers to `Idempotency-Key` requests, replayed on a retry; cleared by a reset. */
  readonly idempotency: IdempotencyStore
  readonly createdMs: number
  lastSeenMs: number
  /** Kept whatever the traffic: neither evicted for newer sessions nor dropped when idle. */
  pinned: boolean
  /** Created from the scenario and not yet announced to a client (`x-mock-session-created`). */
  unannounced: boolean
}

export interface SessionStoreOptions {
  maxSessions: number
  idleTimeoutMs: number
  journalCap: number
  /** What the journals of all sessions may hold together, accounted bytes; unbounded if unset. */
  journalMaxBytes?: number | undefined
  /** Seeds each session's fault draws (`--seed`), so probabilistic faults repeat run to run. */
  seed?: number | undefined
  now?: () => number
  /** Told what was dropped since the last report, once per sweep at most (see reportDrops). */
  onDropped?: ((report: DropReport) => void) | undefined
  /** How sessions present and bound their events; plain JSON and default bounds when unset. */
  webhooks?: WebhookContext | undefined
}

/** Sessions dropped since the last report. */
export interface DropReport {
  /** Pushed out for newer sessions (over `maxSessions`). */
  evicted: number
  /** Idle longer than the idle timeout. */
  expired: number
  /** The first few evicted, so a log can name the sessions a CI job lost. */
  evictedIds: string[]
  /** Sessions alive after the drops. */
  size: number
}

const REPORTED_IDS = 5

/**
 * Isolated worlds keyed by the `x-mock-session` header, created lazily. Least recently used
 * first out when over the cap; idle ones expire. The default session and pinned sessions are
 * never dropped that way: a demo's state must survive a CI burst on the same server, and so must a
 * CI job's that pinned its session.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>()
  private readonly now: () => number
  private readonly journalBudget: JournalBudget
  private lastSweepMs = 0
  private pinnedCount = 0
  private dropped: DropReport = { evicted: 0, expired: 0, evictedIds: [], size: 0 }
  /** The last key of `sessions` (the most recently used): a run of requests from one session skips the re-insert. */
  private mostRecent: string | undefined
  private sweeper: ReturnType<typeof setInterval> | undefined
  /** What every session's webhook state shares (the dispatcher among it). */
  readonly webhooks: WebhookContext

  constructor (private readonly createWorld: WorldFactory, private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now
    this.journalBudget = new JournalBudget(options.journalMaxBytes ?? Number.POSITIVE_INFINITY)
    this.webhooks = options.webhooks ?? plainWebhookContext()
  }

  get size (): number {
    return this.sessions.size
  }

  get (id: string): Session {
    const now = this.now()
    let session = this.sessions.get(id)
    if (session !== undefined && id === this.mostRecent) {
      session.lastSeenMs = now
      if (now - this.lastSweepMs > this.sweepIntervalMs) this.sweep(now)
      return session
    }
    if (session === undefined) {
      const webhooks = new SessionWebhooks(id, this.webhooks)
      session = {
        id,
        world: this.createWorld(id, undefined, recorderOf(webhooks)),
        journal: new Journal(this.options.journalCap, this.journalBudget),
        webhooks,
        faults: this.newFaults(id),
        idempotency: new IdempotencyStore(),
        createdMs: now,
        lastSeenMs: now,
        pinned: false,
        unannounced: true
      }
    } else {
      this.sessions.delete(id)
      session.lastSeenMs = now
    }
    this.sessions.set(id, session)
    this.mostRecent = id
    this.evict(now)
    return session
  }

  peek (id: string): Session | undefined {
    return this.sessions.get(id)
  }

  /** Rebuilds the session's world from a scenario; its journal is kept, its faults and stored idempotent answers cleared. */
  reset (id: string, scenario?: string): Session {
    const session = this.get(id)
    session.world = this.createWorld(id, scenario, recorderOf(session.webhooks))
    session.faults = this.newFaults(id)
    session.idempotency.clear()
    return session
  }

  delete (id: string): boolean {
    const session = this.sessions.get(id)
    if (session === undefined) return false
    this.remove(session)
    return true
  }

  /**
   * Keeps the session (created if needed) whatever the traffic, until unpinned or deleted.
   * Undefined when MAX_PINNED_SESSIONS are pinned already.
   */
  pin (id: string): Session | undefined {
    const existing = this.sessions.get(id)
    if (existing?.pinned !== true && this.pinnedCount >= MAX_PINNED_SESSIONS) return undefined
    const session = this.get(id)
    if (!session.pinned) {
      session.pinned = true
      this.pinnedCount++
    }
    return session
  }

  /** Lets the session be evicted and expire again; undefined when there is no such session. */
  unpin (id: string): Session | undefined {
    const session = this.sessions.get(id)
    if (session?.pinned === true) {
      session.pinned = false
      this.pinnedCount--
    }
    return session
  }

  get pinned (): number {
    return this.pinnedCount
  }

  /** Least recently used first. */
  list (): Session[] {
    return [...this.sessions.values()]
  }

  get maxSessions (): number {
    return this.options.maxSessions
  }

  get idleTimeoutMs (): number {
    return this.options.idleTimeoutMs
  }

  /** Accounted bytes the journals of all sessions hold now, and may hold. */
  get journalBytes (): { bytes: number; maxBytes: number } {
    return { bytes: this.journalBudget.bytes, maxBytes: this.journalBudget.maxBytes }
  }

  /** Drops expired sessions now (also done lazily on access); answers how many went. */
  sweep (now = this.now()): number {
    this.lastSweepMs = now
    let dropped = 0
    for (const session of this.sessions.values()) {
      if (now - session.lastSeenMs < this.options.idleTimeoutMs) break // LRU order: the rest are fresher
      if (session.id === DEFAULT_SESSION || session.pinned) continue
      this.remove(session)
      this.dropped.expired++
      dropped++
    }
    return dropped
  }

  /**
   * Tells `onDropped` what was dropped since the last report, if anything. The sweeper calls it,
   * so a flood that evicts thousands of sessions makes one log line per sweep, not thousands.
   */
  reportDrops (): void {
    if (this.dropped.evicted === 0 && this.dropped.expired === 0) return
    const report = { ...this.dropped, size: this.sessions.size }
    this.dropped = { evicted: 0, expired: 0, evictedIds: [], size: 0 }
    this.options.onDropped?.(report)
  }

  /**
   * Sweeps on a timer too, so a server nobody calls any more gives its memory back once its
   * sessions expire (the sweep on access never runs then). The timer never keeps the process alive.
   */
  startSweeping (intervalMs = this.sweepIntervalMs, afterSweep?: (dropped: number, before: number) => void): void {
    if (this.sweeper !== undefined) return
    this.sweeper = setInterval(() => {
      const before = this.sessions.size
      const dropped = this.sweep()
      this.reportDrops()
      if (dropped > 0) afterSweep?.(dropped, before)
    }, intervalMs)
    // A browser's timers are numbers, and keep nothing alive.
    if (typeof this.sweeper === 'object') this.sweeper.unref()
  }

  stopSweeping (): void {
    clearInterval(this.sweeper)
    this.sweeper = undefined
  }

  /** A tenth of the idle time, between 1 s and 1 min: a session outlives its idle time by at most this. */
  get sweepIntervalMs (): number {
    return Math.min(Math.max(this.options.idleTimeoutMs / 10, 1000), 60_000)
  }

  private newFaults (id: string): FaultRules {
    return new FaultRules(this.options.seed, id)
  }

  /** Takes a session out, and its journal's entries out of the shared budget. */
  private remove (session: Session): void {
    this.sessions.delete(session.id)
    if (session.pinned) this.pinnedCount--
    if (this.mostRecent === session.id) this.mostRecent = undefined
    session.journal.clear()
    session.webhooks.close()
  }

  /** Pinned sessions do not count against `maxSessions`; the session just used is never the one to go. */
  private evict (now: number): void {
    if (now - this.lastSweepMs > this.sweepIntervalMs) this.sweep(now)
    const over = (): boolean => this.sessions.size - this.pinnedCount > this.options.maxSessions
    if (!over()) return
    for (const session of this.sessions.values()) {
      if (!over() || session.id === this.mostRecent) break
      if (session.id === DEFAULT_SESSION || session.pinned) continue
      this.remove(session)
      this.dropped.evicted++
      if (this.dropped.evictedIds.length < REPORTED_IDS) this.dropped.evictedIds.push(session.id)
    }
  }
}

function recorderOf (webhooks: SessionWebhooks): (events: readonly DomainEvent[], scenario: string) => void {
  return (events, scenario) => webhooks.record(events, scenario)
}
