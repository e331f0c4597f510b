import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { RETURN_CODE_TABLE, RETURN_CODES } from '../../src/domain/ach-return-codes.js'
import { addBankingDays, bankingDayAfter, isBankingDay } from '../../src/domain/banking-calendar.js'
import {
  cancelTransfer, createAchTransfer, createInternalTransfer, getTransfer, returnLatestExecution, runTransferNow, type AchTransferRequest
} from '../../src/domain/scheduled-transfer.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { restoreScheduledTransfer } from '../../src/world/scheduled-transfer-fixtures.js'
import { World } from '../../src/world/world.js'
import { achRequest, domainFailure } from '../helpers/domain.js'

const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')

/** The bundled personas without their transfers, so balances only see the test's own. */
function world (now: string): World {
  const w = new World(fixtures as NonNullable<typeof fixtures>, { scenario: 'default', now: new Date(now), seed: 7, sessionId: 'test', outboxCap: 10 })
  w.ctx.state.scheduledTransfers.clear()
  return w
}

/** Advances the clock as POST /__mock/clock/advance does; answers the ACH events (kind, transfer, instant). */
function advance (w: World, iso: string): [string, string, string][] {
  return w.advanceTo(new Date(iso)).filter(e => /transfer/.test(e.type)).map(e => [e.type, e.entityId, e.at])
}

const balance = (w: World, id = 'acct_maya_checking'): number => w.ctx.state.accounts.get(id)?.balance ?? Number.NaN

const ach = (over: Partial<AchTransferRequest> & { accountNumber?: string } = {}): AchTransferRequest => {
  const { accountNumber = '000123458841', ...rest } = over
  const request = achRequest({ amount: 10000, frequency: 'ONCE', startDate: '2026-12-24', ...rest })
  return { ...request, counterparty: { ...request.counterparty, accountNumber } }
}

const failure = domainFailure

t.test('bankingDayAfter is the banking day after, across weekends and observed holidays', async t => {
  const checked: string[] = []
  for (let day = Date.parse('2026-01-01T00:00:00Z'); day <= Date.parse('2030-12-31T00:00:00Z'); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10)
    const after = bankingDayAfter(date)
    if (!isBankingDay(after) || after <= date) checked.push(`${date} → ${after}`)
    if (isBankingDay(date) && after !== addBankingDays(date, 1)) checked.push(`${date} → ${after}, not ${addBankingDays(date, 1)}`)
  }
  t.same(checked, [], 'a banking day strictly later, the same as addBankingDays(date, 1) from a banking day')
  t.equal(bankingDayAfter('2026-12-24'), '2026-12-28', 'Christmas (Friday) and the weekend')
  t.equal(bankingDayAfter('2027-07-02'), '2027-07-06', 'the weekend and Monday Jul 5 (Independence Day observed)')
  t.throws(() => bankingDayAfter('2026-02-30'), RangeError)
})

t.test('an ACH payment is PENDING on its execution date (the money leaves) and SETTLED the next banking day', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const before = balance(w)
  const x = createAchTransfer(w.ctx, 'cus_maya', ach())
  t.same(advance(w, '2026-12-24T09:00:00.000Z'), [['scheduled_transfer.execution_succeeded', x.id, '2026-12-24T00:00:00.000Z'], ['scheduled_transfer.completed', x.id, '2026-12-24T00:00:00.000Z']])
  t.match(getTransfer(w.ctx, 'cus_maya', x.id).executions, [{ executionDate: '2026-12-24', status: 'PENDING' }])
  t.notOk('settledAt' in (getTransfer(w.ctx, 'cus_maya', x.id).executions[0] ?? {}))
  t.equal(balance(w), before - 10000, 'the money left on the execution date')
  t.same(advance(w, '2026-12-27T23:00:00.000Z'), [], 'not on Christmas (a Friday) nor over the weekend')
  t.same(advance(w, '2026-12-28T00:00:00.000Z'), [['scheduled_transfer.execution_settled', x.id, '2026-12-28T00:00:00.000Z']], 'Monday, at the start of the day')
  t.same(getTransfer(w.ctx, 'cus_maya', x.id).executions, [{
    scheduledDate: '2026-12-24', executionDate: '2026-12-24', amount: 10000, status: 'SETTLED', settledAt: '2026-12-28T00:00:00.000Z'
  }])
  t.equal(balance(w), before - 10000, 'settling moves no more money')
})

t.test('internal transfers stay SUCCEEDED at once; insufficient funds at submission stays FAILED', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const internal = createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100, frequency: 'ONCE', startDate: '2026-12-21' })
  t.match(internal.executions, [{ status: 'SUCCEEDED' }])
  const broke = createAchTransfer(w.ctx, 'cus_sam', ach({ fromAccountId: 'acct_sam_checking', amount: 2_000_000, startDate: '2026-12-22', accountNumber: '10001' }))
  advance(w, '2027-01-10T00:00:00.000Z')
  t.match(getTransfer(w.ctx, 'cus_sam', broke.id), { status: 'FAILED', executions: [{ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' }] })
  t.notOk('returnCode' in (getTransfer(w.ctx, 'cus_sam', broke.id).executions[0] ?? {}), 'nothing went out, so nothing comes back')
})

t.test('magic 10001: every execution settles, then comes back R01 the banking day after; the transfer keeps running', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const before = balance(w)
  const x = createAchTransfer(w.ctx, 'cus_maya', ach({ accountNumber: '10001', frequency: 'WEEKLY', startDate: '2026-12-23', amount: 2500 }))
  t.equal(x.counterparty?.accountNumberLast4, '0001', 'the answer shows only the last 4, as for any number')
  t.same(advance(w, '2027-01-01T12:00:00.000Z'), [
    ['scheduled_transfer.execution_succeeded', x.id, '2026-12-23T00:00:00.000Z'],
    ['scheduled_transfer.execution_settled', x.id, '2026-12-24T00:00:00.000Z'],
    ['scheduled_transfer.execution_returned', x.id, '2026-12-28T00:00:00.000Z'],
    ['scheduled_transfer.execution_succeeded', x.id, '2026-12-30T00:00:00.000Z'],
    ['scheduled_transfer.execution_settled', x.id, '2026-12-31T00:00:00.000Z']
  ], 'in date order, each stamped at the start of its banking day')
  const after = getTransfer(w.ctx, 'cus_maya', x.id)
  t.same(after.executions[0], {
    scheduledDate: '2026-12-23', executionDate: '2026-12-23', amount: 2500, status: 'RETURNED', settledAt: '2026-12-24T00:00:00.000Z',
    returnCode: 'R01', returnReason: 'Insufficient Funds', returnedAt: '2026-12-28T00:00:00.000Z'
  })
  t.match(after, { status: 'ACTIVE', nextRunDate: '2027-01-06' }, 'R01 leaves it running')
  t.equal(balance(w), before - 2500, 'the first payment is back; the second is still out')
  t.same(advance(w, '2027-01-04T00:00:00.000Z'), [['scheduled_transfer.execution_returned', x.id, '2027-01-04T00:00:00.000Z']], 'after New Year\'s Day and the weekend')
  t.equal(balance(w), before)
})

t.test('magic 10002: the return R02 ends the transfer (FAILED, no further runs)', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const before = balance(w)
  const x = createAchTransfer(w.ctx, 'cus_maya', ach({ accountNumber: '10002', frequency: 'DAILY', startDate: '2026-12-22', amount: 1000 }))
  const fired = advance(w, '2027-02-01T00:00:00.000Z')
  t.same(fired.map(([kind, , at]) => [kind, at]), [
    ['scheduled_transfer.execution_succeeded', '2026-12-22T00:00:00.000Z'],
    ['scheduled_transfer.execution_settled', '2026-12-23T00:00:00.000Z'],
    ['scheduled_transfer.execution_succeeded', '2026-12-23T00:00:00.000Z'],
    ['scheduled_transfer.execution_returned', '2026-12-24T00:00:00.000Z'],
    ['scheduled_transfer.execution_settled', '2026-12-24T00:00:00.000Z'],
    ['scheduled_transfer.execution_returned', '2026-12-28T00:00:00.000Z']
  ], 'the return on the 24th stops the 24th\'s run; the 23rd\'s run, already out, still settles and comes back')
  const after = getTransfer(w.ctx, 'cus_maya', x.id)
  t.match(after, { status: 'FAILED', nextRunDate: null, occurrencesCompleted: 2 })
  t.same(after.executions.map(e => [e.status, e.returnCode, e.returnReason]), [['RETURNED', 'R02', 'Account Closed'], ['RETURNED', 'R02', 'Account Closed']])
  t.equal(balance(w), before, 'both payments are back')
})

t.test('every code of the table: ends the transfer or not, as the table says; a ONCE transfer fails on any return', async t => {
  for (const code of RETURN_CODES) {
    const w = world('2026-12-21T10:00:00.000Z')
    const recurring = createAchTransfer(w.ctx, 'cus_maya', ach({ accountNumber: `100${code.slice(1)}`, frequency: 'MONTHLY', startDate: '2026-12-22' }))
    const once = createAchTransfer(w.ctx, 'cus_maya', ach({ accountNumber: `100${code.slice(1)}`, startDate: '2026-12-22' }))
    advance(w, '2026-12-29T00:00:00.000Z')
    t.equal(getTransfer(w.ctx, 'cus_maya', recurring.id).status, RETURN_CODE_TABLE[code].endsTransfer ? 'FAILED' : 'ACTIVE', `${code} on a recurring transfer`)
    t.equal(getTransfer(w.ctx, 'cus_maya', once.id).status, 'FAILED', `${code} on a ONCE transfer`)
    t.match(getTransfer(w.ctx, 'cus_maya', once.id).executions, [{ status: 'RETURNED', returnCode: code, returnReason: RETURN_CODE_TABLE[code].reason }])
  }
})

t.test('a magic number outside the table is refused; other numbers starting 100 are ordinary', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const refused = failure(() => createAchTransfer(w.ctx, 'cus_maya', ach({ accountNumber: '10005' })))
  t.same([refused.code, refused.pointers], ['unknown_return_code', ['/counterparty/accountNumber']])
  t.match(refused.message, 'R05')
  t.equal(w.ctx.state.scheduledTransfers.size, 0, 'nothing was stored')
  const ordinary = ['100011', '1001', '20001'].map(accountNumber => createAchTransfer(w.ctx, 'cus_maya', ach({ accountNumber })))
  advance(w, '2027-01-31T00:00:00.000Z')
  for (const x of ordinary) t.match(getTransfer(w.ctx, 'cus_maya', x.id).executions, [{ status: 'SETTLED' }], `…${x.counterparty?.accountNumberLast4 ?? ''} settles`)
})

t.test('an ACH DEBIT that comes back takes the money back out, even below zero', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const x = createAchTransfer(w.ctx, 'cus_jordan', ach({ fromAccountId: 'acct_jordan_checking', direction: 'DEBIT', amount: 50000, accountNumber: '10001', startDate: '2026-12-22' }))
  const before = balance(w, 'acct_jordan_checking')
  advance(w, '2026-12-22T00:00:00.000Z')
  t.equal(balance(w, 'acct_jordan_checking'), before + 50000, 'pulled in on the execution date')
  w.ctx.state.accounts.set('acct_jordan_checking', { ...w.ctx.state.accounts.get('acct_jordan_checking')!, balance: 1000 })
  advance(w, '2026-12-28T00:00:00.000Z')
  t.equal(balance(w, 'acct_jordan_checking'), 1000 - 50000, 'the bank takes it back: the account is overdrawn')
  t.match(getTransfer(w.ctx, 'cus_jordan', x.id).executions, [{ status: 'RETURNED', returnCode: 'R01' }])
})

t.test('a cancelled transfer\'s payment already sent still settles', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const x = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'MONTHLY', startDate: '2026-12-21' }))
  t.match(x.executions, [{ status: 'PENDING' }], 'due today: sent when created')
  cancelTransfer(w.ctx, 'cus_maya', x.id)
  t.same(advance(w, '2026-12-23T00:00:00.000Z'), [['scheduled_transfer.execution_settled', x.id, '2026-12-22T00:00:00.000Z']])
  t.match(getTransfer(w.ctx, 'cus_maya', x.id), { status: 'CANCELLED', executions: [{ status: 'SETTLED' }] })
})

t.test('simulated return: the latest PENDING or SETTLED execution comes back now, with the money', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const before = balance(w)
  const x = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'MONTHLY', startDate: '2026-12-21', amount: 3000 }))
  const pending = returnLatestExecution(w.ctx, x.id, 'R01')
  t.same(pending.events.map(e => [e.type, e.entityId, e.at]), [['scheduled_transfer.execution_returned', x.id, '2026-12-21T10:00:00.000Z']])
  t.same(pending.transfer.executions, [{
    scheduledDate: '2026-12-21', executionDate: '2026-12-21', amount: 3000, status: 'RETURNED', returnCode: 'R01', returnReason: 'Insufficient Funds', returnedAt: '2026-12-21T10:00:00.000Z'
  }], 'returned before it settled: no settledAt')
  t.equal(pending.transfer.status, 'ACTIVE')
  t.equal(balance(w), before)
  t.same(advance(w, '2026-12-23T00:00:00.000Z'), [], 'a returned execution never settles')

  advance(w, '2027-01-22T00:00:00.000Z')
  t.match(getTransfer(w.ctx, 'cus_maya', x.id).executions[1], { executionDate: '2027-01-21', status: 'SETTLED', settledAt: '2027-01-22T00:00:00.000Z' })
  const settled = returnLatestExecution(w.ctx, x.id, 'R02')
  t.match(settled.transfer, { status: 'FAILED', nextRunDate: null, executions: [{ returnCode: 'R01' }, { status: 'RETURNED', returnCode: 'R02', settledAt: '2027-01-22T00:00:00.000Z' }] })
  t.equal(balance(w), before)
  t.same(advance(w, '2027-06-01T00:00:00.000Z'), [], 'R02 ended it: no further runs')
})

t.test('simulated return: what cannot be returned, and why', async t => {
  const w = world('2026-12-21T10:00:00.000Z')
  const internal = createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100, frequency: 'ONCE', startDate: '2026-12-21' })
  const fresh = createAchTransfer(w.ctx, 'cus_maya', ach({ startDate: '2026-12-30' }))
  const broke = createAchTransfer(w.ctx, 'cus_sam', ach({ fromAccountId: 'acct_sam_checking', amount: 2_000_000, startDate: '2026-12-21' }))
  const unknownCode = failure(() => returnLatestExecution(w.ctx, fresh.id, 'R99'))
  t.same([unknownCode.code, unknownCode.pointers], ['unknown_return_code', ['/returnCode']])
  t.equal(failure(() => returnLatestExecution(w.ctx, 'sxfer_nope', 'R01')).code, 'transfer_not_found')
  t.equal(failure(() => returnLatestExecution(w.ctx, internal.id, 'R01')).code, 'not_an_ach_transfer')
  t.equal(failure(() => returnLatestExecution(w.ctx, fresh.id, 'R01')).code, 'nothing_to_return', 'no run yet')
  t.equal(failure(() => returnLatestExecution(w.ctx, broke.id, 'R01')).code, 'nothing_to_return', 'a FAILED run moved nothing')

  // Settled Thu Dec 31: R01 may come back until Tue Jan 5 (2 banking days: New Year's Day and the weekend closed); R10 for 60 days.
  advance(w, '2027-01-05T23:00:00.000Z')
  const late = world('2026-12-21T10:00:00.000Z')
  const x = createAchTransfer(late.ctx, 'cus_maya', ach({ startDate: '2026-12-30' }))
  advance(late, '2027-01-06T00:00:00.000Z')
  const closed = failure(() => returnLatestExecution(late.ctx, x.id, 'R01'))
  t.equal(closed.code, 'nothing_to_return')
  t.match(closed.message, 'closed on 2027-01-05')
  t.equal(returnLatestExecution(late.ctx, x.id, 'R10').transfer.executions[0]?.returnCode, 'R10', 'an unauthorized-debit claim may come later')
  const again = failure(() => returnLatestExecution(late.ctx, x.id, 'R10'))
  t.equal(again.code, 'nothing_to_return', 'a RETURNED execution is back already')
  t.equal(returnLatestExecution(w.ctx, fresh.id, 'R01').transfer.executions[0]?.status, 'RETURNED', 'within the window')
})

t.test('run now on an ACH transfer sends a PENDING execution that settles like any other', async t => {
  const w = world('2026-12-26T10:00:00.000Z') // a Saturday
  const x = createAchTransfer(w.ctx, 'cus_maya', ach({ frequency: 'MONTHLY', startDate: '2027-01-15' }))
  const { transfer } = runTransferNow(w.ctx, x.id)
  t.match(transfer.executions, [{ executionDate: '2026-12-28', status: 'PENDING' }], 'dated the next banking day')
  t.same(advance(w, '2026-12-29T00:00:00.000Z'), [['scheduled_transfer.execution_settled', x.id, '2026-12-29T00:00:00.000Z']])
})

t.test('fixture ACH executions: SETTLED once the day after has begun, PENDING before, RETURNED as written', async t => {
  const restored = restoreScheduledTransfer({
    id: 'sxfer_x', customerId: 'cus_maya', type: 'ACH', amount: 1000, fromAccountId: 'acct_maya_checking', frequency: 'WEEKLY', startDate: '2026-11-02',
    counterparty: { name: 'Gym', routingNumber: '021000021', accountNumberLast4: '0610', accountType: 'CHECKING' },
    executions: [
      { scheduledDate: '2026-11-02', status: 'RETURNED', returnCode: 'R08' },
      { scheduledDate: '2026-11-09', status: 'SUCCEEDED' },
      { scheduledDate: '2026-11-16' },
      { scheduledDate: '2026-11-23' }
    ]
  }, '2026-11-23', '2026-11-23T15:00:00.000Z')
  t.same(restored.executions.map(e => [e.executionDate, e.status, e.settledAt, e.returnCode, e.returnReason, e.returnedAt]), [
    ['2026-11-02', 'RETURNED', '2026-11-03T00:00:00.000Z', 'R08', 'Payment Stopped', '2026-11-04T00:00:00.000Z'],
    ['2026-11-09', 'SETTLED', '2026-11-10T00:00:00.000Z', undefined, undefined, undefined],
    ['2026-11-16', 'SETTLED', '2026-11-17T00:00:00.000Z', undefined, undefined, undefined],
    ['2026-11-23', 'PENDING', undefined, undefined, undefined, undefined]
  ], 'an ACH SUCCEEDED reads as the default; Nov 23\'s run settles tomorrow')
})
