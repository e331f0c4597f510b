import type { DomainEvent } from '../domain/events.js'
import { FaultRules } from './faults.js'
import { createIdSource } from './ids.js'
import { IdempotencyStore } from './idempotency.js'
import { Listeners } from './listeners.js'
import { Journal, JournalBudget, type JournalRecord } from './journal.js'
import { plainWebhookContext, SessionWebhooks, type WebhookContext } from './webhooks.js'
import type { World, WorldData } from './world.js'
import type { Session } from './session.js'
import { MemoryStore } from './stores/memory.js'
import { SessionBatches, type SessionWork } from './session-batches.js'
import { isWorldData, SESSION_PARTS, SESSION_ROW_LOGS, WORLD_PART } from './stores/parts.js'
import { perLog, StoreConflictError, StoreOpenError, StoreUnavailableError, type FeedNotice, type RowIds, type SessionChange, type StoredSession, type WorldStore } from './stores/store.js'

/** Makes a session's world; its events go to `onEvents` (the session's webhook state). */
export type WorldFactory = (sessionId: string, scenario: string | undefined, onEvents: (events: readonly DomainEvent[], scenario: string) => void) => World

export type { Session } from './session.js'

export const DEFAULT_SESSION = 'default'

/** Sessions that may be pinned at once: pinned ones live beyond `maxSessions`, so their number is bounded too. */
export const MAX_PINNED_SESSIONS = 16

/**
 * Times a turn of work on a session (requests, journal entries, a pin) is run again when another
 * replica saved the session meanwhile (a shared store). Each conflict means another save went
 * through, so the session moves on, and the turn that lost claims the next save (see
 * LoadOptions.claim), so it seldom loses twice: this many is for a claim that lapsed (a turn slower
 * than the claim lasts), and still bounded (each costs a load and a save).
 */
export const SHARED_CONFLICT_RETRIES = 50

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
  /** Where sessions are kept beyond this process; memory (nothing kept, nothing called) when unset. */
  store?: WorldStore | undefined
  /** Makes a world from what a store kept; needed with a persistent store. */
  restoreWorld?: ((sessionId: string, data: WorldData, onEvents: EventRecorder) => World) | undefined
  /** Told when the store failed at something no answer waits for (dropping an expired session, a journal entry). */
  onStoreError?: ((error: unknown, what: string) => void) | undefined
  /** Names this process among those sharing the store (feed notices); random when unset. */
  replica?: string | undefined
}

/** What the store holds of a session, as of the last save this process made or loaded. */
interface Saved {
  version: number
  world: World | undefined
  worldRevision: number
  /** Part name → the revision saved (or, for a part without one, its JSON text; REWRITE when the store holds it in an older layout). */
  parts: Map<string, unknown>
  /** Each row log's last row saved. */
  rows: RowIds
  pinned: boolean
  /** The last-seen time saved: a session only read since moves on in memory alone (see saveLastSeen). */
  lastSeenMs: number
}

/** A part's saved revision when the store holds it in an older layout (or not at all): it is saved with the next save. */
const REWRITE = Symbol('rewrite')

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
  readonly store: WorldStore
  /** Whether the store keeps anything: false for memory, and then it is never called. */
  private readonly persistent: boolean
  private readonly restoreWorld: (sessionId: string, data: WorldData, onEvents: EventRecorder) => World
  private readonly saved = new WeakMap<Session, Saved>()
  /** Sessions whose last save failed: what they hold was not acknowledged, so they are loaded again before use. */
  private readonly stale = new WeakSet<Session>()
  /** Store calls no answer waits for (deletes of dropped sessions), awaited by close(). */
  private readonly pending = new Set<Promise<unknown>>()
  /** This process among those sharing the store. */
  readonly replica: string
  /** With a store's feed: watchers of each session here (see watch), told what happens in it here. */
  private readonly watchers = new Map<string, Listeners<FeedNotice>>()
  /** With a store's feed: each session's listener on its world's outbox, moved when the world is replaced. */
  private readonly outboxTaps = new WeakMap<Session, () => void>()
  /** A shared store's sessions: the work on each, in turns (undefined when the store is not shared). */
  private readonly batches: SessionBatches | undefined

  constructor (private readonly createWorld: WorldFactory, private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now
    this.journalBudget = new JournalBudget(options.journalMaxBytes ?? Number.POSITIVE_INFINITY)
    this.webhooks = options.webhooks ?? plainWebhookContext()
    this.store = options.store ?? new MemoryStore()
    this.persistent = this.store.persistent
    this.restoreWorld = options.restoreWorld ?? (() => { throw new TypeError('a persistent store needs restoreWorld') })
    this.replica = options.replica ?? createIdSource().token(12)
    this.batches = this.store.shared
      ? new SessionBatches({
        load: async (id, touches, claim) => await this.reload(id, touches, claim),
        save: (session, writes, creates, claimed) => {
          const saving = !creates && !this.saved.has(session) ? undefined : this.commit(session, writes)
          // Nothing to save after all: the other replicas need not wait for this one's claim to lapse.
          if (saving === undefined && claimed) this.background(this.store.release?.(session.id) ?? Promise.resolve(), `releasing session ${session.id}`)
          return saving
        }
      }, SHARED_CONFLICT_RETRIES)
      : undefined
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
      session = this.newSession(id, now)
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

  /**
   * The session a request is served in, created if needed: at once when this process holds it up
   * to date; loaded from the store first when it may not (a save that failed). Rejects with
   * StoreUnavailableError when the store cannot be read. A shared store's sessions are opened in
   * their turns instead (inTurn): loaded, run and saved with the other work of that turn.
   */
  open (id: string): Session | Promise<Session> {
    if (!this.persistent) return this.get(id)
    if (this.store.shared) throw new TypeError('a shared store\'s sessions are opened in their turns (inTurn)')
    const live = this.sessions.get(id)
    if (live !== undefined && this.stale.has(live)) return this.reload(id)
    return this.get(id)
  }

  /**
   * Runs `work` on a session of a shared store in the session's next turn in this process: loaded
   * (once for all the work queued meanwhile), run, saved, then answered; run again on the session
   * as saved when another replica saved it meanwhile. Only with a shared store.
   */
  inTurn<T> (id: string, work: SessionWork<T>): Promise<T> {
    if (this.batches === undefined) throw new TypeError('only a shared store takes turns')
    return this.batches.run(id, work)
  }

  /**
   * Saves what the session changed since its last save, before the answer that reports it goes
   * out; undefined when nothing changed or the store is memory. `wrote`: the request was a write,
   * so the world changed; `touched`: a moved last-seen time is change enough (see saveLastSeen). Rejects with StoreUnavailableError (nothing acknowledged is lost: the
   * session is loaded again from what the store holds before its next use) or StoreConflictError.
   */
  commit (session: Session, wrote = false, touched = false): Promise<void> | undefined {
    if (!this.persistent || this.stale.has(session)) return undefined
    // Dropped here: gone, unless the store is shared, where this process held only a copy (its cache let it go).
    if (!this.store.shared && this.sessions.get(session.id) !== session) return undefined
    const saved = this.saved.get(session)
    const change = this.changeOf(session, saved, wrote, touched)
    if (change === undefined) return undefined
    // Counted as saved now, so a save made before this one settles builds on it; a failure makes the session stale.
    this.saved.set(session, change.next)
    // Replicas: the deliveries this change claims go out once it is saved, not before (nor at all when it is not).
    const deliveries = this.store.shared ? session.webhooks.takeUnsaved() : undefined
    return this.store.save(change.change).then(() => {
      if (deliveries !== undefined) for (const send of deliveries) send()
    }, (error: unknown) => {
      this.stale.add(session)
      if (error instanceof StoreConflictError) {
        // Refused, so nothing of it was written: the store holds what it held before (and more, from
        // another process). A conflict is no failure: the caller runs its change again on the session as saved.
        if (saved === undefined) this.saved.delete(session)
        else this.saved.set(session, saved)
      } else {
        // Written or not, nobody knows: the session is loaded whole before its next use.
        this.saved.delete(session)
        this.report(error, `saving session ${session.id}`)
      }
      throw unavailable(error, this.store)
    })
  }

  /**
   * Records a request in its session's journal, and saves it once the answer went out. With a
   * shared store the entry is recorded in the session's next turn, on the session as saved then
   * (another replica may have saved since this request's answer), and saved with that turn's work.
   */
  journalRequest (session: Session, record: JournalRecord): void {
    if (!this.store.shared) {
      session.journal.record(record)
      this.commitLater(session)
      return
    }
    let before = 0
    let recorded = 0
    this.background(this.inTurn(session.id, {
      writes: false,
      // Only the session the request was served in: not one made afresh because that one was dropped meanwhile (deleted through another replica).
      creates: live => live === session,
      touches: false,
      run: live => {
        before = recorded = live.journal.lastId
        if (live !== session && !this.saved.has(live)) return
        live.journal.record(record, true)
        recorded = live.journal.lastId
      },
      saved: live => live.journal.announce(before, recorded)
    }), `saving the journal of session ${session.id}`)
  }

  /**
   * Saves what changed where no answer waits (a journal entry, written once the answer went out):
   * a failure is reported, and the entries are saved with the session's next save.
   */
  commitLater (session: Session, touched = false): void {
    const saving = this.commit(session, false, touched)
    // commit reported a failure already.
    if (saving !== undefined) this.track(saving.catch(() => {}))
  }

  /**
   * Starts from what the store kept: expires what idled past the timeout meanwhile, restores the
   * rest. Answers how many. Throws StoreOpenError when some of it cannot be read.
   */
  async restore (): Promise<number> {
    // A shared store's sessions are loaded as requests come, whichever replica they land on.
    if (!this.persistent || this.store.shared) return 0
    const now = this.now()
    const wayOut = 'start afresh with --state-reset (the old files are kept aside), or run the baas-mock version that wrote it'
    let metas: Array<{ id: string }>
    try {
      await this.store.expire(now - this.options.idleTimeoutMs)
      metas = await this.store.list()
    } catch (error) {
      throw new StoreOpenError(`cannot read the sessions in ${this.store.location}: ${(error as Error).message}; ${wayOut}`, { cause: error })
    }
    for (const meta of metas) {
      let session: Session | undefined
      try {
        const stored = await this.store.load(meta.id)
        session = stored === undefined || stored === 'unchanged' ? undefined : this.fromStored(stored)
      } catch (error) {
        throw new StoreOpenError(`cannot read session ${meta.id} in ${this.store.location}: ${(error as Error).message}; ${wayOut}`, { cause: error })
      }
      if (session === undefined) continue
      this.sessions.set(session.id, session)
      if (session.pinned) this.pinnedCount++
      // Replicas: deliveries whose replica died while this one was down.
      session.webhooks.takeOver()
    }
    // The cap may have been lowered since: the least recently used go, from the store too.
    this.evict(now)
    return this.sessions.size
  }

  /**
   * Saves the last-seen time of the sessions only read since their last save (issue 19). A read
   * moves it in memory alone (a save per GET would cost every dashboard poll a write), so without
   * this a session read for longer than the idle time after its last write would expire at the
   * next start. Called at every timed sweep and at close: a kill loses at most a sweep's worth.
   * Only for a store this process alone writes: a shared store counts every load as a use itself.
   */
  saveLastSeen (): void {
    if (!this.persistent || this.store.shared) return
    for (const session of this.sessions.values()) {
      const saved = this.saved.get(session)
      if (saved !== undefined && session.lastSeenMs > saved.lastSeenMs) this.commitLater(session, true)
    }
  }

  /** Stops sweeping, waits for what the store was still doing, and closes it: SIGTERM loses nothing. */
  async close (): Promise<void> {
    this.stopSweeping()
    this.saveLastSeen()
    await Promise.allSettled([...this.pending])
    await this.store.close()
  }

  /** Rebuilds the session's world from a scenario; its journal is kept, its faults and stored idempotent answers cleared. */
  reset (id: string, scenario?: string): Session {
    const session = this.get(id)
    session.world = this.createWorld(id, scenario, recorderOf(session.webhooks))
    this.tapOutbox(session)
    session.faults = this.newFaults(id)
    session.idempotency.clear()
    return session
  }

  /**
   * With a store that fans out (replicas): calls `listener` with what happens in the session, here
   * and, through the store's feed, in the other processes; returns the unsubscribe. Undefined when
   * the store has no feed: a watcher listens to the session's journal, outbox and webhooks then.
   */
  watch (sessionId: string, listener: (notice: FeedNotice) => void): (() => void) | undefined {
    const feed = this.store.feed
    if (feed === undefined) return undefined
    const here = this.watchers.get(sessionId) ?? new Listeners<FeedNotice>()
    this.watchers.set(sessionId, here)
    const offHere = here.subscribe(listener)
    // This process's own notices come back from the feed too; they were shown as they happened.
    const offFeed = feed.subscribe(sessionId, notice => { if (notice.origin !== this.replica) listener(notice) })
    return () => {
      offHere()
      offFeed()
      if (!here.active && this.watchers.get(sessionId) === here) this.watchers.delete(sessionId)
    }
  }

  /** Drops the session, from the store too (a promise then, settled once it is gone from there). False when there is none. */
  delete (id: string): boolean | Promise<boolean> {
    if (this.store.shared) {
      // Another replica may hold it, or none here: the store says whether there was one.
      return this.store.delete(id).then(existed => {
        const held = this.sessions.get(id)
        if (held !== undefined) this.remove(held, false)
        return existed
      }, (error: unknown) => {
        this.report(error, `deleting session ${id}`)
        throw unavailable(error, this.store)
      })
    }
    const session = this.sessions.get(id)
    if (session === undefined) return false
    if (!this.persistent) {
      this.remove(session)
      return true
    }
    // Out of the store first: a failure leaves the session as it was, and the client may retry.
    return this.store.delete(id).then(() => {
      if (this.sessions.get(id) === session) this.remove(session, false)
      return true
    }, (error: unknown) => {
      this.report(error, `deleting session ${id}`)
      throw unavailable(error, this.store)
    })
  }

  /**
   * Keeps the session (created if needed) whatever the traffic, until unpinned or deleted.
   * Undefined when MAX_PINNED_SESSIONS are pinned already. With a persistent store, saved before it settles.
   */
  pin (id: string): Session | undefined | Promise<Session | undefined> {
    if (this.store.shared) {
      return this.inTurn(id, {
        writes: false,
        creates: true,
        touches: true,
        run: async session => {
          if (session.pinned) return session
          // Counted in the store, so that the bound holds across replicas (two pinning at the same moment may pass it by one).
          const pinnedNow = (await this.listStored()).filter(meta => meta.pinned).length
          if (pinnedNow >= MAX_PINNED_SESSIONS) return undefined
          session.pinned = true
          this.pinnedCount++
          return session
        }
      })
    }
    const existing = this.sessions.get(id)
    if (existing?.pinned !== true && this.pinnedCount >= MAX_PINNED_SESSIONS) return undefined
    const session = this.get(id)
    if (!session.pinned) {
      session.pinned = true
      this.pinnedCount++
    }
    return this.committed(session)
  }

  /** Lets the session be evicted and expire again; undefined when there is no such session. */
  unpin (id: string): Session | undefined | Promise<Session | undefined> {
    if (this.store.shared) {
      return this.inTurn(id, {
        writes: false,
        creates: false,
        touches: true,
        run: session => {
          if (!this.saved.has(session)) return undefined
          if (session.pinned) {
            session.pinned = false
            this.pinnedCount--
          }
          return session
        }
      })
    }
    const session = this.sessions.get(id)
    if (session === undefined) return undefined
    if (session.pinned) {
      session.pinned = false
      this.pinnedCount--
    }
    return this.committed(session)
  }

  get pinned (): number {
    return this.pinnedCount
  }

  /**
   * With a shared store, brings what this process holds in line with the store before a listing:
   * every stored session loaded (without counting as a use), the ones gone from the store let go,
   * in the store's order. Nothing to do otherwise: this process holds every session.
   */
  async refresh (): Promise<void> {
    if (!this.store.shared) return
    const metas = await this.listStored()
    const stored = new Set(metas.map(meta => meta.id))
    for (const session of [...this.sessions.values()]) {
      if (!stored.has(session.id) && this.saved.has(session)) this.remove(session, false)
    }
    // A turn that only loads: never while a request of this process is changing the session.
    await Promise.all(metas.map(async meta => await this.inTurn(meta.id, { writes: false, creates: false, touches: false, run: () => undefined })))
    for (const meta of metas) {
      const session = this.sessions.get(meta.id)
      if (session === undefined) continue
      this.sessions.delete(meta.id)
      this.sessions.set(meta.id, session)
      session.lastSeenMs = meta.lastSeenMs
      this.mostRecent = meta.id
    }
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
      // A shared store expires sessions itself: this process only lets go of its copy.
      this.remove(session, !this.store.shared)
      if (this.store.shared) continue
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
      this.saveLastSeen()
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

  /** A session with its own webhook state; `world` makes its world, from a scenario unless given (a stored one). */
  private newSession (id: string, now: number, world: (onEvents: EventRecorder) => World = onEvents => this.createWorld(id, undefined, onEvents)): Session {
    const webhooks = new SessionWebhooks(id, this.webhooks)
    const session: Session = {
      id,
      world: world(recorderOf(webhooks)),
      journal: new Journal(this.options.journalCap, this.journalBudget),
      webhooks,
      faults: this.newFaults(id),
      idempotency: new IdempotencyStore(),
      createdMs: now,
      lastSeenMs: now,
      pinned: false,
      unannounced: true
    }
    // A delivery's progress is saved as it happens (replicas write it through their ledger instead);
    // after the code that made it has run, not in the middle of a request's change to the world.
    if (this.persistent && !this.store.shared) webhooks.onProgress = () => queueMicrotask(() => this.commitLater(session))
    if (this.store.feed !== undefined) {
      session.journal.subscribe(entry => this.publish(session, 'request', entry))
      webhooks.subscribe(notice => this.publish(session, notice.kind, notice.value))
      this.tapOutbox(session)
    }
    return session
  }

  /** With a store's feed: follows the session's current world's outbox (a reset or a reload replaces the world). */
  private tapOutbox (session: Session): void {
    if (this.store.feed === undefined) return
    this.outboxTaps.get(session)?.()
    this.outboxTaps.set(session, session.world.outbox.subscribe(message => this.publish(session, 'outbox', message)))
  }

  /**
   * Tells the session's watchers here at once, and the other processes through the store's feed;
   * fire and forget: a feed that fails loses a line of a dashboard, never a request.
   */
  private publish (session: Session, kind: FeedNotice['kind'], value: unknown): void {
    const notice: FeedNotice = { origin: this.replica, session: session.id, kind, value }
    this.watchers.get(session.id)?.notify(notice)
    try {
      this.store.feed?.publish(notice)
    } catch (error) {
      this.options.onStoreError?.(error, `publishing to the feed of session ${session.id}`)
    }
  }

  /** The session committed: itself, at once or once saved. */
  private committed (session: Session): Session | Promise<Session> {
    const saving = this.commit(session)
    return saving === undefined ? session : saving.then(() => session)
  }

  /** What to save: the meta always, the parts whose revision moved, the journal's new entries; undefined when nothing changed. */
  private changeOf (session: Session, saved: Saved | undefined, wrote: boolean, touched = false): { change: SessionChange; next: Saved } | undefined {
    const parts: Record<string, unknown> = {}
    const world = session.world
    const worldChanged = saved === undefined || wrote || saved.world !== world || saved.worldRevision !== world.revision
    if (worldChanged) parts[WORLD_PART] = world.toData()
    const partRevisions = new Map<string, unknown>()
    for (const part of SESSION_PARTS) {
      let data: unknown
      let revision: unknown
      if (part.revision === undefined) {
        data = part.snapshot(session)
        revision = JSON.stringify(data)
      } else {
        revision = part.revision(session)
      }
      partRevisions.set(part.name, revision)
      if (saved !== undefined && saved.parts.get(part.name) === revision) continue
      parts[part.name] = data ?? part.snapshot(session)
    }
    let appended = 0
    const rows = perLog(log => {
      const rowLog = SESSION_ROW_LOGS[log]
      const rowsAfter = rowLog.rowsAfter(session, saved?.rows[log] ?? 0)
      appended += rowsAfter.length
      return { appended: rowsAfter, from: rowLog.firstId(session) }
    })
    const lastSeenMoved = touched && session.lastSeenMs > (saved?.lastSeenMs ?? 0)
    if (!worldChanged && Object.keys(parts).length === 0 && appended === 0 && saved?.pinned === session.pinned && !lastSeenMoved) return undefined
    const version = saved?.version ?? 0
    return {
      change: {
        meta: { id: session.id, createdMs: session.createdMs, lastSeenMs: session.lastSeenMs, pinned: session.pinned },
        baseVersion: version,
        parts,
        rows
      },
      next: {
        version: version + 1,
        world,
        worldRevision: world.revision,
        parts: partRevisions,
        rows: perLog(log => rows[log].appended.at(-1)?.id ?? saved?.rows[log] ?? 0),
        pinned: session.pinned,
        lastSeenMs: session.lastSeenMs
      }
    }
  }

  /** A live session made from what the store kept. Throws when the stored data is not in a format this version reads. */
  private fromStored (stored: StoredSession): Session {
    const data = stored.parts[WORLD_PART]
    if (!isWorldData(data)) throw new TypeError('its world is not in the stored format')
    const session = this.newSession(stored.id, stored.createdMs, onEvents => this.restoreWorld(stored.id, data, onEvents))
    session.lastSeenMs = stored.lastSeenMs
    session.pinned = stored.pinned
    session.unannounced = false
    this.restoreParts(session, stored)
    return session
  }

  private restoreParts (session: Session, stored: StoredSession): void {
    const rewrite = new Set<string>()
    for (const part of SESSION_PARTS) {
      if (!(part.name in stored.parts)) rewrite.add(part.name)
      else if (part.restore(session, stored.parts[part.name], stored) === 'rewrite') rewrite.add(part.name)
    }
    this.saved.set(session, this.savedAs(session, stored, rewrite))
  }

  /**
   * What the store holds of a session just restored: all of it, at its version, but the parts it
   * lacks or holds in an older layout (`rewrite`), written with the next save, and the rows of a
   * log whose part it lacks (stored before that log had rows), written then too.
   */
  private savedAs (session: Session, stored: StoredSession, rewrite: ReadonlySet<string>): Saved {
    const parts = new Map<string, unknown>()
    for (const part of SESSION_PARTS) {
      parts.set(part.name, rewrite.has(part.name) ? REWRITE : part.revision === undefined ? JSON.stringify(part.snapshot(session)) : part.revision(session))
    }
    const rows = perLog(log => {
      const rowLog = SESSION_ROW_LOGS[log]
      return rowLog.part in stored.parts ? rowLog.lastId(session) : 0
    })
    return { version: stored.version, world: session.world, worldRevision: session.world.revision, parts, rows, pinned: session.pinned, lastSeenMs: stored.lastSeenMs }
  }

  /**
   * Loads the session from the store into this process (a shared store's current state, or what
   * a stale session last saved), in place, so watchers keep following it; created anew when the
   * store has none.
   */
  private async reload (id: string, touch = true, claim = false): Promise<Session> {
    let stored: StoredSession | 'unchanged' | undefined
    try {
      const held = this.sessions.get(id)
      const heldSaved = held === undefined ? undefined : this.saved.get(held)
      const knownVersion = held === undefined || this.stale.has(held) ? undefined : heldSaved?.version
      // A shared store need send only the rows this process has not seen saved.
      const rowsAfter = this.store.shared ? heldSaved?.rows : undefined
      stored = await this.store.load(id, { knownVersion, touch, claim, rowsAfter })
      // The copy this process held changed while it was loading (dropped, or saved anew): it needs all of it.
      const changed = held === undefined || this.sessions.get(id) !== held || this.saved.get(held) !== heldSaved
      if (changed && (stored === 'unchanged' || stored?.rowsAfter !== undefined)) stored = await this.store.load(id)
    } catch (error) {
      this.report(error, `loading session ${id}`)
      throw unavailable(error, this.store)
    }
    const live = this.get(id)
    if (stored === 'unchanged') {
      // Replicas: a delivery whose claim ran out is taken over (cheap while none has).
      live.webhooks.takeOver()
      return live
    }
    if (stored === undefined) {
      if (this.store.shared && this.saved.has(live)) {
        // It was in the store (a save that lost to another keeps what the store held before it), and is
        // gone (deleted through another replica, evicted by the cap, expired): it starts afresh, as a new session.
        this.remove(live, false)
        return this.get(id)
      }
      if (this.stale.has(live)) {
        // Never saved (its first save failed): it starts over from the scenario.
        this.stale.delete(live)
        this.saved.delete(live)
        live.world = this.createWorld(id, undefined, recorderOf(live.webhooks))
        this.tapOutbox(live)
        live.faults = this.newFaults(id)
        live.idempotency.clear()
        live.journal.clear()
      }
      return live
    }
    if (!this.stale.has(live) && this.saved.get(live)?.version === stored.version) {
      live.webhooks.takeOver()
      return live
    }
    const data = stored.parts[WORLD_PART]
    if (!isWorldData(data)) throw new StoreUnavailableError(`session ${id} in ${this.store.location} is not in the stored format`)
    try {
      live.world = this.restoreWorld(id, data, recorderOf(live.webhooks))
      this.tapOutbox(live)
      live.createdMs = stored.createdMs
      // Made by whoever stored it, and announced to that client then.
      live.unannounced = false
      live.faults = this.newFaults(id)
      if (live.pinned !== stored.pinned) this.pinnedCount += stored.pinned ? 1 : -1
      live.pinned = stored.pinned
      this.restoreParts(live, stored)
    } catch (error) {
      // A part the store holds is not in a layout this version reads (written by hand, or by
      // another program): the store's failure, 503, not the request's. Half restored, the session
      // is read whole again at its next use.
      this.stale.add(live)
      const failure = new StoreUnavailableError(`session ${id} in ${this.store.location} cannot be read: ${(error as Error).message}`, 1, { cause: error })
      this.report(failure, `loading session ${id}`)
      throw failure
    }
    this.stale.delete(live)
    // Replicas: a delivery whose claim ran out is taken over (restoring sends nothing).
    live.webhooks.takeOver()
    return live
  }

  private async listStored (): Promise<Array<{ id: string; lastSeenMs: number; pinned: boolean }>> {
    try {
      return await this.store.list()
    } catch (error) {
      this.report(error, 'listing the sessions')
      throw unavailable(error, this.store)
    }
  }

  /**
   * Takes a session out, and its journal's entries out of the shared budget; out of the store too
   * unless the caller did that already (no answer waits for it: a failure is reported, and the
   * store expires it at the next start).
   */
  private remove (session: Session, fromStore = true): void {
    this.sessions.delete(session.id)
    if (session.pinned) this.pinnedCount--
    if (this.mostRecent === session.id) this.mostRecent = undefined
    session.journal.clear()
    session.webhooks.close()
    if (this.persistent && fromStore) this.background(this.store.delete(session.id), `dropping session ${session.id}`)
  }

  /** Tells onStoreError of a failure, unless the store told the log already (an outage it reported when it began). */
  private report (error: unknown, what: string): void {
    if (error instanceof StoreUnavailableError && error.reported) return
    this.options.onStoreError?.(error, what)
  }

  private background (work: Promise<unknown>, what: string): void {
    this.track(work.catch((error: unknown) => this.report(error, what)))
  }

  /** Kept until settled, so close() waits for it. */
  private track (work: Promise<unknown>): void {
    const tracked = work.finally(() => this.pending.delete(tracked))
    this.pending.add(tracked)
  }

  /** Pinned sessions do not count against `maxSessions`; the session just used is never the one to go. */
  private evict (now: number): void {
    if (now - this.lastSweepMs > this.sweepIntervalMs) this.sweep(now)
    const over = (): boolean => this.sessions.size - this.pinnedCount > this.options.maxSessions
    if (!over()) return
    for (const session of this.sessions.values()) {
      if (!over() || session.id === this.mostRecent) break
      if (session.id === DEFAULT_SESSION || session.pinned) continue
      // A shared store applies the cap itself, across replicas: this process only lets go of its copy.
      this.remove(session, !this.store.shared)
      if (this.store.shared) continue
      this.dropped.evicted++
      if (this.dropped.evictedIds.length < REPORTED_IDS) this.dropped.evictedIds.push(session.id)
    }
  }
}

/** Where a world's events go: its session's webhook state. */
type EventRecorder = (events: readonly DomainEvent[], scenario: string) => void

function recorderOf (webhooks: SessionWebhooks): EventRecorder {
  return (events, scenario) => webhooks.record(events, scenario)
}

/** A store error as a request's answer sees it: 503 store_unavailable, to retry. */
function unavailable (error: unknown, store: WorldStore): Error {
  if (error instanceof StoreUnavailableError || (error as Error | undefined)?.name === 'StoreConflictError') return error as Error
  return new StoreUnavailableError(`The ${store.kind} store at ${store.location} failed: ${(error as Error | undefined)?.message ?? String(error)}`, 1, { cause: error })
}
