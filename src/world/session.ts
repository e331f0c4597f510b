import type { FaultRules } from './faults.js'
import type { IdempotencyStore } from './idempotency.js'
import type { Journal } from './journal.js'
import type { SessionWebhooks } from './webhooks.js'
import type { World } from './world.js'

/** One session: its world and what it keeps beside it (journal, webhooks, faults, idempotent answers). */
export interface Session {
  readonly id: string
  world: World
  readonly journal: Journal
  /** Its events, webhook endpoints and deliveries: kept across resets, like the journal. */
  readonly webhooks: SessionWebhooks
  faults: FaultRules
  /** Answers to `Idempotency-Key` requests, replayed on a retry; cleared by a reset. */
  readonly idempotency: IdempotencyStore
  /** Wall-clock time it was created; a replica learns it from a shared store at the first load. */
  createdMs: number
  lastSeenMs: number
  /** Kept whatever the traffic: neither evicted for newer sessions nor dropped when idle. */
  pinned: boolean
  /** Created from the scenario and not yet announced to a client (`x-mock-session-created`). */
  unannounced: boolean
}
