import t from 'tap'
import { isBankingDay } from '../../src/domain/banking-calendar.js'
import {
  firstIndexOnOrAfter, nominalDate, occurrence, occurrencesUntil,
  type Frequency, type ScheduleSpec
} from '../../src/domain/schedule.js'

const nominals = (start: string, frequency: Frequency, count: number): string[] =>
  Array.from({ length: count }, (_, i) => nominalDate(start, frequency, i))

const spec = (over: Partial<ScheduleSpec> & Pick<ScheduleSpec, 'startDate' | 'frequency'>): ScheduleSpec =>
  ({ adjustment: 'NONE', ...over })

t.test('MONTHLY clamps past the month end, computed from the anchor', async (t) => {
  t.same(nominals('2027-01-31', 'MONTHLY', 14), [
    '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31',
    '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29'
  ])
  // Never chained: chaining Feb 28 + 1 month would give Mar 28.
  t.equal(nominalDate('2027-01-31', 'MONTHLY', 2), '2027-03-31')
  t.same(nominals('2028-01-31', 'MONTHLY', 3), ['2028-01-31', '2028-02-29', '2028-03-31'], 'leap year Feb 29')
  t.same(nominals('2027-01-30', 'MONTHLY', 3), ['2027-01-30', '2027-02-28', '2027-03-30'])
  t.equal(nominalDate('2027-01-15', 'MONTHLY', 120), '2037-01-15', 'large indexes do not drift')
})

t.test('QUARTERLY from Nov 30', async (t) => {
  t.same(nominals('2026-11-30', 'QUARTERLY', 7), [
    '2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30', '2027-11-30', '2028-02-29', '2028-05-30'
  ])
})

t.test('YEARLY from Feb 29', async (t) => {
  t.same(nominals('2028-02-29', 'YEARLY', 5), ['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29'])
  t.same(nominals('2027-12-31', 'YEARLY', 2), ['2027-12-31', '2028-12-31'])
})

t.test('DAILY, WEEKLY and BIWEEKLY', async (t) => {
  t.same(nominals('2027-07-02', 'DAILY', 5), ['2027-07-02', '2027-07-03', '2027-07-04', '2027-07-05', '2027-07-06'])
  t.same(nominals('2028-02-28', 'DAILY', 3), ['2028-02-28', '2028-02-29', '2028-03-01'])
  t.equal(nominalDate('2027-01-01', 'DAILY', 365), '2028-01-01')
  t.equal(nominalDate('2028-01-01', 'DAILY', 366), '2029-01-01')
  t.same(nominals('2026-12-04', 'WEEKLY', 5), ['2026-12-04', '2026-12-11', '2026-12-18', '2026-12-25', '2027-01-01'])
  t.same(nominals('2026-12-18', 'BIWEEKLY', 4), ['2026-12-18', '2027-01-01', '2027-01-15', '2027-01-29'])
  t.equal(nominalDate('2026-12-18', 'BIWEEKLY', 26), '2027-12-17', '26 fortnights = 364 days')
})

t.test('ONCE has only index 0', async (t) => {
  t.equal(nominalDate('2027-05-01', 'ONCE', 0), '2027-05-01')
  t.throws(() => nominalDate('2027-05-01', 'ONCE', 1), RangeError)
  const once = spec({ startDate: '2027-05-01', frequency: 'ONCE' })
  t.same(occurrence(once, 0), { index: 0, scheduledDate: '2027-05-01', executionDate: '2027-05-01' })
  t.equal(occurrence(once, 1), null)
  t.equal(occurrence({ ...once, numberOfOccurrences: 5 }, 1), null)
  t.same(occurrence({ ...once, adjustment: 'NEXT_BANKING_DAY' }, 0),
    { index: 0, scheduledDate: '2027-05-01', executionDate: '2027-05-03' }, 'Saturday → Monday')
})

t.test('occurrence: NONE keeps the nominal date, NEXT_BANKING_DAY rolls it forward', async (t) => {
  const none = spec({ startDate: '2027-01-31', frequency: 'MONTHLY' })
  t.same(occurrence(none, 0), { index: 0, scheduledDate: '2027-01-31', executionDate: '2027-01-31' })
  t.equal(isBankingDay('2027-01-31'), false, 'NONE really does not adjust a Sunday')

  const nbd = { ...none, adjustment: 'NEXT_BANKING_DAY' as const }
  const expected: [string, string][] = [
    ['2027-01-31', '2027-02-01'], // Sun
    ['2027-02-28', '2027-03-01'], // Sun
    ['2027-03-31', '2027-03-31'], // Wed
    ['2027-04-30', '2027-04-30'], // Fri
    ['2027-05-31', '2027-06-01'], // Memorial Day
    ['2027-06-30', '2027-06-30'], // Wed
    ['2027-07-31', '2027-08-02'] // Sat
  ]
  expected.forEach(([scheduledDate, executionDate], index) => {
    t.same(occurrence(nbd, index), { index, scheduledDate, executionDate }, `index ${index}`)
  })

  const biweekly = spec({ startDate: '2026-12-18', frequency: 'BIWEEKLY', adjustment: 'NEXT_BANKING_DAY' })
  t.same(occurrence(biweekly, 1), { index: 1, scheduledDate: '2027-01-01', executionDate: '2027-01-04' }, 'New Year 2027')
  const daily = spec({ startDate: '2027-07-02', frequency: 'DAILY', adjustment: 'NEXT_BANKING_DAY' })
  t.same([1, 2, 3, 4].map((i) => occurrence(daily, i)?.executionDate),
    ['2027-07-06', '2027-07-06', '2027-07-06', '2027-07-06'], 'Sat, Sun, observed Mon all run Tuesday')
})

t.test('NEXT_BANKING_DAY execution dates are always banking days, never earlier than scheduled', async (t) => {
  const freqs: Frequency[] = ['DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY']
  const bad: string[] = []
  for (const frequency of freqs) {
    const s = spec({ startDate: '2026-01-31', frequency, adjustment: 'NEXT_BANKING_DAY' })
    for (let i = 0; i < 40; i++) {
      const o = occurrence(s, i)
      if (o === null) { bad.push(`${frequency}#${i} null`); continue }
      if (!isBankingDay(o.executionDate) || o.executionDate < o.scheduledDate) bad.push(`${frequency}#${i} ${o.scheduledDate}→${o.executionDate}`)
    }
  }
  t.same(bad, [])
})

t.test('endDate is inclusive of a nominal date equal to it', async (t) => {
  const base = spec({ startDate: '2027-01-31', frequency: 'MONTHLY' })
  t.equal(occurrence({ ...base, endDate: '2027-03-31' }, 2)?.scheduledDate, '2027-03-31', 'equal → included')
  t.equal(occurrence({ ...base, endDate: '2027-03-31' }, 3), null)
  t.equal(occurrence({ ...base, endDate: '2027-03-30' }, 2), null, 'one day short → excluded')
  t.equal(occurrence({ ...base, endDate: '2027-03-30' }, 1)?.scheduledDate, '2027-02-28')
  t.equal(occurrence({ ...base, endDate: '2027-01-30' }, 0), null, 'endDate before startDate → no occurrences')
  // endDate bounds the nominal date; the adjusted execution may fall after it.
  const nbd = { ...base, endDate: '2027-07-31', adjustment: 'NEXT_BANKING_DAY' as const }
  t.same(occurrence(nbd, 6), { index: 6, scheduledDate: '2027-07-31', executionDate: '2027-08-02' })
})

t.test('numberOfOccurrences bounds the index', async (t) => {
  const s = spec({ startDate: '2027-01-31', frequency: 'MONTHLY', numberOfOccurrences: 3 })
  t.equal(occurrence(s, 2)?.scheduledDate, '2027-03-31')
  t.equal(occurrence(s, 3), null)
  t.equal(occurrence(s, 100), null)
  t.equal(occurrence({ ...s, numberOfOccurrences: 1 }, 0)?.scheduledDate, '2027-01-31')
  // Whichever of endDate and numberOfOccurrences comes first ends the schedule.
  t.equal(occurrence({ ...s, endDate: '2027-02-28' }, 2), null)
  t.throws(() => occurrence({ ...s, numberOfOccurrences: 0 }, 0), RangeError)
  t.throws(() => occurrence({ ...s, numberOfOccurrences: 2.5 }, 0), RangeError)
})

t.test('occurrencesUntil', async (t) => {
  const nbd = spec({ startDate: '2027-01-31', frequency: 'MONTHLY', adjustment: 'NEXT_BANKING_DAY' })
  const execs = (list: { index: number; executionDate: string }[]) => list.map((o) => `${o.index}:${o.executionDate}`)
  t.same(execs(occurrencesUntil(nbd, 0, '2027-05-31')),
    ['0:2027-02-01', '1:2027-03-01', '2:2027-03-31', '3:2027-04-30'], 'May 31 (Memorial Day) executes Jun 1, past untilDate')
  t.same(execs(occurrencesUntil(nbd, 0, '2027-06-01')),
    ['0:2027-02-01', '1:2027-03-01', '2:2027-03-31', '3:2027-04-30', '4:2027-06-01'])
  t.same(execs(occurrencesUntil({ ...nbd, adjustment: 'NONE' }, 0, '2027-05-31')),
    ['0:2027-01-31', '1:2027-02-28', '2:2027-03-31', '3:2027-04-30', '4:2027-05-31'], 'NONE: untilDate is inclusive')
  t.same(execs(occurrencesUntil(nbd, 2, '2027-04-30')), ['2:2027-03-31', '3:2027-04-30'], 'from a later index')
  t.same(occurrencesUntil(nbd, 0, '2027-01-31'), [], 'the first run executes Feb 1')
  t.same(occurrencesUntil(nbd, 5, '2027-04-30'), [], 'fromIndex already past untilDate')
  t.same(occurrencesUntil(nbd, 0, '2027-02-01'), [{ index: 0, scheduledDate: '2027-01-31', executionDate: '2027-02-01' }])

  t.equal(occurrencesUntil({ ...nbd, numberOfOccurrences: 3 }, 0, '2030-01-01').length, 3, 'stops at numberOfOccurrences')
  t.same(occurrencesUntil({ ...nbd, numberOfOccurrences: 3 }, 3, '2030-01-01'), [])
  t.equal(occurrencesUntil({ ...nbd, endDate: '2027-12-31' }, 0, '2099-01-01').length, 12, 'stops at endDate')
  t.same(occurrencesUntil(spec({ startDate: '2027-05-01', frequency: 'ONCE' }), 0, '2099-01-01'),
    [{ index: 0, scheduledDate: '2027-05-01', executionDate: '2027-05-01' }])

  const daily = spec({ startDate: '2027-07-02', frequency: 'DAILY', endDate: '2027-07-04', adjustment: 'NEXT_BANKING_DAY' })
  t.same(occurrencesUntil(daily, 0, '2027-12-31').map((o) => [o.scheduledDate, o.executionDate]), [
    ['2027-07-02', '2027-07-02'], ['2027-07-03', '2027-07-06'], ['2027-07-04', '2027-07-06']
  ], 'equal execution dates are all kept')
  t.equal(occurrencesUntil(spec({ startDate: '2027-01-01', frequency: 'DAILY' }), 0, '2027-12-31').length, 365)
})

t.test('firstIndexOnOrAfter', async (t) => {
  const m = spec({ startDate: '2027-01-31', frequency: 'MONTHLY' })
  const cases: [string, number][] = [
    ['2020-01-01', 0], ['2027-01-31', 0], ['2027-02-01', 1], ['2027-02-27', 1], ['2027-02-28', 1],
    ['2027-03-01', 2], ['2027-03-31', 2], ['2027-04-01', 3], ['2028-02-29', 13], ['2028-03-01', 14]
  ]
  for (const [date, expected] of cases) t.equal(firstIndexOnOrAfter(m, date), expected, `MONTHLY on or after ${date}`)

  t.equal(firstIndexOnOrAfter({ ...m, endDate: '2027-03-31' }, '2027-03-31'), 2)
  t.equal(firstIndexOnOrAfter({ ...m, endDate: '2027-03-31' }, '2027-04-01'), null, 'past endDate')
  t.equal(firstIndexOnOrAfter({ ...m, numberOfOccurrences: 3 }, '2027-03-31'), 2)
  t.equal(firstIndexOnOrAfter({ ...m, numberOfOccurrences: 3 }, '2027-04-01'), null, 'past numberOfOccurrences')
  // Uses the scheduled date, not the (adjusted) execution date.
  t.equal(firstIndexOnOrAfter({ ...m, adjustment: 'NEXT_BANKING_DAY' }, '2027-02-01'), 1)

  const y = spec({ startDate: '2028-02-29', frequency: 'YEARLY' })
  t.equal(firstIndexOnOrAfter(y, '2029-02-28'), 1)
  t.equal(firstIndexOnOrAfter(y, '2029-03-01'), 2)
  t.equal(firstIndexOnOrAfter(y, '2032-02-29'), 4)

  const d = spec({ startDate: '2026-01-01', frequency: 'DAILY' })
  t.equal(firstIndexOnOrAfter(d, '2028-01-01'), 730)
  t.equal(firstIndexOnOrAfter(d, '9999-12-31'), 2912442, 'far future without a linear scan')
  t.equal(firstIndexOnOrAfter(spec({ startDate: '2026-12-18', frequency: 'BIWEEKLY' }), '2027-01-02'), 2)

  const once = spec({ startDate: '2027-05-01', frequency: 'ONCE' })
  t.equal(firstIndexOnOrAfter(once, '2027-04-01'), 0)
  t.equal(firstIndexOnOrAfter(once, '2027-05-01'), 0)
  t.equal(firstIndexOnOrAfter(once, '2027-05-02'), null)
})

t.test('firstIndexOnOrAfter agrees with a linear scan for every day of 2027-2028', async (t) => {
  const freqs: Frequency[] = ['DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY']
  const mismatches: string[] = []
  for (const frequency of freqs) {
    const s = spec({ startDate: '2026-12-31', frequency, endDate: '2028-12-15' })
    let expected: number | null = 0 // two pointers: dates ascend, so the expected index only grows
    for (const day = new Date(Date.UTC(2026, 11, 1)); day.getUTCFullYear() < 2029; day.setUTCDate(day.getUTCDate() + 1)) {
      const date = day.toISOString().slice(0, 10)
      while (expected !== null) {
        const o = occurrence(s, expected)
        if (o === null) expected = null
        else if (o.scheduledDate < date) expected++
        else break
      }
      const got = firstIndexOnOrAfter(s, date)
      if (got !== expected) mismatches.push(`${frequency} ${date}: got ${got}, want ${expected}`)
    }
  }
  t.same(mismatches, [])
})

t.test('malformed input throws RangeError', async (t) => {
  for (const bad of ['2027-02-30', 'not-a-date', '2027-2-3', '2027-02-03T00:00']) {
    t.throws(() => nominalDate(bad, 'MONTHLY', 0), RangeError, `nominalDate(${bad})`)
    t.throws(() => occurrence(spec({ startDate: bad, frequency: 'DAILY' }), 0), RangeError, `startDate ${bad}`)
    t.throws(() => occurrence(spec({ startDate: '2027-01-01', frequency: 'DAILY', endDate: bad }), 0), RangeError, `endDate ${bad}`)
    t.throws(() => occurrencesUntil(spec({ startDate: '2027-01-01', frequency: 'DAILY' }), 0, bad), RangeError, `untilDate ${bad}`)
    t.throws(() => firstIndexOnOrAfter(spec({ startDate: '2027-01-01', frequency: 'DAILY' }), bad), RangeError, `date ${bad}`)
  }
  t.throws(() => nominalDate('2027-02-30', 'MONTHLY', 0), { name: 'RangeError', message: /2027-02-30.*YYYY-MM-DD/ })
  t.throws(() => nominalDate('2027-01-01', 'MONTHLY', -1), RangeError)
  t.throws(() => nominalDate('2027-01-01', 'MONTHLY', 1.5), RangeError)
  t.throws(() => nominalDate('2027-01-01', 'HOURLY' as Frequency, 1), RangeError)
  t.throws(() => occurrence(spec({ startDate: '2027-01-01', frequency: 'DAILY' }), -1), RangeError)
  t.throws(() => occurrence(spec({ startDate: '2027-01-01', frequency: 'DAILY', adjustment: 'LATER' as 'NONE' }), 0), RangeError)
  t.throws(() => nominalDate('9999-12-31', 'DAILY', 1), RangeError, 'past year 9999 cannot be written as YYYY-MM-DD')
  t.throws(() => occurrencesUntil(spec({ startDate: '2027-01-01', frequency: 'DAILY' }), -1, '2027-02-01'), RangeError)
})
