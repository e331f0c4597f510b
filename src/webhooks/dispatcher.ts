import type { Delivery, DeliveryJob, DeliveryQueue } from '../world/deliveries.js'
import { hasCredentials, withoutPassword } from '../world/url-credentials.js'
import { FairLanes } from './fair-lanes.js'
import { signedHeaders } from './signing.js'

export interface DispatcherOptions {
  /** Delays of the attempts: before the first, then after each failure (see retry-schedule.ts). */
  retrySchedule: readonly number[]
  /** How long one attempt may take, answer included. */
  timeoutMs: number
  /** Deliveries waiting at once (all sessions); past it a session's new delivery is refused. */
  maxPending: number
  /** Deliveries one session may have waiting: its share of the queue; past it its new ones are refused. */
  maxPendingPerSession: number
  /** Requests in flight at once: sockets a receiver that never answers can tie up. */
  maxInFlight: number
  /** Requests of one session in flight at once: its share of the sockets. */
  maxInFlightPerSession: number
  /** Told how many deliveries of a session were refused (a full share), at most once per session per `reportEveryMs`. */
  onRefused?: ((session: string, count: number) => void) | undefined
  reportEveryMs?: number
  /**
   * Why the mock will not send to `url` (a private address when the control plane is open to a
   * network: see target-guard.ts), checked before each attempt connects; undefined when it may.
   */
  checkTarget?: ((url: string) => Promise<string | undefined>) | undefined
  /** Real time; tests need not pass it. */
  now?: () => number
  fetch?: typeof fetch
}

/** A delivery the dispatcher holds: waiting for its time, for a socket, or being sent. */
interface Held {
  job: DeliveryJob
  /** Its session: its lane (fair-lanes.ts). */
  session: string
  timer: ReturnType<typeof setTimeout> | undefined
  sending: boolean
  /** Asked for by hand (POST …/retry). */
  manual: boolean
  /** The delivery had settled before that: it does not go on with the schedule. */
  settledBefore: boolean
}

/**
 * Sends webhook deliveries off the request path: each attempt is a POST of the payload with the
 * Standard Webhooks headers, signed anew (webhook-timestamp is real time) with the same webhook-id.
 * A 2xx settles it; anything else (another status, a refused connection, the time-out) is tried
 * again after the schedule's next delay, and after the last it has FAILED. Bounded and fair: at
 * most `maxPending` deliveries wait, `maxPendingPerSession` of one session, and past either a
 * session's new delivery is refused (FAILED, counted, reported), never another's dropped; at most
 * `maxInFlight` are sent at once, `maxInFlightPerSession` of one session, the sockets going
 * round-robin between the sessions with a delivery due.
 */
export class WebhookDispatcher implements DeliveryQueue {
  readonly retrySchedule: readonly number[]
  private readonly held = new Map<string, Held>()
  private readonly lanes: FairLanes<Held>
  private inFlight = 0
  private readonly closing = new AbortController()
  private closed = false
  private refusedTotal = 0
  /** Refusals not yet reported, by session. */
  private readonly unreported = new Map<string, number>()
  private reporter: ReturnType<typeof setTimeout> | undefined
  private readonly idle = new Set<() => void>()
  private readonly now: () => number
  private readonly send: typeof fetch

  constructor (private readonly options: DispatcherOptions) {
    this.retrySchedule = options.retrySchedule
    this.now = options.now ?? Date.now
    this.lanes = new FairLanes(options.maxInFlightPerSession)
    // Taken now: MSW, once listening, patches the global fetch, and deliveries are not the app's requests.
    this.send = options.fetch ?? globalThis.fetch.bind(globalThis)
  }

  /** Deliveries refused because their session's share (or the whole queue) was full, since start. */
  get refused (): number {
    return this.refusedTotal
  }

  /** Deliveries waiting or being sent. */
  get pending (): number {
    return this.held.size
  }

  schedule (job: DeliveryJob, delayMs: number): void {
    this.enqueue(job, delayMs, { manual: false, settledBefore: false })
  }

  retryNow (job: DeliveryJob, settled = !this.held.has(job.delivery.id)): void {
    this.enqueue(job, 0, { manual: true, settledBefore: settled })
  }

  sending (delivery: Delivery): boolean {
    return this.held.get(delivery.id)?.sending === true
  }

  cancel (delivery: Delivery): void {
    const held = this.held.get(delivery.id)
    if (held === undefined) return
    this.forget(held)
    delivery.nextAttemptAt = null
    this.notifyIdle()
  }

  /** Stops: nothing more is sent, requests in flight are aborted; pending records stay as they are (PENDING). */
  async close (): Promise<void> {
    this.closed = true
    for (const held of this.held.values()) clearTimeout(held.timer)
    this.closing.abort()
    clearTimeout(this.reporter)
    this.report()
    while (this.inFlight > 0) await new Promise<void>(resolve => this.idle.add(resolve))
    this.held.clear()
    this.lanes.clear()
  }

  /** Resolves once nothing waits or is in flight (tests). */
  async drained (): Promise<void> {
    while (this.held.size > 0 || this.inFlight > 0) await new Promise<void>(resolve => this.idle.add(resolve))
  }

  private enqueue (job: DeliveryJob, delayMs: number, how: Pick<Held, 'manual' | 'settledBefore'>): void {
    if (this.closed) return
    const { delivery } = job
    const existing = this.held.get(delivery.id)
    if (existing !== undefined) {
      this.forget(existing)
    } else {
      // A delivery already held keeps its place; only a new one can find its session's share full.
      const refusal = this.refusal(job.session)
      if (refusal !== undefined) {
        this.refuse(job, refusal)
        return
      }
    }
    const held: Held = { job, session: job.session, timer: undefined, sending: false, ...how }
    this.held.set(delivery.id, held)
    this.lanes.hold(held.session)
    delivery.nextAttemptAt = new Date(this.now() + delayMs).toISOString()
    if (delayMs <= 0) {
      this.makeReady(held)
      return
    }
    held.timer = setTimeout(() => this.makeReady(held), delayMs)
    // A browser's timers are numbers; Node's must not keep the process up for a retry hours away.
    if (typeof held.timer === 'object') held.timer.unref()
  }

  /** Why `session` may not add a delivery now, or undefined when it may. */
  private refusal (session: string): string | undefined {
    const { maxPending, maxPendingPerSession } = this.options
    const mine = this.lanes.held(session)
    if (mine >= maxPendingPerSession) return `refused: session ${session} has ${mine} deliveries waiting, its share of the webhook queue (receiver down or slow?)`
    if (this.held.size >= maxPending) return `refused: ${maxPending} deliveries of all sessions are waiting, the webhook queue's bound`
    return undefined
  }

  /** Fails the new delivery, visibly: its record says why, its session's log line counts it. */
  private refuse (job: DeliveryJob, reason: string): void {
    Object.assign(job.delivery, { status: 'FAILED', failureReason: reason, nextAttemptAt: null })
    job.changed()
    this.refusedTotal++
    this.unreported.set(job.session, (this.unreported.get(job.session) ?? 0) + 1)
    if (this.reporter === undefined) {
      this.reporter = setTimeout(() => this.report(), this.options.reportEveryMs ?? 10_000)
      if (typeof this.reporter === 'object') this.reporter.unref()
    }
  }

  private report (): void {
    this.reporter = undefined
    for (const [session, count] of this.unreported) this.options.onRefused?.(session, count)
    this.unreported.clear()
  }

  /** Lets go of a held delivery: its timer, its place in its session's share. */
  private forget (held: Held): void {
    clearTimeout(held.timer)
    if (this.held.get(held.job.delivery.id) !== held) return
    this.held.delete(held.job.delivery.id)
    this.lanes.release(held.session)
  }

  private makeReady (held: Held): void {
    held.timer = undefined
    if (this.held.get(held.job.delivery.id) !== held) return
    this.lanes.due(held.session, held)
    this.pump()
  }

  private pump (): void {
    while (!this.closed && this.inFlight < this.options.maxInFlight) {
      // Those cancelled while waiting for a socket are passed over.
      const held = this.lanes.next(waiting => this.held.get(waiting.job.delivery.id) === waiting)
      if (held === undefined) return
      void this.attempt(held)
    }
  }

  private async attempt (held: Held): Promise<void> {
    const { job } = held
    const { delivery } = job
    held.sending = true
    delivery.nextAttemptAt = null
    this.inFlight++
    if (job.claim !== undefined && !(await this.claimed(held, job.claim))) return
    const started = this.now()
    const at = new Date(started)
    let status: number | undefined
    let error: string | undefined
    const secret = job.secret()
    // A timer of our own, not AbortSignal.timeout(): Node 20's AbortSignal.any() holds its sources
    // weakly, so a garbage collection during the attempt could lose the time-out and hang it forever.
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(new DOMException(`timed out after ${this.options.timeoutMs} ms`, 'TimeoutError')), this.options.timeoutMs)
    try {
      if (secret === undefined) throw new Error('the endpoint was deleted')
      // Kept by a store from before such URLs were refused: fetch would refuse it, quoting the password.
      if (hasCredentials(delivery.url)) throw new Error('its URL carries credentials (user:password@), which the mock never sends')
      const refusal = await this.options.checkTarget?.(delivery.url)
      if (refusal !== undefined) throw new Error(refusal)
      const response = await this.send(delivery.url, {
        method: 'POST',
        headers: signedHeaders(secret, delivery.eventId, job.payload, at),
        body: job.payload,
        // A redirect is no answer: the receiver is where the endpoint says.
        redirect: 'manual',
        signal: AbortSignal.any([this.closing.signal, timeout.signal])
      })
      status = response.status
      // Not read: a receiver's answer is not ours to keep, and a large one would hold memory.
      await response.body?.cancel().catch(() => {})
    } catch (caught) {
      error = withoutPassword(describe(caught, this.options.timeoutMs), delivery.url)
    } finally {
      clearTimeout(timer)
      this.inFlight--
      this.lanes.finished(held.session)
      held.sending = false
    }
    if (this.closed) {
      this.notifyIdle()
      return
    }
    delivery.attempts.push({
      at: at.toISOString(),
      ...(status === undefined ? {} : { status }),
      ...(error === undefined ? {} : { error }),
      durationMs: Math.max(0, this.now() - started),
      ...(held.manual ? { manual: true as const } : {})
    })
    // Cancelled while it was being sent (its endpoint deleted, its session dropped): the attempt is all there is to say.
    if (this.held.get(delivery.id) === held) this.settleOrRetry(held, status !== undefined && status >= 200 && status < 300, secret === undefined)
    else job.changed()
    this.notifyIdle()
    this.pump()
  }

  /** Whether the job may be sent now (see DeliveryJob.claim); when not, it is let go of. */
  private async claimed (held: Held, claim: () => Promise<boolean>): Promise<boolean> {
    // Asked on a later turn than the attempt was queued: an attempt due at once is queued by
    // settleOrRetry just before it tells the job the last outcome, and that outcome must be
    // written to the session before this claim reads it.
    await Promise.resolve()
    const mine = await claim().catch(() => false)
    const id = held.job.delivery.id
    if (mine && !this.closed && this.held.get(id) === held) return true
    this.inFlight--
    this.lanes.finished(held.session)
    held.sending = false
    this.forget(held)
    this.notifyIdle()
    this.pump()
    return false
  }

  private settleOrRetry (held: Held, succeeded: boolean, endpointGone: boolean): void {
    const { job } = held
    const { delivery } = job
    const next = this.retrySchedule[delivery.attempts.length]
    if (succeeded) {
      delivery.status = 'SUCCEEDED'
    } else if (held.settledBefore || endpointGone || next === undefined) {
      delivery.status = 'FAILED'
    } else {
      // In its own place: a retry is never refused for its session's share.
      this.enqueue(job, next, { manual: false, settledBefore: false })
      job.changed()
      return
    }
    this.forget(held)
    delivery.nextAttemptAt = null
    job.changed()
  }

  private notifyIdle (): void {
    const waiting = [...this.idle]
    this.idle.clear()
    for (const resolve of waiting) resolve()
  }
}

/** Why an attempt got no answer, in a few words (never the URL's credentials, never the secret). */
function describe (error: unknown, timeoutMs: number): string {
  const { name, message, cause } = error as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (name === 'TimeoutError') return `timed out after ${timeoutMs} ms`
  if (name === 'AbortError') return 'aborted: the mock was shutting down'
  const code = cause?.code
  // The guard refused the address the name resolved to when connecting (target-guard.ts): its words say why.
  if (code === 'EBLOCKED' && cause?.message !== undefined) return cause.message
  if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : code
  return cause?.message ?? message ?? 'no answer'
}
