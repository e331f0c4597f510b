import t from 'tap'
import { addBankingDays, fedHolidays, isBankingDay, nextBankingDay } from '../../src/domain/banking-calendar.js'

// Hand-checked against a printed calendar, not derived from the implementation.
// Saturday holidays keep their Saturday date (the Fed does not close the Friday before).
const HOLIDAYS: Record<number, [string, string][]> = {
  2026: [
    ['2026-01-01', "New Year's Day"], // Thu
    ['2026-01-19', 'Martin Luther King Jr. Day'],
    ['2026-02-16', "Washington's Birthday"],
    ['2026-05-25', 'Memorial Day'],
    ['2026-06-19', 'Juneteenth'], // Fri
    ['2026-07-04', 'Independence Day'], // Sat: nothing closes
    ['2026-09-07', 'Labor Day'],
    ['2026-10-12', 'Columbus Day'],
    ['2026-11-11', 'Veterans Day'], // Wed
    ['2026-11-26', 'Thanksgiving'],
    ['2026-12-25', 'Christmas'] // Fri
  ],
  2027: [
    ['2027-01-01', "New Year's Day"], // Fri
    ['2027-01-18', 'Martin Luther King Jr. Day'],
    ['2027-02-15', "Washington's Birthday"],
    ['2027-05-31', 'Memorial Day'],
    ['2027-06-19', 'Juneteenth'], // Sat: nothing closes
    ['2027-07-05', 'Independence Day'], // Jul 4 is a Sunday → Monday
    ['2027-09-06', 'Labor Day'],
    ['2027-10-11', 'Columbus Day'],
    ['2027-11-11', 'Veterans Day'], // Thu
    ['2027-11-25', 'Thanksgiving'],
    ['2027-12-25', 'Christmas'] // Sat: nothing closes
  ],
  2028: [
    ['2028-01-01', "New Year's Day"], // Sat: nothing closes (2027-12-31 stays open)
    ['2028-01-17', 'Martin Luther King Jr. Day'],
    ['2028-02-21', "Washington's Birthday"],
    ['2028-05-29', 'Memorial Day'],
    ['2028-06-19', 'Juneteenth'], // Mon
    ['2028-07-04', 'Independence Day'], // Tue
    ['2028-09-04', 'Labor Day'],
    ['2028-10-09', 'Columbus Day'],
    ['2028-11-11', 'Veterans Day'], // Sat: nothing closes
    ['2028-11-23', 'Thanksgiving'],
    ['2028-12-25', 'Christmas'] // Mon
  ]
}

// Weekdays on which the Fed is closed, per year.
const CLOSED_WEEKDAYS: Record<number, string[]> = {
  2026: ['2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25'],
  2027: ['2027-01-01', '2027-01-18', '2027-02-15', '2027-05-31', '2027-07-05', '2027-09-06', '2027-10-11', '2027-11-11', '2027-11-25'],
  2028: ['2028-01-17', '2028-02-21', '2028-05-29', '2028-06-19', '2028-07-04', '2028-09-04', '2028-10-09', '2028-11-23', '2028-12-25']
}

// Every date of a year, via Date in UTC (independent of the Temporal-based implementation).
function daysOf (year: number): { date: string; weekend: boolean }[] {
  const out: { date: string; weekend: boolean }[] = []
  for (const d = new Date(Date.UTC(year, 0, 1)); d.getUTCFullYear() === year; d.setUTCDate(d.getUTCDate() + 1)) {
    out.push({ date: d.toISOString().slice(0, 10), weekend: d.getUTCDay() === 0 || d.getUTCDay() === 6 })
  }
  return out
}

t.test('fedHolidays lists the 11 holidays with their observed dates', async (t) => {
  for (const year of [2026, 2027, 2028]) {
    t.same(fedHolidays(year), (HOLIDAYS[year] ?? []).map(([date, name]) => ({ date, name })), `${year}`)
  }
})

t.test('fedHolidays returns copies, so callers cannot corrupt the cache', async (t) => {
  const first = fedHolidays(2027)
  const h = first[0]
  if (h === undefined) throw new Error('no holidays')
  h.date = '2027-01-04'
  first.pop()
  t.equal(fedHolidays(2027).length, 11)
  t.equal(fedHolidays(2027)[0]?.date, '2027-01-01')
  t.equal(isBankingDay('2027-01-04'), true)
})

t.test('fedHolidays: Sunday holidays move to Monday, within the same year', async (t) => {
  // Jan 1 2023 was a Sunday, closed Monday Jan 2.
  t.equal(fedHolidays(2023)[0]?.date, '2023-01-02')
  // Christmas 2033 is a Sunday → Monday Dec 26.
  t.equal(fedHolidays(2033).at(-1)?.date, '2033-12-26')
  t.throws(() => fedHolidays(2027.5), RangeError)
  t.throws(() => fedHolidays(10000), RangeError)
})

t.test('isBankingDay over every day of 2026, 2027 and 2028', async (t) => {
  const expectedCount: Record<number, number> = { 2026: 251, 2027: 252, 2028: 251 }
  for (const year of [2026, 2027, 2028]) {
    const closed = new Set(CLOSED_WEEKDAYS[year])
    const mismatches: string[] = []
    let count = 0
    for (const { date, weekend } of daysOf(year)) {
      const expected = !weekend && !closed.has(date)
      if (isBankingDay(date) !== expected) mismatches.push(date)
      if (expected) count++
    }
    t.same(mismatches, [], `${year}: no mismatching dates`)
    t.equal(count, expectedCount[year], `${year}: banking-day count`)
  }
})

t.test('isBankingDay on the tricky dates', async (t) => {
  const cases: [string, boolean, string][] = [
    ['2026-07-03', true, 'Fri before Sat Jul 4 2026 stays open'],
    ['2026-07-04', false, 'Saturday'],
    ['2026-07-06', true, 'no Monday closing for a Saturday holiday'],
    ['2027-07-05', false, 'Jul 4 2027 is Sunday → Monday closed'],
    ['2027-06-18', true, 'Fri before Sat Juneteenth 2027 stays open'],
    ['2027-12-24', true, 'Fri before Sat Christmas 2027 stays open'],
    ['2027-12-27', true, 'Mon after Sat Christmas 2027 is open'],
    ['2027-12-31', true, 'Fri before Sat New Year 2028 stays open'],
    ['2027-01-01', false, "New Year's Day 2027, a Friday"],
    ['2028-06-19', false, 'Juneteenth 2028, a Monday'],
    ['2028-11-10', true, 'Fri before Sat Veterans Day 2028 stays open'],
    ['2028-11-23', false, 'Thanksgiving 2028'],
    ['2028-11-24', true, 'day after Thanksgiving is open'],
    ['2026-11-26', false, 'Thanksgiving 2026'],
    ['2028-12-25', false, 'Christmas 2028, a Monday'],
    ['2028-02-29', true, 'leap day 2028, a Tuesday'],
    ['2026-12-26', false, 'Saturday'],
    ['2026-12-27', false, 'Sunday']
  ]
  for (const [date, expected, why] of cases) t.equal(isBankingDay(date), expected, `${date}: ${why}`)
})

t.test('nextBankingDay', async (t) => {
  const cases: [string, string, string][] = [
    ['2026-12-22', '2026-12-22', 'a banking day is returned as is'],
    ['2026-12-25', '2026-12-28', 'Fri Christmas → Sat → Sun → Mon'],
    ['2027-07-03', '2027-07-06', 'Sat → Sun Jul 4 → Mon Jul 5 observed → Tue'],
    ['2027-07-05', '2027-07-06', 'observed Monday holiday'],
    ['2026-01-17', '2026-01-20', 'Sat → Sun → MLK Mon → Tue'],
    ['2027-01-01', '2027-01-04', 'Fri New Year → Mon'],
    ['2026-12-31', '2026-12-31', 'Thu Dec 31 2026 is open'],
    ['2028-01-01', '2028-01-03', 'Sat New Year 2028 → Mon (no observed closing)'],
    ['2028-12-23', '2028-12-26', 'Sat → Sun → Mon Christmas → Tue'],
    ['2027-09-04', '2027-09-07', 'Sat → Sun → Labor Day → Tue'],
    ['2028-11-11', '2028-11-13', 'Sat Veterans Day → Mon (open)'],
    ['2026-11-26', '2026-11-27', 'Thanksgiving → Fri'],
    ['2027-05-29', '2027-06-01', 'Sat → Sun → Memorial Day → Tue'],
    ['2027-12-25', '2027-12-27', 'Sat Christmas 2027 → Mon (open)']
  ]
  for (const [date, expected, why] of cases) t.equal(nextBankingDay(date), expected, `${date}: ${why}`)
})

t.test('addBankingDays', async (t) => {
  const cases: [string, number, string, string][] = [
    ['2026-12-22', 0, '2026-12-22', 'n = 0 on a banking day is the day itself'],
    ['2026-12-26', 0, '2026-12-28', 'n = 0 on a Saturday is nextBankingDay'],
    ['2026-12-24', 1, '2026-12-28', 'skips Christmas Friday and the weekend'],
    ['2026-12-24', 5, '2027-01-04', 'Dec 28, 29, 30, 31, then skips New Year Friday and the weekend'],
    ['2026-11-25', 1, '2026-11-27', 'skips Thanksgiving'],
    ['2026-11-25', 2, '2026-11-30', 'then the weekend'],
    ['2027-07-02', 1, '2027-07-06', 'skips the weekend and the observed Jul 5'],
    ['2027-07-03', 1, '2027-07-07', 'a Saturday is first rolled to Tue Jul 6'],
    ['2027-12-30', 1, '2027-12-31', 'Fri before Sat New Year is open'],
    ['2027-12-30', 2, '2028-01-03', 'no closing for the Saturday New Year'],
    ['2028-02-28', 1, '2028-02-29', 'leap day'],
    ['2026-01-02', 20, '2026-02-02', '20 banking days through MLK day']
  ]
  for (const [date, n, expected, why] of cases) t.equal(addBankingDays(date, n), expected, `${date} + ${n}: ${why}`)
  t.equal(addBankingDays('2027-01-04', 252), '2028-01-03', 'a full year of 2027 banking days')
  t.throws(() => addBankingDays('2026-12-22', -1), RangeError)
  t.throws(() => addBankingDays('2026-12-22', 1.5), RangeError)
})

t.test('malformed dates throw RangeError', async (t) => {
  for (const bad of ['2027-02-30', 'not-a-date', '2027-2-3', '20270203', '2027-02-03T00:00', '+002027-02-03', '2027-13-01', '']) {
    t.throws(() => isBankingDay(bad), RangeError, `isBankingDay(${JSON.stringify(bad)})`)
    t.throws(() => nextBankingDay(bad), RangeError, `nextBankingDay(${JSON.stringify(bad)})`)
    t.throws(() => addBankingDays(bad, 1), RangeError, `addBankingDays(${JSON.stringify(bad)})`)
  }
  t.throws(() => isBankingDay('2027-02-30'), { name: 'RangeError', message: /2027-02-30.*YYYY-MM-DD/ })
  t.equal(isBankingDay('2028-02-29'), true, 'a real leap day parses')
  t.throws(() => addBankingDays('9999-12-31', 1), RangeError, 'past year 9999')
})
