import type { DomainContext } from './context.js'
import type { DomainEvent, EventType } from './events.js'
import { isoAt } from './iso-time.js'

/** Something that happened because time passed (a transfer ran, a card shipped, a code expired): an event like any other. */
export type TimelineEvent = DomainEvent

/** An event as the clock-advance answer lists it: its type is the `kind`. */
export interface FiredEvent {
  at: string
  kind: EventType
  entityId: string
  detail: string
}

export function firedEvent ({ at, type, entityId, detail }: TimelineEvent): FiredEvent {
  return { at, kind: type, entityId, detail }
}

/**
 * The instant a world is brought up to. A world settles before every request, so its ISO forms
 * (Date#toISOString costs about a microsecond) are made only if a processor asks, and isoAt
 * formats that millisecond once however many ask.
 */
export class DueInstant {
  constructor (readonly ms: number) {}

  get iso (): string {
    return isoAt(this.ms)
  }

  /** The UTC date, YYYY-MM-DD. */
  get day (): string {
    return this.iso.slice(0, 10)
  }
}

/** Each domain module that reacts to time exports one: it applies what fell due by `until`. */
export type DueProcessor = (ctx: DomainContext, until: DueInstant) => TimelineEvent[]

/** Applies everything due by `until` with the given processors and returns it in time order. */
export function runProcessors (ctx: DomainContext, until: Date, processors: readonly DueProcessor[]): TimelineEvent[] {
  const instant = new DueInstant(until.getTime())
  const events: TimelineEvent[] = []
  for (const processor of processors) {
    // One push per event: push(...fired) passes every event as an argument, and a few hundred
    // thousand of them overflow the call stack (RangeError).
    for (const event of processor(ctx, instant)) events.push(event)
  }
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
}

/** What a long timeline is reported as: its first events, and how many of each kind there were. */
export interface TimelineSummary {
  /** The first `listed` events, in time order. */
  fired: FiredEvent[]
  firedCount: number
  firedByKind: Record<string, number>
  /** True when `fired` lists fewer events than firedCount. */
  truncated: boolean
}

export function summariseTimeline (events: readonly TimelineEvent[], listed: number): TimelineSummary {
  const byKind = new Map<string, number>()
  for (const { type } of events) byKind.set(type, (byKind.get(type) ?? 0) + 1)
  return { fired: events.slice(0, listed).map(firedEvent), firedCount: events.length, firedByKind: Object.fromEntries(byKind), truncated: events.length > listed }
}
