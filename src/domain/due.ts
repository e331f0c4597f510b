import type { DomainContext } from './context.js'
import { runProcessors, type DueProcessor, type TimelineEvent } from './timeline.js'

/** Every module's reaction to time, in the order they apply. Filled as modules land. */
const PROCESSORS: DueProcessor[] = []

/** Brings a world up to `until`: fires due transfers, moves shipments, expires codes and links. */
export function runDue (ctx: DomainContext, until: Date = ctx.clock.now()): TimelineEvent[] {
  return runProcessors(ctx, until, PROCESSORS)
}
