import { Temporal } from 'temporal-polyfill'
import { formatDate, nextBankingDay, parseDate } from './banking-calendar.js'

// Recurrence math for scheduled transfers. Every nominal date is computed from the
// anchor (startDate + index·interval), never chained from the previous one: chaining
// would let a month-end clamp stick (Jan 31 → Feb 28 → Mar 28 instead of Mar 31).

/** How often a scheduled transfer runs: the one declaration the schemas, fixtures and model use. */
export const FREQUENCIES = ['ONCE', 'DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY'] as const

export type Frequency = (typeof FREQUENCIES)[number]
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

const STEP_DAYS: Partial<Record<Frequency, number>> = { DAILY: 1, WEEKLY: 7, BIWEEKLY: 14 }
const STEP_MONTHS: Partial<Record<Frequency, number>> = { MONTHLY: 1, QUARTERLY: 3, YEARLY: 12 }

/**
 * A 'YYYY-MM-DD' date as numbers, for counting. Counting runs before an advance touches every
 * transfer a dozen times (see advance-budget.ts), and the Temporal polyfill takes 15 to 25 µs per
 * parse or step: these few integer steps on Date's own proleptic Gregorian calendar take well under one.
 */
interface CivilDate { year: number; month: number; day: number; epochDay: number }

function civil (date: string): CivilDate {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`Invalid date ${JSON.stringify(date)}: expected YYYY-MM-DD`)
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7))
  const day = Number(date.slice(8, 10))
  return { year, month, day, epochDay: epochDayOf(year, month, day) }
}

/** Days since 1970-01-01; setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999. */
function epochDayOf (year: number, month: number, day: number): number {
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return Math.round(date.getTime() / 86_400_000)
}

/**
 * How many nominal dates from `fromIndex` on are on or before `date`, end conditions included
 * (endDate and numberOfOccurrences), counted without making each occurrence: a caller can bound
 * the work a span of time would make before doing it.
 */
export function countOnOrBefore (spec: ScheduleSpec, fromIndex: number, date: string): number {
  checkIndex(fromIndex)
  const start = civil(spec.startDate)
  const until = civil(date)
  const end = spec.endDate === undefined ? undefined : civil(spec.endDate)
  const last = end !== undefined && end.epochDay < until.epochDay ? end : until
  if (start.epochDay > last.epochDay) return 0
  let count = lastIndexOnOrBefore(spec.frequency, start, last) + 1
  if (spec.numberOfOccurrences !== undefined) count = Math.min(count, spec.numberOfOccurrences)
  return Math.max(0, count - fromIndex)
}

/** The largest index whose nominal date is on or before `last`, which is not before `start`. */
function lastIndexOnOrBefore (frequency: Frequency, start: CivilDate, last: CivilDate): number {
  const days = STEP_DAYS[frequency]
  if (days !== undefined) return Math.floor((last.epochDay - start.epochDay) / days)
  const months = STEP_MONTHS[frequency]
  if (months === undefined) return 0 // ONCE
  const apart = (last.year - start.year) * 12 + (last.month - start.month)
  const index = Math.floor(apart / months)
  if (index * months !== apart) return index // that index falls in an earlier month
  // In the month of `last`, the nominal day is the start's, clamped to the month's end ('constrain').
  const monthDays = epochDayOf(last.year, last.month + 1, 1) - epochDayOf(last.year, last.month, 1)
  return Math.min(start.day, monthDays) > last.day ? index - 1 : index
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
