import { formatDate, parseDate } from './banking-calendar.js'
import type { DomainContext } from './context.js'
import { pendingTransitions } from './ach-lifecycle.js'
import { monthEndsBetween } from './statement-cycle.js'
import { runCountUntil } from './transfer-runs.js'

/**
 * How many items one clock advance may fire: transfer runs, ACH settlements and returns, and
 * statements. An advance fires what falls due synchronously: 40 open-ended DAILY transfers over ten
 * years were 146,000 runs, the process blocked for 15 s and a 21 MB answer. The items are counted
 * before any is made, and an advance over the budget is refused whole; the caller advances in
 * steps. 5,000 internal runs block for about 0.2 s (0.6 s the first time, before the JIT warms
 * up), measured on a loaded 2-core VM; an ACH run and its settlement together cost about as much.
 */
export const MAX_FIRED_PER_ADVANCE = 5_000

/**
 * At most how many items bringing the world up to `untilDate` fires, counted without making them
 * (a few integer steps per transfer and account). An upper bound: see runCountUntil. An ACH run
 * counts with its settlement, and with its return when its counterparty is a magic 100NN number.
 */
export function firedItemsUntil (ctx: DomainContext, untilDate: string): number {
  let total = 0
  for (const t of ctx.state.scheduledTransfers.values()) {
    for (const transition of pendingTransitions(t)) if (transition.date <= untilDate) total += transition.kind === 'settle' && t.magicReturnCode !== undefined ? 2 : 1
    // nextRunDate is the earliest execution date left: a later one means nothing is due.
    if (t.status !== 'ACTIVE' || (t.nextRunDate !== null && t.nextRunDate > untilDate)) continue
    const perRun = t.type === 'ACH' ? (t.magicReturnCode === undefined ? 2 : 3) : 1
    total += perRun * runCountUntil(t, t.nextIndex, untilDate)
  }
  for (const cycle of ctx.state.statementCycles.values()) total += monthEndsBetween(cycle.periodStart, untilDate)
  return total
}

/**
 * The latest date in [fromDate, toDate] the world can be brought up to within `budget` items, or
 * null when even fromDate is over it. A binary search over the days: the count only grows with
 * the date, and ten years are about 12 steps.
 */
export function latestDateWithin (ctx: DomainContext, fromDate: string, toDate: string, budget: number): string | null {
  const from = parseDate(fromDate)
  const fits = (days: number): boolean => firedItemsUntil(ctx, formatDate(from.add({ days }))) <= budget
  if (!fits(0)) return null
  let lo = 0 // invariant: fits(lo) && (hi is past toDate || !fits(hi))
  let hi = from.until(parseDate(toDate)).days + 1
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2)
    if (fits(mid)) lo = mid; else hi = mid
  }
  return formatDate(from.add({ days: lo }))
}
