import type { DomainContext } from './context.js'
import { runProcessors, type DueProcessor, type TimelineEvent } from './timeline.js'
import { advanceShipments } from './card-shipping.js'
import { purgePinLinks } from './pin-link.js'
import { verificationDueProcessors } from './phone-verification.js'
import { ledgerDueProcessors } from './ledger-due.js'

/** Reactions to instants (a code or link expiring this second): cheap, checked before every request. */
const INSTANT: readonly DueProcessor[] = [...verificationDueProcessors, purgePinLinks]

/**
 * Reactions to calendar days (shipments move, transfers run, ACH settles or comes back and months
 * close at 00:00 UTC of a date): their date math is costly, and nothing new falls due until the
 * day changes or the world is written to.
 */
const DAILY: readonly DueProcessor[] = [advanceShipments, ...ledgerDueProcessors]

/** Brings a world up to `until`: fires due transfers, ACH settlements and returns, month-end statements, moves shipments, expires codes and links. */
export function runDue (ctx: DomainContext, until: Date = ctx.clock.now()): TimelineEvent[] {
  return runProcessors(ctx, until, [...INSTANT, ...DAILY])
}

/** Only what can fall due between two instants of the same day with no write in between. */
export function runInstantDue (ctx: DomainContext, until: Date = ctx.clock.now()): TimelineEvent[] {
  return runProcessors(ctx, until, INSTANT)
}
