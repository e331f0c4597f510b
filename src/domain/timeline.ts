import type { DomainContext } from './context.js'
import { isoAt } from './iso-time.js'

/** Something that happened because time passed: a transfer ran, a card shipped, a code expired. */
export interface TimelineEvent {
  at: string
  kind: string
  entityId: string
  detail: string
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
    const fired = processor(ctx, instant)
    if (fired.length > 0) events.push(...fired)
  }
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
}
