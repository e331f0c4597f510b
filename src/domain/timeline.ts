import type { DomainContext } from './context.js'

/** Something that happened because time passed: a transfer ran, a card shipped, a code expired. */
export interface TimelineEvent {
  at: string
  kind: string
  entityId: string
  detail: string
}

/** Each domain module that reacts to time exports one: it applies what fell due by `until`. */
export type DueProcessor = (ctx: DomainContext, until: Date) => TimelineEvent[]

/** Applies everything due by `until` with the given processors and returns it in time order. */
export function runProcessors (ctx: DomainContext, until: Date, processors: readonly DueProcessor[]): TimelineEvent[] {
  const events: TimelineEvent[] = []
  for (const processor of processors) events.push(...processor(ctx, until))
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
}
