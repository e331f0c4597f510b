/** A session's webhook endpoints and deliveries, as data; the dispatcher (src/webhooks) sends them. */

export interface WebhookEndpoint {
  id: string
  url: string
  /** The event types it receives (as sent, or the mock's own); null: every event. */
  events: string[] | null
  /** `whsec_…`: shown to the control plane, never logged. */
  secret: string
}

export interface DeliveryAttempt {
  /** Real time the request went out. */
  at: string
  /** The receiver's HTTP status; absent when no answer came (see error). */
  status?: number
  /** Why there was no answer (timed out, connection refused…). */
  error?: string
  durationMs: number
  /** Sent by POST …/retry, not by the schedule. */
  manual?: true
}

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED'

export interface Delivery {
  id: string
  /** Sent as webhook-id, the same on every attempt. */
  eventId: string
  eventType: string
  endpointId: string
  url: string
  status: DeliveryStatus
  attempts: DeliveryAttempt[]
  /** Real time of the next attempt of the schedule; null when none is due (settled, or being sent). */
  nextAttemptAt: string | null
  createdAt: string
  /** Why it failed without its attempts saying so (refused by a full share of the queue, endpoint deleted). */
  failureReason?: string
}

/** What the dispatcher needs of a delivery: the record it updates, what to send, and whom to tell. */
export interface DeliveryJob {
  readonly delivery: Delivery
  /** The session it is of: each has its share of the queue and of the sockets. */
  readonly session: string
  readonly payload: string
  /** The endpoint's secret now; undefined when the endpoint is gone. */
  secret (): string | undefined
  /**
   * Replicas sharing the session: asked before each attempt whether this process may send it now
   * (it settled, or another replica holds it, otherwise); the job lets go of it when not.
   */
  claim?: () => Promise<boolean>
  /** The record changed (an attempt was made, it settled): watchers are told. */
  changed (): void
}

/** Attempts one delivery may make, its schedule's and those asked for by hand together. */
export const MAX_DELIVERY_ATTEMPTS = 20

/** Sends deliveries off the request path, retrying on its schedule (src/webhooks/dispatcher.ts). */
export interface DeliveryQueue {
  /** The delays of the attempts: before the first, then after each failure. */
  readonly retrySchedule: readonly number[]
  /** Sends `job`'s next attempt after `delayMs`, and retries on the schedule until it settles. */
  schedule (job: DeliveryJob, delayMs: number): void
  /**
   * One attempt now; a settled delivery is not retried again after it. `settled`: whether it had
   * settled, when the caller knows better than this queue (replicas: another may hold its schedule).
   */
  retryNow (job: DeliveryJob, settled?: boolean): void
  /** Whether an attempt of it is being sent now. */
  sending (delivery: Delivery): boolean
  /** Forgets it: no further attempt (its record is the caller's to settle). */
  cancel (delivery: Delivery): void
  /** Stops sending: requests in flight are aborted, nothing more goes out. */
  close (): Promise<void>
}

/** Sends nothing: sessions made without a dispatcher (tests of the world alone). */
export const NO_DELIVERIES: DeliveryQueue = {
  retrySchedule: [0],
  schedule: () => {},
  retryNow: () => {},
  sending: () => false,
  cancel: () => {},
  close: async () => {}
}
