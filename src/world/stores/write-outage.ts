import { StoreUnavailableError, type LoadOptions, type SessionChange, type StoredSession, type WorldStore } from './store.js'
import type { StoreLog } from './open-store.js'

/** How long after its last refused write a store still counts as unable to write, for readiness. */
export const OUTAGE_READY_AFTER_MS = 10_000
/** How long without a refused write before the outage's end is said. */
export const OUTAGE_QUIET_MS = 1000

/** A one-shot timer, injectable so tests need not wait out the quiet second. */
export interface OutageTimers {
  set: (fire: () => void, ms: number) => unknown
  clear: (handle: unknown) => void
}

const NODE_TIMERS: OutageTimers = {
  set: (fire, ms) => {
    const timer = setTimeout(fire, ms)
    // The end of an outage is news, not work: it must not keep a process up that is otherwise done.
    timer.unref()
    return timer
  },
  clear: handle => { clearTimeout(handle as NodeJS.Timeout) }
}

/**
 * A store that cannot write (a full disk, a full Redis with noeviction, a lock) as a state the
 * process knows: one log line when it begins, one when a write succeeds again with the count of
 * writes refused meanwhile, never a line per request; and, for GET /readyz, the reason while a
 * write was refused in the last OUTAGE_READY_AFTER_MS (a replica nobody sends writes to any more
 * is tried again after that, and the next refused write makes it not ready again, silently).
 * An outage the store reports itself (Redis unreachable: its own lines) is left to it.
 */
export class WriteOutage {
  private reason: string | undefined
  private sinceMs = 0
  private lastMs = 0
  private refused = 0
  private skipped = 0
  /** The beginning was logged and the end not yet: a store that flaps (a nearly full disk) stays one outage. */
  private said: string | undefined
  /** Says the end once the quiet time is over, if no write comes to say it (traffic stopped). */
  private endTimer: unknown

  constructor (
    private readonly log: StoreLog,
    private readonly now: () => number = Date.now,
    private readonly timers: OutageTimers = NODE_TIMERS
  ) {}

  /** Why the store cannot write now, or undefined when it can (as far as anyone knows). */
  get current (): string | undefined {
    return this.reason !== undefined && this.now() - this.lastMs < OUTAGE_READY_AFTER_MS ? this.reason : undefined
  }

  /**
   * A write refused. `counted`: a request was refused with it; false for what a read only left out
   * (a last-seen time), `journal` for entries of requests answered already (not kept, nobody refused).
   */
  failed (error: StoreUnavailableError, counted: boolean | 'journal' = true): void {
    if (counted === true) this.refused++
    else if (counted === 'journal') this.skipped++
    this.lastMs = this.now()
    if (this.reason !== undefined) return
    this.reason = causeOf(error)
    if (this.said !== undefined) return
    this.said = this.reason
    this.sinceMs = this.lastMs
    this.log('warn', `state store cannot write: ${this.reason}; writes answer 503 (store_unavailable, or store_outcome_unknown for one whose reply never came) and /readyz 503, reads go on; said again when it can write`)
  }

  /**
   * Ready again at once; the end is said once no write was refused for OUTAGE_QUIET_MS (a nearly
   * full disk takes some writes and refuses others: one outage, not a pair of lines every few requests).
   * Within the quiet time, a timer says it when the time is over: the last write may be the last for a while.
   */
  succeeded (): void {
    this.reason = undefined
    this.endIfQuiet()
  }

  /** Stops the timer that would say the end: a closed store says nothing more. */
  close (): void {
    if (this.endTimer !== undefined) this.timers.clear(this.endTimer)
    this.endTimer = undefined
  }

  private endIfQuiet (): void {
    // Refused again since (the timer fired into a new refusal): the next successful write looks again.
    if (this.said === undefined || this.reason !== undefined) return
    const quietFor = this.now() - this.lastMs
    if (quietFor < OUTAGE_QUIET_MS) {
      this.endTimer ??= this.timers.set(() => {
        this.endTimer = undefined
        this.endIfQuiet()
      }, OUTAGE_QUIET_MS - quietFor)
      return
    }
    this.close()
    const seconds = Math.round((this.now() - this.sinceMs) / 1000)
    this.log('info', `state store can write again after ${seconds} s: ${this.refused} write(s) refused meanwhile, ${this.skipped} journal entry(ies) of answered requests not kept (${this.said})`)
    this.said = undefined
    this.refused = 0
    this.skipped = 0
  }

  /**
   * `store` with its writes watched: a refused one marks the outage and goes on as a
   * StoreUnavailableError marked reported (so no caller logs it again), a successful one ends it.
   */
  watch (store: WorldStore): WorldStore {
    const watched = async <T>(work: Promise<T>, counted: true | 'journal' = true): Promise<T> => {
      try {
        const value = await work
        this.succeeded()
        return value
      } catch (error) {
        throw this.seen(error, counted)
      }
    }
    const refusals = async <T>(work: Promise<T>): Promise<T> => {
      try {
        return await work
      } catch (error) {
        throw this.seen(error)
      }
    }
    return {
      kind: store.kind,
      location: store.location,
      persistent: store.persistent,
      shared: store.shared,
      feed: store.feed,
      list: async () => await store.list(),
      // A load writes too on a shared store (the last-seen time): refused, it is the same outage, and the read goes on.
      load: async (id: string, options?: LoadOptions): Promise<StoredSession | 'unchanged' | undefined> =>
        await refusals(store.load(id, { ...options, onSkippedWrite: error => { this.failed(error, false) } })),
      save: async (change: SessionChange) => await watched(store.save(change), journalOnly(change) ? 'journal' : true),
      // A full store still deletes (Redis frees memory, noeviction or not): only a save shows it can write again.
      delete: async (id: string) => await refusals(store.delete(id)),
      expire: async (idleSinceMs: number) => await refusals(store.expire(idleSinceMs)),
      close: async () => {
        this.close()
        await store.close()
      },
      ...(store.release === undefined ? {} : { release: store.release.bind(store) }),
      ...(store.keptAdminToken === undefined ? {} : { keptAdminToken: store.keptAdminToken.bind(store) }),
      check: async () => {
        await store.check?.()
        const reason = this.current
        if (reason !== undefined) throw new StoreUnavailableError(`the state store cannot write: ${reason}`, 1, { reported: true })
      }
    }
  }

  private seen (error: unknown, counted: true | 'journal' = true): unknown {
    if (!(error instanceof StoreUnavailableError) || error.reported) return error
    this.failed(error, counted)
    return new StoreUnavailableError(error.message, error.retryAfterSeconds, { cause: error.cause ?? error, reported: true, outcomeUnknown: error.outcomeUnknown })
  }
}

/**
 * A change that only appends journal entries (and the journal's counters): the requests they
 * record were answered already, so refusing it refused no request.
 */
function journalOnly (change: SessionChange): boolean {
  return change.rows.events.appended.length === 0 && Object.keys(change.parts).every(name => name === 'journal')
}

/** The innermost message: SQLite's or Redis's own words (SQLITE_FULL, OOM command not allowed …). */
function causeOf (error: Error): string {
  let innermost: unknown = error
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause
  const { code, message } = innermost as { code?: string; message?: string }
  const text = (message ?? String(innermost)).split('\n')[0] ?? ''
  return code === undefined || text.includes(code) ? text : `${code} (${text})`
}
