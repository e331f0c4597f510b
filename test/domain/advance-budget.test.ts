import fc from 'fast-check'
import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { firedItemsUntil, latestDateWithin } from '../../src/domain/advance-budget.js'
import { countOnOrBefore, occurrencesUntil, type Frequency, type ScheduleSpec } from '../../src/domain/schedule.js'
import { createAchTransfer, createInternalTransfer } from '../../src/domain/scheduled-transfer.js'
import { runProcessors, summariseTimeline, type TimelineEvent } from '../../src/domain/timeline.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { snapshot } from '../../src/world/snapshot.js'
import { World } from '../../src/world/world.js'
import { SEED } from '../robustness/arbitraries.js'

const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')

/** `bare`: without the fixtures' transfers and statement cycles, so counts are the test's own runs. */
function world (bare = true): World {
  const w = new World(fixtures as NonNullable<typeof fixtures>, { scenario: 'default', now: new Date('2026-11-23T15:00:00.000Z'), seed: 7, sessionId: 'test', outboxCap: 10 })
  if (bare) {
    w.ctx.state.scheduledTransfers.clear()
    w.ctx.state.statementCycles.clear()
  }
  return w
}

const landlord = { name: 'Landlord', routingNumber: '021000021', accountNumber: '123456789', accountType: 'CHECKING' } as const

const FREQUENCIES: Frequency[] = ['ONCE', 'DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY']
const day = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true }).map(d => d.toISOString().slice(0, 10))

function countsAgree (s: ScheduleSpec, from: number, until: string): void {
  const counted = countOnOrBefore(s, from, until)
  const made = occurrencesUntil(s, from, until).length
  if (counted !== made) throw new Error(`${JSON.stringify({ ...s, from, until })}: counted ${counted}, made ${made}`)
}

t.test('counting the runs up to a date agrees with making them, for every frequency and end condition', async t => {
  const spec = fc.record({
    startDate: day,
    frequency: fc.constantFrom(...FREQUENCIES),
    endDate: fc.option(day, { nil: undefined }),
    numberOfOccurrences: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined })
  }).map((s): ScheduleSpec => ({ ...s, adjustment: 'NONE' }))
  t.doesNotThrow(() => fc.assert(fc.property(spec, fc.integer({ min: 0, max: 50 }), day, countsAgree), { seed: SEED, numRuns: 200 }))
})

t.test('counting agrees at month ends, where a monthly date is clamped (Jan 31, Feb 28, Mar 31)', async t => {
  const starts = ['2027-01-28', '2027-01-29', '2027-01-30', '2027-01-31', '2027-08-30', '2027-08-31', '2026-11-30', '2028-02-29']
  // The last four days of every month of two years, leap February included.
  const untils = Array.from({ length: 24 * 4 }, (_, i) => new Date(Date.UTC(2027, Math.floor(i / 4) + 1, -(i % 4))).toISOString().slice(0, 10))
  t.doesNotThrow(() => {
    for (const frequency of ['MONTHLY', 'QUARTERLY', 'YEARLY'] as const) {
      for (const startDate of starts) for (const until of untils) countsAgree({ startDate, frequency, adjustment: 'NONE' }, 0, until)
    }
  })
})

t.test('the estimate bounds the runs an advance makes: exact for internal transfers, above for ACH', async t => {
  const w = world()
  createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1, frequency: 'DAILY', startDate: '2026-11-24' })
  createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1, frequency: 'MONTHLY', startDate: '2026-11-30', numberOfOccurrences: 3 })
  t.equal(firedItemsUntil(w.ctx, '2027-01-31'), 69 + 3)
  const fired = w.advanceTo(new Date('2027-01-31T12:00:00.000Z'))
  t.equal(fired.filter(e => e.type === 'scheduled_transfer.execution_succeeded').length, 69 + 3)

  const ach = world()
  createAchTransfer(ach.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', amount: 1, frequency: 'DAILY', startDate: '2026-11-24', counterparty: landlord })
  const estimate = firedItemsUntil(ach.ctx, '2026-12-31')
  const achFired = ach.advanceTo(new Date('2026-12-31T12:00:00.000Z'))
  const runs = achFired.filter(e => e.type === 'scheduled_transfer.execution_succeeded').length
  const settled = achFired.filter(e => e.type === 'scheduled_transfer.execution_settled').length
  t.equal(estimate, 2 * 38, 'every day of the span counts, each run with its settlement')
  t.ok(runs + settled < estimate, `weekends and holidays are skipped (${runs} runs)`)
  t.equal(settled, runs - 1, 'every run but Thursday Dec 31\'s has settled (that one settles on Monday Jan 4)')
})

t.test('the estimate counts an ACH return to a magic number, a settlement still to come, and statements', async t => {
  const w = world()
  createAchTransfer(w.ctx, 'cus_maya', {
    fromAccountId: 'acct_maya_checking', amount: 1, frequency: 'ONCE', startDate: '2026-11-24', counterparty: { ...landlord, accountNumber: '10001' }
  })
  t.equal(firedItemsUntil(w.ctx, '2026-11-30'), 3, 'the run, its settlement and its return')
  w.advanceTo(new Date('2026-11-24T12:00:00.000Z'))
  t.equal(firedItemsUntil(w.ctx, '2026-11-30'), 2, 'after the run: the settlement and the return still to come')

  const statements = world(false)
  statements.ctx.state.scheduledTransfers.clear()
  const accounts = statements.ctx.state.statementCycles.size
  t.equal(firedItemsUntil(statements.ctx, '2027-01-31'), 2 * accounts, 'two month ends, a statement for every open account')
  t.equal(statements.advanceTo(new Date('2027-01-31T12:00:00.000Z')).filter(e => e.type === 'statement.created').length, 2 * accounts)
})

t.test('the latest date within a budget: reaching it stays within, a day more does not', async t => {
  const w = world()
  for (let i = 0; i < 4; i++) {
    createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1, frequency: 'DAILY', startDate: '2026-11-24' })
  }
  const latest = latestDateWithin(w.ctx, '2026-11-23', '2036-11-23', 100)
  t.equal(latest, '2026-12-18', '25 days of 4 runs')
  t.equal(firedItemsUntil(w.ctx, '2026-12-18'), 100)
  t.equal(firedItemsUntil(w.ctx, '2026-12-19'), 104)
  t.equal(latestDateWithin(w.ctx, '2026-11-23', '2026-12-01', 100), '2026-12-01', 'the whole span fits')
  t.equal(latestDateWithin(w.ctx, '2026-11-23', '2036-11-23', 3), '2026-11-23', 'not even the next day fits')
  createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1, frequency: 'DAILY', startDate: '2026-11-23' })
  t.equal(firedItemsUntil(w.ctx, '2026-11-23'), 0, 'a run due today ran when it was created')
  const template = [...w.ctx.state.scheduledTransfers.values()][0]
  if (template === undefined) throw new Error('no transfer')
  // A transfer that should have run daily since the 1st (as a running clock left alone would leave it).
  w.ctx.state.scheduledTransfers.set('sxfer_overdue', { ...structuredClone(template), id: 'sxfer_overdue', nextIndex: 0, nextRunDate: '2026-11-01', startDate: '2026-11-01' })
  t.equal(latestDateWithin(w.ctx, '2026-11-23', '2036-11-23', 3), null, 'runs overdue today are already over the budget')
})

t.test('a processor firing hundreds of thousands of events does not overflow the stack', async t => {
  const event: TimelineEvent = { at: '2027-01-01T00:00:00.000Z', type: 'scheduled_transfer.execution_succeeded', entityId: 'sxfer_x', data: {}, detail: '' }
  const many = Array.from({ length: 300_000 }, () => event)
  const fired = runProcessors(world().ctx, new Date('2027-01-01T00:00:00.000Z'), [() => many, () => [{ ...event, at: '2026-12-31T00:00:00.000Z' }]])
  t.equal(fired.length, 300_001)
  t.equal(fired[0]?.at, '2026-12-31T00:00:00.000Z', 'still in time order')
})

t.test('a timeline summary lists the first events, their type as the kind, and counts every type', async t => {
  const events: TimelineEvent[] = Array.from({ length: 7 }, (_, i) => ({
    at: `2027-01-0${i + 1}T00:00:00.000Z`, type: i % 3 === 0 ? 'card.shipped' : 'scheduled_transfer.execution_succeeded', entityId: `e${i}`, data: { id: `e${i}` }, detail: `event ${i}`
  }))
  const listed = events.map(({ at, type, entityId, detail }) => ({ at, kind: type, entityId, detail }))
  const byKind = { 'card.shipped': 3, 'scheduled_transfer.execution_succeeded': 4 }
  t.same(summariseTimeline(events, 5), { fired: listed.slice(0, 5), firedCount: 7, firedByKind: byKind, truncated: true })
  t.same(summariseTimeline(events, 7), { fired: listed, firedCount: 7, firedByKind: byKind, truncated: false })
})

t.test('an advance is all or nothing: a processor that throws leaves the clock and the state as they were', async t => {
  const w = world(false)
  // A transfer whose schedule cannot be read: the transfer processor throws after the shipment
  // processor has moved the fixtures' cards along (in the draft).
  const template = [...w.ctx.state.scheduledTransfers.values()][0]
  if (template === undefined) throw new Error('the fixtures have no transfer')
  w.ctx.state.scheduledTransfers.set('sxfer_broken', { ...structuredClone(template), id: 'sxfer_broken', status: 'ACTIVE', startDate: '2026-13-01', nextRunDate: null })
  const before = snapshot(w)
  t.throws(() => w.advanceTo(new Date('2026-12-23T15:00:00.000Z')), RangeError)
  t.same(snapshot(w), before, 'the clock did not move and no card shipped')
})
