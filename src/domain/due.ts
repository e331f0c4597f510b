import type { DomainContext } from './context.js'
import { runProcessors, type DueProcessor, type TimelineEvent } from './timeline.js'
import { cardDueProcessors } from './debit-card.js'
import { verificationDueProcessors } from './phone-verification.js'
import { transferDueProcessors } from './scheduled-transfer.js'

/** Every module's reaction to time, in the order they apply. */
const PROCESSORS: readonly DueProcessor[] = [...verificationDueProcessors, ...cardDueProcessors, ...transferDueProcessors]

/** Brings a world up to `until`: fires due transfers, moves shipments, expires codes and links. */
export function runDue (ctx: DomainContext, until: Date = ctx.clock.now()): TimelineEvent[] {
  return runProcessors(ctx, until, PROCESSORS)
}
