import { sleep } from './exchange.js'
import { MAX_DELAY_MS } from './prefer.js'

/** Waits a number of milliseconds. The server's is a timer; a test may pass one it resolves itself. */
export type Sleep = (ms: number) => Promise<unknown>

export const realSleep: Sleep = ms => sleep(ms)

/**
 * The waits of one request, which share one cap: every fault rule that fires adds its delay, and a
 * `Prefer: delay` or a response example's delay comes after them. Together they stay within
 * MAX_DELAY_MS, as the README says, however many rules match.
 */
export class RequestDelay {
  private waited = 0

  constructor (private readonly sleep: Sleep = realSleep, private readonly signal?: AbortSignal) {}

  /** Milliseconds waited so far. */
  get waitedMs (): number {
    return this.waited
  }

  /** What of `ms` fits under the cap, given what was waited already. */
  allowance (ms: number): number {
    return Math.max(0, Math.min(ms, MAX_DELAY_MS - this.waited))
  }

  /** Waits `ms`, or what is left of the cap; answers the milliseconds waited. */
  async wait (ms: number): Promise<number> {
    const granted = this.allowance(ms)
    if (granted === 0) return 0
    this.waited += granted
    if (this.signal === undefined) await this.sleep(granted)
    else {
      await untilAborted(this.sleep(granted), this.signal)
      // Aborted as the wait ended: what comes after the wait still does not run.
      this.signal.throwIfAborted()
    }
    return granted
  }
}

/**
 * `work`, or a rejection with the signal's reason as soon as it aborts (at once if it has), as
 * `fetch` rejects. Whatever `work` does later is left to it, never unhandled.
 */
export async function untilAborted<T> (work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  let stop = (): void => {}
  const aborted = new Promise<never>((_resolve, reject) => {
    stop = () => { reject(signal.reason) }
    signal.addEventListener('abort', stop, { once: true })
  })
  try {
    return await Promise.race([work, aborted])
  } finally {
    signal.removeEventListener('abort', stop)
    work.catch(() => {})
  }
}
