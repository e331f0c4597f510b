import { formatDate, isBankingDay, parseDate } from './banking-calendar.js'
import type { ScheduledTransfer } from './model.js'
import { countOnOrBefore, firstIndexOnOrAfter, occurrence, occurrencesUntil, type Occurrence, type ScheduleSpec } from './schedule.js'

/**
 * Where a scheduled transfer stands in its schedule. The date math is schedule.ts; this adds the
 * transfer's own rules on top of it:
 * - ACH execution dates roll to the next Federal Reserve banking day; internal ones are not moved.
 * - ACH DAILY runs on banking days only: a nominal date that is not a banking day is skipped, not
 *   rolled (rolling would put the Saturday, Sunday and Monday runs all on Monday). Execution dates
 *   of an ACH transfer are therefore banking days and strictly increase.
 * - numberOfOccurrences counts the runs of the whole transfer (across re-anchoring updates, failed
 *   runs included), so it is checked against occurrencesCompleted here rather than handed to
 *   schedule.ts, which would count indexes from the current anchor.
 */
export type ScheduleFields = Pick<ScheduledTransfer,
  'type' | 'frequency' | 'startDate' | 'endDate' | 'numberOfOccurrences' | 'occurrencesCompleted'>

export function scheduleOf (t: ScheduleFields): ScheduleSpec {
  return {
    startDate: t.startDate,
    frequency: t.frequency,
    endDate: t.endDate,
    adjustment: t.type === 'ACH' ? 'NEXT_BANKING_DAY' : 'NONE'
  }
}

function skipsNonBankingDays (t: ScheduleFields): boolean {
  return t.type === 'ACH' && t.frequency === 'DAILY'
}

function runsLeft (t: ScheduleFields): number {
  return t.numberOfOccurrences === undefined ? Number.POSITIVE_INFINITY : Math.max(0, t.numberOfOccurrences - t.occurrencesCompleted)
}

/** The first run at index `from` or later, or null when the schedule is over. */
export function nextRun (t: ScheduleFields, from: number): Occurrence | null {
  if (runsLeft(t) === 0) return null
  const spec = scheduleOf(t)
  for (let index = from; ; index++) {
    const run = occurrence(spec, index)
    if (run === null) return null
    if (!skipsNonBankingDays(t) || isBankingDay(run.scheduledDate)) return run
  }
}

/** The runs from index `from` whose execution date is `untilDate` or earlier, in order. */
export function runsUntil (t: ScheduleFields, from: number, untilDate: string): Occurrence[] {
  const runs = occurrencesUntil(scheduleOf(t), from, untilDate)
  const kept = skipsNonBankingDays(t) ? runs.filter(run => isBankingDay(run.scheduledDate)) : runs
  const left = runsLeft(t)
  return Number.isFinite(left) ? kept.slice(0, left) : kept
}

/**
 * At most how many runs from index `from` execute on `untilDate` or earlier, found without making
 * them. An upper bound: it counts by scheduled date, so an ACH run rolled past `untilDate`, or a
 * non-banking day an ACH DAILY transfer skips, is counted too.
 */
export function runCountUntil (t: ScheduleFields, from: number, untilDate: string): number {
  return Math.min(countOnOrBefore(scheduleOf(t), from, untilDate), runsLeft(t))
}

/**
 * Where a transfer restored from its recorded history (fixtures) resumes: after its last recorded
 * run and not before `today`, so runs missing between the history and today never happen late.
 */
export function resumeRun (t: ScheduleFields & { executions: readonly { scheduledDate: string }[] }, today: string): Occurrence | null {
  const last = t.executions.at(-1)?.scheduledDate
  const afterLast = last === undefined ? t.startDate : formatDate(parseDate(last).add({ days: 1 }))
  const index = firstIndexOnOrAfter(scheduleOf(t), afterLast > today ? afterLast : today)
  return index === null ? null : nextRun(t, index)
}
