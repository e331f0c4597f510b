import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { isBankingDay } from '../../src/domain/banking-calendar.js'
import { DEFAULT_SETTINGS } from '../../src/domain/context.js'
import { achRequest, domainFailure } from '../helpers/domain.js'
import { nominalDate } from '../../src/domain/schedule.js'
import {
  cancelTransfer, createAchTransfer, createInternalTransfer, deleteTransfer, failNextExecution, getTransfer, listTransfers,
  runTransferNow, updateTransfer, type InternalTransferRequest
} from '../../src/domain/scheduled-transfer.js'
import { ledgerDueProcessors } from '../../src/domain/ledger-due.js'
import { runProcessors } from '../../src/domain/timeline.js'
import { EXECUTIONS_KEPT } from '../../src/domain/transfer-execution.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { World } from '../../src/world/world.js'

/** Monday 2026-11-23, the week of Thanksgiving (Thursday 26th). */
const NOW = new Date('2026-11-23T15:00:00.000Z')
const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')

/** A world of the bundled personas; `bare` drops the fixture transfers so balances only see the test's own. */
function world (options: { now?: Date; bare?: boolean; maxTransferAmount?: number } = {}): World {
  const settings = { ...structuredClone(DEFAULT_SETTINGS), maxTransferAmount: options.maxTransferAmount ?? DEFAULT_SETTINGS.maxTransferAmount }
  const w = new World(fixtures as NonNullable<typeof fixtures>, { scenario: 'default', now: options.now ?? NOW, seed: 7, sessionId: 'test', outboxCap: 10, settings })
  if (options.bare === true) w.ctx.state.scheduledTransfers.clear()
  return w
}

/** Moves the clock and lets the ledger run what came due; answers the runs' events only (ACH settlements and returns are ach-lifecycle.test.ts's). */
function advance (w: World, iso: string) {
  w.clock.advanceTo(new Date(iso))
  return runProcessors(w.ctx, w.clock.now(), ledgerDueProcessors).filter(e => e.type.startsWith('scheduled_transfer.') && e.type !== 'scheduled_transfer.execution_settled' && e.type !== 'scheduled_transfer.execution_returned')
}

const balance = (w: World, id: string): number => {
  const account = w.ctx.state.accounts.get(id)
  if (account === undefined) throw new Error(`no account ${id}`)
  return account.balance
}

const internal = (over: Partial<InternalTransferRequest> = {}): InternalTransferRequest => ({
  fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 50000, frequency: 'MONTHLY', startDate: '2026-12-01', ...over
})

const ach = achRequest

const failure = domainFailure

t.test('a monthly internal transfer from Jan 31 clamps to month ends, computed from the anchor, and is never moved', async t => {
  const w = world({ now: new Date('2027-01-20T10:00:00.000Z'), bare: true })
  const created = createInternalTransfer(w.ctx, 'cus_maya', internal({ startDate: '2027-01-31', amount: 1000 }))
  t.equal(created.nextRunDate, '2027-01-31', 'a Sunday: internal transfers are not adjusted')
  advance(w, '2027-05-31T12:00:00.000Z')
  const after = getTransfer(w.ctx, 'cus_maya', created.id)
  t.same(after.executions.map(e => [e.scheduledDate, e.executionDate]), [
    ['2027-01-31', '2027-01-31'], ['2027-02-28', '2027-02-28'], ['2027-03-31', '2027-03-31'], ['2027-04-30', '2027-04-30'], ['2027-05-31', '2027-05-31']
  ], 'Mar 31 follows Feb 28, not Mar 28; May 31 (Memorial Day) runs anyway')
  t.equal(after.nextRunDate, '2027-06-30')
  t.equal(after.occurrencesCompleted, 5)
})

t.test('an ACH run on a Saturday or a Fed holiday executes on the next banking day', async t => {
  const w = world({ now: new Date('2027-06-28T10:00:00.000Z'), bare: true })
  const saturday = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'ONCE', startDate: '2027-07-03', amount: 1000 }))
  const holiday = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'ONCE', startDate: '2027-07-04', amount: 2000 }))
  t.equal(saturday.nextRunDate, '2027-07-06', 'Sat Jul 3 → Tue Jul 6 (Independence Day, a Sunday, closes Monday Jul 5)')
  t.equal(holiday.nextRunDate, '2027-07-06')
  t.same(advance(w, '2027-07-05T23:59:59.000Z'), [], 'nothing runs on the observed holiday')
  const events = advance(w, '2027-07-06T00:00:00.000Z')
  t.same(events.map(e => [e.type, e.entityId, e.at]), [
    ['scheduled_transfer.execution_succeeded', saturday.id, '2027-07-06T00:00:00.000Z'], ['scheduled_transfer.completed', saturday.id, '2027-07-06T00:00:00.000Z'],
    ['scheduled_transfer.execution_succeeded', holiday.id, '2027-07-06T00:00:00.000Z'], ['scheduled_transfer.completed', holiday.id, '2027-07-06T00:00:00.000Z']
  ])
  t.same(getTransfer(w.ctx, 'cus_maya', saturday.id).executions, [{ scheduledDate: '2027-07-03', executionDate: '2027-07-06', amount: 1000, status: 'PENDING' }], 'sent; it settles the next banking day')
  t.equal(getTransfer(w.ctx, 'cus_maya', saturday.id).status, 'COMPLETED')
})

t.test('an ACH DAILY transfer skips non-banking days, so its execution dates strictly increase', async t => {
  const w = world({ now: new Date('2027-07-01T10:00:00.000Z'), bare: true })
  const daily = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'DAILY', startDate: '2027-07-02', numberOfOccurrences: 4, amount: 100 }))
  advance(w, '2027-07-31T00:00:00.000Z')
  const runs = getTransfer(w.ctx, 'cus_maya', daily.id).executions
  t.same(runs.map(e => [e.scheduledDate, e.executionDate]), [
    ['2027-07-02', '2027-07-02'], ['2027-07-06', '2027-07-06'], ['2027-07-07', '2027-07-07'], ['2027-07-08', '2027-07-08']
  ], 'Sat 3, Sun 4 and the observed holiday Mon 5 are skipped, not piled onto Tuesday; numberOfOccurrences counts runs')
  t.equal(getTransfer(w.ctx, 'cus_maya', daily.id).status, 'COMPLETED')

  const weekendOnly = failure(() => createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'DAILY', startDate: '2027-07-31', endDate: '2027-08-01' })))
  t.same([weekendOnly.code, weekendOnly.pointers], ['invalid_field', ['/endDate']], 'a weekend-only ACH DAILY schedule has no run')

  const long = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'DAILY', startDate: '2027-08-01', amount: 1 }))
  advance(w, '2028-01-31T00:00:00.000Z')
  const kept = getTransfer(w.ctx, 'cus_maya', long.id)
  const dates = kept.executions.map(e => e.executionDate)
  t.ok(kept.occurrencesCompleted > EXECUTIONS_KEPT, 'more runs than a transfer keeps')
  t.equal(dates.length, EXECUTIONS_KEPT, 'the latest ones are kept')
  t.ok(dates.every(isBankingDay), 'every execution is on a banking day')
  t.ok(dates.every((d, i) => i === 0 || d > (dates[i - 1] as string)), 'strictly increasing')
})

t.test('other frequencies of ACH roll each run separately from its nominal date', async t => {
  const w = world({ now: new Date('2027-01-20T10:00:00.000Z'), bare: true })
  const monthly = createAchTransfer(w.ctx, 'cus_maya', ach({ startDate: '2027-01-31', amount: 100 }))
  advance(w, '2027-08-03T00:00:00.000Z')
  t.same(getTransfer(w.ctx, 'cus_maya', monthly.id).executions.map(e => [e.scheduledDate, e.executionDate]), [
    ['2027-01-31', '2027-02-01'], ['2027-02-28', '2027-03-01'], ['2027-03-31', '2027-03-31'], ['2027-04-30', '2027-04-30'],
    ['2027-05-31', '2027-06-01'], ['2027-06-30', '2027-06-30'], ['2027-07-31', '2027-08-02']
  ])
})

t.test('internal transfers conserve the total balance; ACH CREDIT debits and DEBIT credits the account', async t => {
  const w = world({ bare: true })
  const total = (): number => balance(w, 'acct_maya_checking') + balance(w, 'acct_maya_savings')
  const before = total()
  createInternalTransfer(w.ctx, 'cus_maya', internal({ frequency: 'WEEKLY', startDate: '2026-11-24', amount: 70000 }))
  createInternalTransfer(w.ctx, 'cus_maya', internal({ frequency: 'DAILY', startDate: '2026-11-25', amount: 33333, fromAccountId: 'acct_maya_savings', toAccountId: 'acct_maya_checking' }))
  advance(w, '2027-03-01T00:00:00.000Z')
  t.equal(total(), before, 'money only moved between the two accounts')

  const w2 = world({ bare: true })
  const start = balance(w2, 'acct_maya_checking')
  createAchTransfer(w2.ctx, 'cus_maya', ach({ frequency: 'ONCE', startDate: '2026-11-24', amount: 10000, direction: 'CREDIT' }))
  createAchTransfer(w2.ctx, 'cus_maya', ach({ frequency: 'ONCE', startDate: '2026-11-24', amount: 2500, direction: 'DEBIT' }))
  advance(w2, '2026-11-24T12:00:00.000Z')
  t.equal(balance(w2, 'acct_maya_checking'), start - 10000 + 2500)
})

t.test('insufficient funds: a FAILED execution, no money moved; recurring stays ACTIVE, ONCE becomes FAILED', async t => {
  const w = world({ bare: true })
  const recurring = createInternalTransfer(w.ctx, 'cus_sam', internal({ fromAccountId: 'acct_sam_savings', toAccountId: 'acct_sam_checking', amount: 10000, frequency: 'WEEKLY', startDate: '2026-11-24' }))
  const once = createAchTransfer(w.ctx, 'cus_sam', ach({ fromAccountId: 'acct_sam_checking', amount: 150000, frequency: 'ONCE', startDate: '2026-11-25' }))
  const events = advance(w, '2026-12-08T12:00:00.000Z')
  t.same(events.map(e => [e.type, e.entityId]), [
    ['scheduled_transfer.execution_succeeded', recurring.id], ['scheduled_transfer.execution_failed', once.id], ['scheduled_transfer.execution_failed', recurring.id], ['scheduled_transfer.execution_failed', recurring.id]
  ], 'Nov 24 moves 100.00 (savings 150.00 → 50.00); the 1,500.00 ACH finds 1,012.34; savings cannot pay 100.00 again')
  const r = getTransfer(w.ctx, 'cus_sam', recurring.id)
  t.same(r.executions.map(e => [e.executionDate, e.status, e.failureReason]), [
    ['2026-11-24', 'SUCCEEDED', undefined], ['2026-12-01', 'FAILED', 'INSUFFICIENT_FUNDS'], ['2026-12-08', 'FAILED', 'INSUFFICIENT_FUNDS']
  ])
  t.match(r, { status: 'ACTIVE', occurrencesCompleted: 3, nextRunDate: '2026-12-15' }, 'failed runs count as runs made and are not retried')
  const o = getTransfer(w.ctx, 'cus_sam', once.id)
  t.match(o, { status: 'FAILED', nextRunDate: null, occurrencesCompleted: 1 })
  t.same(o.executions, [{ scheduledDate: '2026-11-25', executionDate: '2026-11-25', amount: 150000, status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' }])
  t.equal(balance(w, 'acct_sam_savings'), 5000)
  t.equal(balance(w, 'acct_sam_checking'), 91234 + 10000, 'the failed ACH moved nothing')
})

t.test('due runs of all transfers execute in date order, then oldest transfer first', async t => {
  const w = world({ bare: true })
  // Sam's checking holds 912.34: whichever 600.00 debit runs first succeeds, the other fails.
  const later = createInternalTransfer(w.ctx, 'cus_sam', internal({ fromAccountId: 'acct_sam_checking', toAccountId: 'acct_sam_savings', amount: 60000, frequency: 'ONCE', startDate: '2026-11-26' }))
  const earlier = createInternalTransfer(w.ctx, 'cus_sam', internal({ fromAccountId: 'acct_sam_checking', toAccountId: 'acct_sam_savings', amount: 60000, frequency: 'ONCE', startDate: '2026-11-25' }))
  advance(w, '2026-12-31T00:00:00.000Z')
  t.equal(getTransfer(w.ctx, 'cus_sam', earlier.id).status, 'COMPLETED', 'created second but due first')
  t.equal(getTransfer(w.ctx, 'cus_sam', later.id).status, 'FAILED')

  const w2 = world({ bare: true })
  const first = createInternalTransfer(w2.ctx, 'cus_sam', internal({ fromAccountId: 'acct_sam_checking', toAccountId: 'acct_sam_savings', amount: 60000, frequency: 'ONCE', startDate: '2026-11-25' }))
  w2.clock.advanceTo(new Date('2026-11-23T16:00:00.000Z'))
  const second = createInternalTransfer(w2.ctx, 'cus_sam', internal({ fromAccountId: 'acct_sam_checking', toAccountId: 'acct_sam_savings', amount: 60000, frequency: 'ONCE', startDate: '2026-11-25' }))
  advance(w2, '2026-11-25T00:00:00.000Z')
  t.same([getTransfer(w2.ctx, 'cus_sam', first.id).status, getTransfer(w2.ctx, 'cus_sam', second.id).status], ['COMPLETED', 'FAILED'], 'same day: the older transfer first')
})

t.test('COMPLETED after numberOfOccurrences or after the last run before endDate (inclusive)', async t => {
  const w = world({ bare: true })
  const counted = createInternalTransfer(w.ctx, 'cus_maya', internal({ frequency: 'BIWEEKLY', startDate: '2026-11-30', numberOfOccurrences: 3, amount: 100 }))
  const dated = createInternalTransfer(w.ctx, 'cus_maya', internal({ frequency: 'WEEKLY', startDate: '2026-11-30', endDate: '2026-12-14', amount: 100 }))
  const events = advance(w, '2027-06-01T00:00:00.000Z')
  t.same(events.filter(e => e.type === 'scheduled_transfer.completed').map(e => [e.entityId, e.at]), [
    [dated.id, '2026-12-14T00:00:00.000Z'], [counted.id, '2026-12-28T00:00:00.000Z']
  ])
  t.match(getTransfer(w.ctx, 'cus_maya', counted.id), { status: 'COMPLETED', occurrencesCompleted: 3, nextRunDate: null })
  t.same(getTransfer(w.ctx, 'cus_maya', dated.id).executions.map(e => e.scheduledDate), ['2026-11-30', '2026-12-07', '2026-12-14'], 'endDate itself runs')
})

t.test('a run due today executes when the transfer is created', async t => {
  const w = world({ bare: true })
  const before = balance(w, 'acct_maya_checking')
  const today = createInternalTransfer(w.ctx, 'cus_maya', internal({ frequency: 'ONCE', startDate: '2026-11-23', amount: 1234 }))
  t.match(today, { status: 'COMPLETED', occurrencesCompleted: 1, nextRunDate: null })
  t.same(today.executions, [{ scheduledDate: '2026-11-23', executionDate: '2026-11-23', amount: 1234, status: 'SUCCEEDED' }])
  t.equal(balance(w, 'acct_maya_checking'), before - 1234)
})

t.test('validation: every rule answers its code and field pointer, and stores nothing', async t => {
  const w = world({ maxTransferAmount: 200000 })
  const count = w.ctx.state.scheduledTransfers.size
  const checking = balance(w, 'acct_maya_checking')
  const cases: [string, () => unknown, string, string[]][] = [
    ['amount over the limit', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ amount: 200001 })), 'amount_over_limit', ['/amount']],
    ['amount zero', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ amount: 0 })), 'invalid_field', ['/amount']],
    ['amount in fractions', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ amount: 10.5 })), 'invalid_field', ['/amount']],
    ['another customer\'s account', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ toAccountId: 'acct_sam_checking' })), 'account_not_found', ['/toAccountId']],
    ['an unknown account', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ fromAccountId: 'acct_nope' })), 'account_not_found', ['/fromAccountId']],
    ['the same account twice', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ toAccountId: 'acct_maya_checking' })), 'same_account', ['/toAccountId']],
    ['start date yesterday', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ startDate: '2026-11-22' })), 'start_date_in_past', ['/startDate']],
    ['end before start', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ endDate: '2026-11-30' })), 'end_date_before_start', ['/endDate']],
    ['both end conditions', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ endDate: '2027-12-01', numberOfOccurrences: 3 })), 'conflicting_end_conditions', ['/numberOfOccurrences']],
    ['ONCE with more runs', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ frequency: 'ONCE', numberOfOccurrences: 2 })), 'invalid_field', ['/numberOfOccurrences']],
    ['memo over 80', () => createInternalTransfer(w.ctx, 'cus_maya', internal({ memo: 'x'.repeat(81) })), 'invalid_field', ['/memo']],
    ['bad routing checksum', () => createAchTransfer(w.ctx, 'cus_maya', ach({ counterparty: { ...ach().counterparty, routingNumber: '021000022' } })), 'invalid_routing_number', ['/counterparty/routingNumber']],
    ['short account number', () => createAchTransfer(w.ctx, 'cus_maya', ach({ counterparty: { ...ach().counterparty, accountNumber: '123' } })), 'invalid_field', ['/counterparty/accountNumber']],
    ['description over 10', () => createAchTransfer(w.ctx, 'cus_maya', ach({ description: 'MONTHLY RENT' })), 'invalid_field', ['/description']],
    ['ACH from another customer\'s account', () => createAchTransfer(w.ctx, 'cus_maya', ach({ fromAccountId: 'acct_riley_checking' })), 'account_not_found', ['/fromAccountId']],
    ['several problems at once', () => createAchTransfer(w.ctx, 'cus_maya', ach({ amount: 200001, startDate: '2026-01-01', counterparty: { ...ach().counterparty, routingNumber: '123456789' } })),
      'invalid_field', ['/amount', '/counterparty/routingNumber', '/startDate']],
    ['a FROZEN customer', () => createInternalTransfer(w.ctx, 'cus_riley', internal({ fromAccountId: 'acct_riley_checking' })), 'customer_not_writable', []]
  ]
  for (const [name, fn, code, pointers] of cases) t.same([failure(fn).code, failure(fn).pointers], [code, pointers], name)
  t.equal(failure(cases[0]?.[1] as () => unknown).error.extensions?.maxAmount, 200000, 'the limit is told')
  t.equal(w.ctx.state.scheduledTransfers.size, count, 'nothing stored')
  t.equal(balance(w, 'acct_maya_checking'), checking, 'no money moved')
  t.ok(createInternalTransfer(w.ctx, 'cus_maya', internal({ amount: 200000, startDate: '2026-11-23' })), 'the limit itself and today are fine')
})

t.test('update changes future runs only; frequency and startDate re-anchor', async t => {
  const w = world({ bare: true })
  const x = createInternalTransfer(w.ctx, 'cus_maya', internal({ startDate: '2026-11-30', amount: 1000 }))
  advance(w, '2026-12-31T10:00:00.000Z')
  const raised = updateTransfer(w.ctx, 'cus_maya', x.id, { amount: 2500, memo: 'More savings' })
  t.match(raised, { amount: 2500, memo: 'More savings', nextRunDate: '2027-01-30', updatedAt: '2026-12-31T10:00:00.000Z' })
  t.same(raised.executions.map(e => e.amount), [1000, 1000], 'executions already made stay')
  advance(w, '2027-01-30T10:00:00.000Z')
  t.same(getTransfer(w.ctx, 'cus_maya', x.id).executions.map(e => e.amount), [1000, 1000, 2500])

  const weekly = updateTransfer(w.ctx, 'cus_maya', x.id, { frequency: 'WEEKLY' })
  t.match(weekly, { frequency: 'WEEKLY', startDate: '2027-02-28', nextRunDate: '2027-02-28' }, 'a new frequency alone keeps the next scheduled date')
  const moved = updateTransfer(w.ctx, 'cus_maya', x.id, { startDate: '2027-02-03' })
  t.match(moved, { startDate: '2027-02-03', nextRunDate: '2027-02-03', occurrencesCompleted: 3 })
  advance(w, '2027-02-17T10:00:00.000Z')
  t.same(getTransfer(w.ctx, 'cus_maya', x.id).executions.map(e => e.scheduledDate), ['2026-11-30', '2026-12-30', '2027-01-30', '2027-02-03', '2027-02-10', '2027-02-17'])

  const counted = updateTransfer(w.ctx, 'cus_maya', x.id, { numberOfOccurrences: 8 })
  t.match(counted, { numberOfOccurrences: 8, occurrencesCompleted: 6 }, 'numberOfOccurrences counts every run, past ones included')
  advance(w, '2027-06-01T10:00:00.000Z')
  t.match(getTransfer(w.ctx, 'cus_maya', x.id), { status: 'COMPLETED', occurrencesCompleted: 8 })
  t.same(getTransfer(w.ctx, 'cus_maya', x.id).executions.slice(6).map(e => e.scheduledDate), ['2027-02-24', '2027-03-03'])
})

t.test('update refuses what leaves no future run, moves the anchor back, or touches a finished transfer', async t => {
  const w = world({ bare: true })
  const x = createAchTransfer(w.ctx, 'cus_maya', ach({ startDate: '2026-11-24', amount: 100, frequency: 'WEEKLY', numberOfOccurrences: 10 }))
  advance(w, '2026-12-08T10:00:00.000Z')
  const snapshot = structuredClone(getTransfer(w.ctx, 'cus_maya', x.id))
  const cases: [string, Parameters<typeof updateTransfer>[3], string, string[]][] = [
    ['fewer runs than made', { numberOfOccurrences: 3 }, 'invalid_field', ['/numberOfOccurrences']],
    ['end before the next run', { endDate: '2026-12-10' }, 'invalid_field', ['/endDate']],
    ['end before start', { startDate: '2026-12-20', endDate: '2026-12-19' }, 'end_date_before_start', ['/endDate']],
    ['both end conditions', { endDate: '2027-12-01', numberOfOccurrences: 20 }, 'conflicting_end_conditions', ['/numberOfOccurrences']],
    ['anchor in the past', { startDate: '2026-12-01' }, 'start_date_in_past', ['/startDate']],
    ['anchor on the last run', { startDate: '2026-12-08' }, 'invalid_field', ['/startDate']],
    ['description on an internal', { description: 'X' }, 'invalid_field', ['/description']],
    ['amount over the limit', { amount: DEFAULT_SETTINGS.maxTransferAmount + 1 }, 'amount_over_limit', ['/amount']]
  ]
  for (const [name, update, code, pointers] of cases) {
    const target = name === 'description on an internal'
      ? createInternalTransfer(w.ctx, 'cus_maya', internal({ startDate: '2026-12-20' })).id
      : x.id
    const f = failure(() => updateTransfer(w.ctx, 'cus_maya', target, update))
    t.same([f.code, f.pointers], [code, pointers], name)
  }
  t.same(getTransfer(w.ctx, 'cus_maya', x.id), snapshot, 'a refused update changes nothing')
  const open = updateTransfer(w.ctx, 'cus_maya', x.id, { endDate: null, numberOfOccurrences: null })
  t.same([open.endDate, open.numberOfOccurrences], [undefined, undefined], 'null removes the end condition')
  const dated = updateTransfer(w.ctx, 'cus_maya', x.id, { numberOfOccurrences: 12 })
  t.equal(dated.numberOfOccurrences, 12)
  const ended = updateTransfer(w.ctx, 'cus_maya', x.id, { endDate: '2027-01-31' })
  t.same([ended.endDate, ended.numberOfOccurrences], ['2027-01-31', undefined], 'one end condition replaces the other')

  cancelTransfer(w.ctx, 'cus_maya', x.id)
  t.equal(failure(() => updateTransfer(w.ctx, 'cus_maya', x.id, { amount: 5 })).code, 'invalid_transfer_state')
  t.equal(failure(() => updateTransfer(w.ctx, 'cus_sam', 'sxfer_nope', { amount: 5 })).code, 'transfer_not_found')
})

t.test('cancel stays readable and never runs; delete removes it in any state; both are the owner\'s only', async t => {
  const w = world({ bare: true })
  const x = createInternalTransfer(w.ctx, 'cus_maya', internal({ startDate: '2026-11-30' }))
  t.equal(failure(() => cancelTransfer(w.ctx, 'cus_sam', x.id)).code, 'transfer_not_found', 'another customer\'s transfer is not found')
  t.equal(failure(() => deleteTransfer(w.ctx, 'cus_sam', x.id)).code, 'transfer_not_found')
  const cancelled = cancelTransfer(w.ctx, 'cus_maya', x.id)
  t.match(cancelled, { status: 'CANCELLED', nextRunDate: null, cancelledAt: '2026-11-23T15:00:00.000Z' })
  t.same(advance(w, '2027-02-01T00:00:00.000Z'), [], 'a cancelled transfer never runs')
  t.equal(getTransfer(w.ctx, 'cus_maya', x.id).status, 'CANCELLED')
  t.equal(failure(() => cancelTransfer(w.ctx, 'cus_maya', x.id)).code, 'invalid_transfer_state')
  t.same(deleteTransfer(w.ctx, 'cus_maya', x.id), { id: x.id, deleted: true })
  t.equal(failure(() => getTransfer(w.ctx, 'cus_maya', x.id)).code, 'transfer_not_found')
  t.equal(failure(() => deleteTransfer(w.ctx, 'cus_maya', x.id)).code, 'transfer_not_found')
})

t.test('a FROZEN customer reads its transfers but cannot change them', async t => {
  const w = world()
  t.equal(getTransfer(w.ctx, 'cus_riley', 'sxfer_riley_utilities').status, 'ACTIVE')
  for (const fn of [
    () => updateTransfer(w.ctx, 'cus_riley', 'sxfer_riley_utilities', { amount: 1 }),
    () => cancelTransfer(w.ctx, 'cus_riley', 'sxfer_riley_utilities'),
    () => deleteTransfer(w.ctx, 'cus_riley', 'sxfer_riley_utilities')
  ]) t.equal(failure(fn).code, 'customer_not_writable')
  t.equal(getTransfer(w.ctx, 'cus_riley', 'sxfer_riley_utilities').status, 'ACTIVE')
})

t.test('list: the customer\'s own, newest first, filtered by status and type', async t => {
  const w = world()
  const all = listTransfers(w.ctx, 'cus_maya').map(x => x.id)
  t.same(all, ['sxfer_maya_rent', 'sxfer_maya_dentist', 'sxfer_maya_savings', 'sxfer_maya_allowance'].sort((a, b) =>
    (w.ctx.state.scheduledTransfers.get(b)?.createdAt ?? '').localeCompare(w.ctx.state.scheduledTransfers.get(a)?.createdAt ?? '')))
  const created = createInternalTransfer(w.ctx, 'cus_maya', internal())
  t.equal(listTransfers(w.ctx, 'cus_maya')[0]?.id, created.id, 'newest first')
  t.same(listTransfers(w.ctx, 'cus_maya', { type: 'ACH' }).map(x => x.id).sort(), ['sxfer_maya_dentist', 'sxfer_maya_rent'])
  t.same(listTransfers(w.ctx, 'cus_maya', { status: 'CANCELLED' }).map(x => x.id), ['sxfer_maya_allowance'])
  t.same(listTransfers(w.ctx, 'cus_maya', { status: 'ACTIVE', type: 'INTERNAL' }).map(x => x.id), [created.id, 'sxfer_maya_savings'])
  t.same(listTransfers(w.ctx, 'cus_jordan'), [])
})

t.test('simulations: run the next occurrence now, fail the next execution', async t => {
  const w = world({ bare: true })
  const x = createInternalTransfer(w.ctx, 'cus_maya', internal({ startDate: '2026-12-15', amount: 700, numberOfOccurrences: 2 }))
  const before = balance(w, 'acct_maya_savings')
  const { transfer, events } = runTransferNow(w.ctx, x.id)
  t.same(events.map(e => [e.type, e.at]), [['scheduled_transfer.execution_succeeded', '2026-11-23T15:00:00.000Z']])
  t.same(transfer.executions, [{ scheduledDate: '2026-12-15', executionDate: '2026-11-23', amount: 700, status: 'SUCCEEDED' }])
  t.equal(transfer.nextRunDate, '2027-01-15', 'the December run is used up')
  t.equal(balance(w, 'acct_maya_savings'), before + 700)

  failNextExecution(w.ctx, x.id, 'ACCOUNT_FROZEN')
  const last = advance(w, '2027-01-15T08:00:00.000Z')
  t.same(last.map(e => e.type), ['scheduled_transfer.execution_failed', 'scheduled_transfer.completed'])
  const done = getTransfer(w.ctx, 'cus_maya', x.id)
  t.match(done, { status: 'COMPLETED', occurrencesCompleted: 2 }, 'a recurring transfer whose last run failed still completes')
  t.same(done.executions[1], { scheduledDate: '2027-01-15', executionDate: '2027-01-15', amount: 700, status: 'FAILED', failureReason: 'ACCOUNT_FROZEN' })
  t.notOk('failNextWith' in done, 'the simulated failure is spent')
  t.equal(balance(w, 'acct_maya_savings'), before + 700)
  t.equal(failure(() => runTransferNow(w.ctx, x.id)).code, 'invalid_transfer_state')
  t.equal(failure(() => failNextExecution(w.ctx, 'sxfer_nope', 'X')).code, 'transfer_not_found')
})

t.test('bundled fixtures: derived fields, and they resume after their history', async t => {
  const w = world()
  const savings = getTransfer(w.ctx, 'cus_maya', 'sxfer_maya_savings')
  t.match(savings, { status: 'ACTIVE', occurrencesCompleted: 2, nextRunDate: nominalDate(savings.startDate, 'MONTHLY', 2) })
  t.equal(savings.startDate, '2026-10-03')
  const rent = getTransfer(w.ctx, 'cus_maya', 'sxfer_maya_rent')
  t.same(rent.executions, [{ scheduledDate: '2026-11-01', executionDate: '2026-11-02', amount: 185000, status: 'SETTLED', settledAt: '2026-11-03T00:00:00.000Z' }],
    'ACH execution date derived: Sunday → Monday; settled the next banking day')
  t.match(rent, { direction: 'CREDIT', secCode: 'PPD', counterparty: { accountNumberLast4: '8841', routingNumber: '021000021' }, nextRunDate: '2026-12-01' })
  t.match(getTransfer(w.ctx, 'cus_maya', 'sxfer_maya_allowance'), { status: 'CANCELLED', nextRunDate: null, occurrencesCompleted: 3 })
  t.match(getTransfer(w.ctx, 'cus_maya', 'sxfer_maya_dentist'), { status: 'COMPLETED', frequency: 'ONCE', nextRunDate: null })
  t.match(getTransfer(w.ctx, 'cus_sam', 'sxfer_sam_topup'), { status: 'FAILED', executions: [{ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' }] })

  const car = getTransfer(w.ctx, 'cus_sam', 'sxfer_sam_car_loan')
  t.equal(car.nextRunDate, '2026-11-27', 'Thu Nov 26 is Thanksgiving: the ACH runs Friday')
  const events = advance(w, '2026-11-27T09:00:00.000Z').filter(e => e.entityId === car.id)
  t.same(events.map(e => e.type), ['scheduled_transfer.execution_failed'])
  t.match(getTransfer(w.ctx, 'cus_sam', car.id), { status: 'ACTIVE', nextRunDate: '2026-12-28', executions: [{ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' }] })
  t.equal(balance(w, 'acct_sam_checking'), 91234)
})
