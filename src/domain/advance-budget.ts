import { formatDate, parseDate } from './banking-calendar.js'
import type { DomainContext } from './context.js'
import { runCountUntil } from './transfer-runs.js'

/**
 * How many transfer runs one clock advance may make. An advance runs what falls due synchronously:
 * 40 open-ended DAILY transfers over ten years were 146,000 runs, the process blocked for 15 s and
 * a 21 MB answer. The runs are counted before any is made, and an advance over the budget is
 * refused whole; the caller advances in steps. 5,000 runs block for about 0.2 s (0.6 s the first
 * time, before the JIT warms up), measured on a loaded 2-core VM.
 */
export const MAX_RUNS_PER_ADVANCE = 5_000

/**
 * At most how many scheduled-transfer runs bringing the world up to `untilDate` makes, counted
 * without making them (a few integer steps per transfer). An upper bound: see runCountUntil.
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
