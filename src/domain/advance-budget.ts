import { formatDate, parseDate } from './banking-calendar.js'
import type { DomainContext } from './context.js'
import { runCountUntil } from './transfer-runs.js'

/**
 * How much one clock advance may do. Bringing a world forward runs every transfer run that falls
 * due, synchronously: 40 open-ended DAILY transfers over ten years were 146,000 runs, a process
 * blocked for 15 s and a 21 MB answer. The work is counted before anything runs, and an advance
 * over the budget is refused whole (the caller advances in smaller steps).
 * 5,000 runs take about 0.25 s on a 2-core machine (bench: 50 µs a run).
 */
export const MAX_RUNS_PER_ADVANCE = 5_000

/**
 * At most how many scheduled-transfer runs bringing the world up to `untilDate` makes, counted
 * without making them (O(log n) date steps per transfer). An upper bound: see runCountUntil.
 */
export function transferRunsUntil (ctx: DomainContext, untilDate: string): number {
  let total = 0
  for (const t of ctx.state.scheduledTransfers.values()) {
    // nextRunDate is the earliest execution date left: a later one means nothing is due.
    if (t.status !== 'ACTIVE' || (t.nextRunDate !== null && t.nextRunDate > untilDate)) continue
    total += runCountUntil(t, t.nextIndex, untilDate)
  }
  return total
}

/**
 * The latest date in [fromDate, toDate] the world can be brought up to within `budget` runs, or
 * null when even fromDate is over it. A binary search over the days: the count only grows with
 * the date, and ten years are about 12 steps.
 */
export function latestDateWithin (ctx: DomainContext, fromDate: string, toDate: string, budget: number): string | null {
  const from = parseDate(fromDate)
  const fits = (days: number): boolean => transferRunsUntil(ctx, formatDate(from.add({ days }))) <= budget
  if (!fits(0)) return null
  let lo = 0 // invariant: fits(lo) && (hi is past toDate || !fits(hi))
  let hi = from.until(parseDate(toDate)).days + 1
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2)
    if (fits(mid)) lo = mid; else hi = mid
  }
  return formatDate(from.add({ days: lo }))
}
