import type { DomainEvent } from '../domain/events.js'
import { createIdSource } from './ids.js'
import { EventLog, type EventPresentation, type StoredEventJson, type WebhookEvent } from './event-log.js'
import { JournalBudget } from './journal-budget.js'
import { Listeners } from './listeners.js'

export type { EventPresentation, WebhookEvent } from './event-log.js'

/** What every session's webhook state shares: how events are presented, and the bounds. */
export interface WebhookContext {
  readonly presentation: EventPresentation
  /** Events kept per session. */
  readonly eventCap: number
  /** What the event logs of all sessions may hold together. */
  readonly eventBudget: JournalBudget
  /** `--seed`: event ids repeat run to run. */
  readonly seed: number | undefined
}

/** What a watcher (the dashboard's feed) is told. */
export type WebhookNotice = { kind: 'event'; value: WebhookEvent }

/** One session's webhook state as plain JSON (see SessionWebhooks.snapshot). */
export interface WebhooksSnapshot {
  version: 1
  events: StoredEventJson[]
  recorded: number
}

/** Presents events as JSON.stringify does, with no fixture overrides: for sessions made without a core (tests). */
export const PLAIN_PRESENTATION: EventPresentation = { data: event => JSON.stringify(event.data), override: () => undefined }

export function plainWebhookContext (): WebhookContext {
  return { presentation: PLAIN_PRESENTATION, eventCap: 500, eventBudget: new JournalBudget(16 * 1024 * 1024), seed: undefined }
}

/**
 * Everything about webhooks one session holds, in one place: its event log (and, with delivery,
 * its endpoints and deliveries). It outlives resets of the world, as the journal does, and
 * `snapshot()`/`restore()` carry it as plain JSON.
 */
export class SessionWebhooks {
  readonly events: EventLog
  private readonly listeners = new Listeners<WebhookNotice>()

  constructor (readonly sessionId: string, private readonly context: WebhookContext) {
    this.events = new EventLog(context.eventCap, context.eventBudget, createIdSource(context.seed, `webhooks:${sessionId}`))
  }

  /**
   * Records events of the session's world (of `scenario`, whose fixtures may reshape or silence
   * them), in order. One advance of the clock can make thousands: only those the log will still
   * hold afterwards are presented and stored (a transfer with its executions is kilobytes of JSON);
   * the others are counted.
   */
  record (events: readonly DomainEvent[], scenario: string): void {
    const { presentation } = this.context
    const made = events.filter(event => presentation.override(scenario, event.type)?.silent !== true)
    const kept = Math.min(made.length, this.events.capacity)
    this.events.skip(made.length - kept)
    for (const event of made.slice(made.length - kept)) {
      const stored = this.events.make(event, scenario, this.sessionId, presentation)
      this.events.add(stored)
      if (this.listeners.active) this.listeners.notify({ kind: 'event', value: stored.entry() })
    }
  }

  query (...args: Parameters<EventLog['query']>): WebhookEvent[] | undefined {
    return this.events.query(...args)
  }

  /** Calls `listener` (which must not throw) with every notice from now on; returns the unsubscribe. */
  subscribe (listener: (notice: WebhookNotice) => void): () => void {
    return this.listeners.subscribe(listener)
  }

  /** The session is gone: its events' bytes go back to the shared budget. */
  close (): void {
    this.events.clear()
  }

  snapshot (): WebhooksSnapshot {
    return { version: 1, events: this.events.toJSON(), recorded: this.events.recorded }
  }

  restore (snapshot: WebhooksSnapshot): void {
    this.events.restore(snapshot.events, snapshot.recorded)
  }
}
