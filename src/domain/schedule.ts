import { Temporal } from 'temporal-polyfill'
import { formatDate, nextBankingDay, parseDate } from './banking-calendar.js'

// Recurrence math for scheduled transfers. Every nominal date is computed from the
// anchor (startDate + index·interval), never chained from the previous one: chaining
// would let a month-end clamp stick (Jan 31 → Feb 28 → Mar 28 instead of Mar 31).

export type Frequency = 'ONCE' | 'DAILY' | 'WEEKLY' | 'BIWEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'YEARLY'
export type DateAdjustment = 'NONE' | 'NEXT_BANKING_DAY'

export interface ScheduleSpec {
  startDate: string
  frequency: Frequency
  endDate?: string | undefined
  numberOfOccurrences?: number | undefined
  adjustment: DateAdjustment
}

export interface Occurrence { index: number; scheduledDate: string; executionDate: string }

const STEP: Record<Exclude<Frequency, 'ONCE'>, (i: number) => Temporal.DurationLike> = {
  DAILY: (i) => ({ days: i }),
  WEEKLY: (i) => ({ weeks: i }),
  BIWEEKLY: (i) => ({ weeks: 2 * i }),
  MONTHLY: (i) => ({ months: i }),
  QUARTERLY: (i) => ({ months: 3 * i }),
  YEARLY: (i) => ({ years: i })
}

function checkIndex (index: number): void {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`Invalid occurrence index ${index}: expected an integer >= 0`)
}

function nominal (start: Temporal.PlainDate, frequency: Frequency, index: number): Temporal.PlainDate {
  if (frequency === 'ONCE') {
    if (index !== 0) throw new RangeError(`A ONCE schedule has only index 0, got ${index}`)
    return start
  }
  const step = STEP[frequency]
  if (step === undefined) throw new RangeError(`Unknown frequency ${JSON.stringify(frequency)}`)
  // 'constrain' clamps past the month end: Jan 31 + 1 month → Feb 28/29; Feb 29 + 1 year → Feb 28.
  return start.add(step(index), { overflow: 'constrain' })
}

/** The index-th (0-based) nominal date of the recurrence, computed from the anchor. */
export function nominalDate (startDate: string, frequency: Frequency, index: number): string {
  checkIndex(index)
  return formatDate(nominal(parseDate(startDate), frequency, index))
}

interface Bounds { start: Temporal.PlainDate; end: Temporal.PlainDate | undefined }

function bounds (spec: ScheduleSpec): Bounds {
  const n = spec.numberOfOccurrences
  if (n !== undefined && (!Number.isSafeInteger(n) || n < 1)) throw new RangeError(`Invalid numberOfOccurrences ${n}: expected an integer >= 1`)
  if (spec.adjustment !== 'NONE' && spec.adjustment !== 'NEXT_BANKING_DAY') throw new RangeError(`Unknown adjustment ${JSON.stringify(spec.adjustment)}`)
  return { start: parseDate(spec.startDate), end: spec.endDate === undefined ? undefined : parseDate(spec.endDate) }
}

// Scheduled date of `index`, or null when the schedule has ended before it.
function scheduledAt (spec: ScheduleSpec, b: Bounds, index: number): Temporal.PlainDate | null {
  if (spec.numberOfOccurrences !== undefined && index >= spec.numberOfOccurrences) return null
  if (spec.frequency === 'ONCE' && index > 0) return null
  const d = nominal(b.start, spec.frequency, index)
  if (b.end !== undefined && Temporal.PlainDate.compare(d, b.end) > 0) return null // endDate is inclusive
  return d
}

function toOccurrence (spec: ScheduleSpec, index: number, d: Temporal.PlainDate): Occurrence {
  const scheduledDate = formatDate(d)
  const executionDate = spec.adjustment === 'NEXT_BANKING_DAY' ? nextBankingDay(scheduledDate) : scheduledDate
  return { index, scheduledDate, executionDate }
}

/** The index-th occurrence, or null when the schedule has ended before it. */
export function occurrence (spec: ScheduleSpec, index: number): Occurrence | null {
  checkIndex(index)
  const d = scheduledAt(spec, bounds(spec), index)
  return d === null ? null : toOccurrence(spec, index, d)
}

/**
 * Occurrences from `fromIndex` on whose executionDate <= untilDate, in order.
 * Execution dates never decrease with the index, so the first one past untilDate ends the scan.
 */
export function occurrencesUntil (spec: ScheduleSpec, fromIndex: number, untilDate: string): Occurrence[] {
  checkIndex(fromIndex)
  const b = bounds(spec)
  const until = formatDate(parseDate(untilDate))
  const out: Occurrence[] = []
  for (let i = fromIndex; ; i++) {
    const d = scheduledAt(spec, b, i)
    if (d === null) break
    const occ = toOccurrence(spec, i, d)
    if (occ.executionDate > until) break // same-format 'YYYY-MM-DD' strings sort chronologically
    out.push(occ)
  }
  return out
}

/**
 * The smallest index whose scheduledDate >= date, or null if the schedule ends first.
 * Nominal dates strictly increase with the index, so a galloping binary search finds it
 * in O(log n) steps even for a DAILY schedule years back.
 */
export function firstIndexOnOrAfter (spec: ScheduleSpec, date: string): number | null {
  const b = bounds(spec)
  const target = parseDate(date)
  const before = (i: number): boolean => Temporal.PlainDate.compare(nominal(b.start, spec.frequency, i), target) < 0
  let index = 0
  if (before(0)) {
    if (spec.frequency === 'ONCE') return null
    let lo = 0 // invariant: before(lo) && !before(hi)
    let hi = 1
    while (before(hi)) { lo = hi; hi *= 2 }
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2)
      if (before(mid)) lo = mid; else hi = mid
    }
    index = hi
  }
  return scheduledAt(spec, b, index) === null ? null : index
}
