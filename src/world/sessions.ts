import { FaultRules } from './faults.js'
import { Journal } from './journal.js'
import type { World } from './world.js'

export const DEFAULT_SESSION = 'default'

export interface Session {
  readonly id: string
  world: World
  readonly journal: Journal
  faults: FaultRules
  readonly createdMs: number
  lastSeenMs: number
}

export interface SessionStoreOptions {
  maxSessions: number
  idleTimeoutMs: number
  journalCap: number
  /** Seeds each session's fault draws (`--seed`), so probabilistic faults repeat run to run. */
  seed?: number | undefined
  now?: () => number
}

/**
 * Isolated worlds keyed by the `x-mock-session` header, created lazily. Least recently used
 * first out when over the cap; idle ones expire. The default session is never evicted: a demo's
 * state must survive a CI burst on the same server.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>()
  private readonly now: () => number
  private lastSweepMs = 0
  /** The last key of `sessions` (the most recently used): a run of requests from one session skips the re-insert. */
  private mostRecent: string | undefined
  private sweeper: ReturnType<typeof setInterval> | undefined

  constructor (private readonly createWorld: (sessionId: string, scenario?: string) => World, private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now
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
      session = { id, world: this.createWorld(id), journal: new Journal(this.options.journalCap), faults: this.newFaults(id), createdMs: now, lastSeenMs: now }
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

  /** Rebuilds the session's world from a scenario; its journal is kept, its faults cleared. */
  reset (id: string, scenario?: string): Session {
    const session = this.get(id)
    session.world = this.createWorld(id, scenario)
    session.faults = this.newFaults(id)
    return session
  }

  delete (id: string): boolean {
    return this.sessions.delete(id)
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

  /** Drops expired sessions now (also done lazily on access); answers how many went. */
  sweep (now = this.now()): number {
    this.lastSweepMs = now
    let dropped = 0
    for (const [id, session] of this.sessions) {
      if (now - session.lastSeenMs < this.options.idleTimeoutMs) break // LRU order: the rest are fresher
      if (id !== DEFAULT_SESSION && this.sessions.delete(id)) dropped++
    }
    return dropped
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
      if (dropped > 0) afterSweep?.(dropped, before)
    }, intervalMs)
    this.sweeper.unref()
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

  private evict (now: number): void {
    if (now - this.lastSweepMs > this.sweepIntervalMs) this.sweep(now)
    if (this.sessions.size <= this.options.maxSessions) return
    for (const id of this.sessions.keys()) {
      if (this.sessions.size <= this.options.maxSessions) break
      if (id !== DEFAULT_SESSION) this.sessions.delete(id)
    }
  }
}
