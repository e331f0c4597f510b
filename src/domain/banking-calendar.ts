import { Temporal } from 'temporal-polyfill'

// Federal Reserve banking days. Dates are 'YYYY-MM-DD' strings throughout the API;
// Temporal does the calendar arithmetic so we never hand-roll month lengths.

export interface FedHoliday { date: string; name: string }

// Temporal.PlainDate.from also accepts '20270228', '+002027-02-28' and datetimes,
// so the exact wire format is enforced before parsing.
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/

/** Parse a strict 'YYYY-MM-DD' real calendar date; RangeError otherwise. */
export function parseDate (date: string): Temporal.PlainDate {
  if (typeof date === 'string' && DATE_RE.test(date)) {
    try {
      return Temporal.PlainDate.from(date) // ISO strings are never constrained: 2027-02-30 throws
    } catch { /* fall through to our own message */ }
  }
  throw new RangeError(`Invalid date ${JSON.stringify(date)}: expected a real calendar date YYYY-MM-DD`)
}

/** Format back to 'YYYY-MM-DD'; refuses years Temporal would print as '+010000-…'. */
export function formatDate (date: Temporal.PlainDate): string {
  const s = date.toString()
  if (!DATE_RE.test(s)) throw new RangeError(`Date ${s} is outside the supported range 0000-01-01..9999-12-31`)
  return s
}

// dayOfWeek: 1 = Monday … 7 = Sunday (ISO).
const MONDAY = 1
const THURSDAY = 4
const SATURDAY = 6
const SUNDAY = 7

function nthWeekday (year: number, month: number, weekday: number, n: number): Temporal.PlainDate {
  const first = Temporal.PlainDate.from({ year, month, day: 1 })
  return first.add({ days: ((weekday - first.dayOfWeek + 7) % 7) + 7 * (n - 1) })
}

function lastWeekday (year: number, month: number, weekday: number): Temporal.PlainDate {
  const last = Temporal.PlainDate.from({ year, month, day: 1 }).add({ months: 1 }).subtract({ days: 1 })
  return last.subtract({ days: (last.dayOfWeek - weekday + 7) % 7 })
}

// Fed rule: Sunday → closed the following Monday; Saturday → no move (the Friday
// before stays open), so the holiday just coincides with a weekend day.
function observed (year: number, month: number, day: number): Temporal.PlainDate {
  const d = Temporal.PlainDate.from({ year, month, day })
  return d.dayOfWeek === SUNDAY ? d.add({ days: 1 }) : d
}

function computeHolidays (year: number): FedHoliday[] {
  const list: [Temporal.PlainDate, string][] = [
    [observed(year, 1, 1), "New Year's Day"],
    [nthWeekday(year, 1, MONDAY, 3), 'Martin Luther King Jr. Day'],
    [nthWeekday(year, 2, MONDAY, 3), "Washington's Birthday"],
    [lastWeekday(year, 5, MONDAY), 'Memorial Day'],
    [observed(year, 6, 19), 'Juneteenth'],
    [observed(year, 7, 4), 'Independence Day'],
    [nthWeekday(year, 9, MONDAY, 1), 'Labor Day'],
    [nthWeekday(year, 10, MONDAY, 2), 'Columbus Day'],
    [observed(year, 11, 11), 'Veterans Day'],
    [nthWeekday(year, 11, THURSDAY, 4), 'Thanksgiving'],
    [observed(year, 12, 25), 'Christmas']
  ]
  return list.map(([d, name]) => Object.freeze({ date: formatDate(d), name }))
}

interface YearEntry { holidays: readonly FedHoliday[]; closed: ReadonlySet<string> }

// Hot path (every scheduled run asks isBankingDay): memoise per year, bounded so a
// stray far-future date cannot grow it without limit.
const CACHE_LIMIT = 32
const cache = new Map<number, YearEntry>()

function yearEntry (year: number): YearEntry {
  let entry = cache.get(year)
  if (entry === undefined) {
    if (!Number.isInteger(year) || year < 0 || year > 9999) throw new RangeError(`Invalid year ${year}: expected an integer 0..9999`)
    const holidays = computeHolidays(year)
    entry = { holidays, closed: new Set(holidays.map((h) => h.date)) }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as number) // oldest first
    cache.set(year, entry)
  }
  return entry
}

/**
 * The 11 Fed holidays of `year` with their observed dates. A holiday on a Saturday
 * keeps its Saturday date (nothing closes on a weekday for it).
 */
export function fedHolidays (year: number): FedHoliday[] {
  return yearEntry(year).holidays.map((h) => ({ ...h })) // copies: callers must not mutate the cache
}

function isBankingPlainDate (d: Temporal.PlainDate): boolean {
  return d.dayOfWeek !== SATURDAY && d.dayOfWeek !== SUNDAY && !yearEntry(d.year).closed.has(formatDate(d))
}

function rollForward (d: Temporal.PlainDate): Temporal.PlainDate {
  let cur = d
  while (!isBankingPlainDate(cur)) cur = cur.add({ days: 1 }) // at most a few steps (weekend + holiday)
  return cur
}

/** True on weekdays that are not an observed Fed closing date. */
export function isBankingDay (date: string): boolean {
  return isBankingPlainDate(parseDate(date))
}

/** `date` itself when it is a banking day, otherwise the next banking day. */
export function nextBankingDay (date: string): string {
  return formatDate(rollForward(parseDate(date)))
}

/**
 * `n` banking days after `date`. A non-banking `date` is first rolled forward to the
 * next banking day (so n = 0 is nextBankingDay(date) and n = 1 is the banking day after that).
 */
export function addBankingDays (date: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Invalid banking-day count ${n}: expected an integer >= 0`)
  let cur = rollForward(parseDate(date))
  for (let i = 0; i < n; i++) cur = rollForward(cur.add({ days: 1 }))
  return formatDate(cur)
}

const DAY_MS = 86_400_000

/**
 * The first banking day after `date` (for a banking day, addBankingDays(date, 1)). Plain epoch-day
 * arithmetic instead of Temporal: every ACH run asks it when it settles, and a magic return asks
 * again, so on a long advance it was most of a run's cost.
 */
export function bankingDayAfter (date: string): string {
  let ms = DATE_RE.test(date) ? Date.parse(`${date}T00:00:00.000Z`) : Number.NaN
  // Date.parse takes Feb 30 for Mar 2: only a date that reads back the same is real.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`Invalid date ${JSON.stringify(date)}: expected a real calendar date YYYY-MM-DD`)
  }
  for (;;) {
    ms += DAY_MS
    const day = new Date(ms)
    const weekday = day.getUTCDay() // 0 = Sunday, 6 = Saturday
    const iso = day.toISOString().slice(0, 10)
    if (weekday !== 0 && weekday !== 6 && !yearEntry(day.getUTCFullYear()).closed.has(iso)) return iso
  }
}
