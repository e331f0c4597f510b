import { StoreUnavailableError, type LoadOptions, type SessionChange, type StoredSession, type WorldStore } from './store.js'
import type { StoreLog } from './open-store.js'

/** How long after its last refused write a store still counts as unable to write, for readiness. */
export const OUTAGE_READY_AFTER_MS = 10_000
/** How long without a refused write before the outage's end is said. */
export const OUTAGE_QUIET_MS = 1000

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
  /** The beginning was logged and the end not yet: a store that flaps (a nearly full disk) stays one outage. */
  private said: string | undefined
  private sinceMs = 0
  private lastMs = 0
  private refused = 0

  constructor (private readonly log: StoreLog, private readonly now: () => number = Date.now) {}

  /** Why the store cannot write now, or undefined when it can (as far as anyone knows). */
  get current (): string | undefined {
    return this.reason !== undefined && this.now() - this.lastMs < OUTAGE_READY_AFTER_MS ? this.reason : undefined
  }

  failed (error: StoreUnavailableError): void {
    this.refused++
    this.lastMs = this.now()
    if (this.reason !== undefined) return
    this.reason = causeOf(error)
    if (this.said !== undefined) return
    this.said = this.reason
    this.sinceMs = this.lastMs
    this.log('warn', `state store cannot write: ${this.reason}; writes answer 503 store_unavailable and /readyz 503, reads go on; said again when it can write`)
  }

  /**
   * Ready again at once; the end is said once no write was refused for OUTAGE_QUIET_MS (a nearly
   * full disk takes some writes and refuses others: one outage, not a pair of lines every few requests).
   */
  succeeded (): void {
    this.reason = undefined
    if (this.said === undefined || this.now() - this.lastMs < OUTAGE_QUIET_MS) return
    const seconds = Math.round((this.now() - this.sinceMs) / 1000)
    this.log('info', `state store can write again after ${seconds} s: ${this.refused} write(s) refused meanwhile (${this.said})`)
    this.said = undefined
    this.refused = 0
  }

  /**
   * `store` with its writes watched: a refused one marks the outage and goes on as a
   * StoreUnavailableError marked reported (so no caller logs it again), a successful one ends it.
   */
  watch (store: WorldStore): WorldStore {
    const watched = async <T>(work: Promise<T>): Promise<T> => {
      try {
        const value = await work
        this.succeeded()
        return value
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
      // A load writes too on a shared store (the last-seen time): refused, it is the same outage.
      load: async (id: string, options?: LoadOptions): Promise<StoredSession | 'unchanged' | undefined> => {
        try {
          return await store.load(id, options)
        } catch (error) {
          throw this.seen(error)
        }
      },
      save: async (change: SessionChange) => await watched(store.save(change)),
      delete: async (id: string) => await watched(store.delete(id)),
      expire: async (idleSinceMs: number) => await watched(store.expire(idleSinceMs)),
      close: async () => { await store.close() },
      ...(store.release === undefined ? {} : { release: store.release.bind(store) }),
      check: async () => {
        await store.check?.()
        const reason = this.current
        if (reason !== undefined) throw new StoreUnavailableError(`the state store cannot write: ${reason}`, 1, { reported: true })
      }
    }
  }

  private seen (error: unknown): unknown {
    if (!(error instanceof StoreUnavailableError) || error.reported) return error
    this.failed(error)
    return new StoreUnavailableError(error.message, error.retryAfterSeconds, { cause: error.cause ?? error, reported: true })
  }
}

/** The innermost message: SQLite's or Redis's own words (SQLITE_FULL, OOM command not allowed …). */
function causeOf (error: Error): string {
  let innermost: unknown = error
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause
  const { code, message } = innermost as { code?: string; message?: string }
  const text = (message ?? String(innermost)).split('\n')[0] ?? ''
  return code === undefined || text.includes(code) ? text : `${code} (${text})`
}
