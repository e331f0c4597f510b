import t, { type Test } from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import type { Statement } from '../../src/domain/model.js'
import { createAchTransfer, createInternalTransfer } from '../../src/domain/scheduled-transfer.js'
import { dayAfter, inclusivePeriodEnd, monthEndsBetween, nextMonthStart, STATEMENTS_KEPT } from '../../src/domain/statement-cycle.js'
import { sendStatementByEmail } from '../../src/domain/statement.js'
import { executionMovements } from '../../src/domain/transfer-money.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { World } from '../../src/world/world.js'

const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')

function world (now: string, seed = 7): World {
  return new World(fixtures as NonNullable<typeof fixtures>, { scenario: 'default', now: new Date(now), seed, sessionId: 'test', outboxCap: 10 })
}

const statementsOf = (w: World, accountId: string): Statement[] =>
  [...w.ctx.state.statements.values()].filter(s => s.accountId === accountId).sort((a, b) => a.periodStart.localeCompare(b.periodStart))

const balance = (w: World, accountId: string): number => w.ctx.state.accounts.get(accountId)?.balance ?? Number.NaN

/** What the world's transfers record as moved on `accountId` in [from, to). */
function movedBetween (w: World, accountId: string, from: string, to: string): number {
  let total = 0
  for (const x of w.ctx.state.scheduledTransfers.values()) {
    for (const e of x.executions) for (const m of executionMovements(x, e)) if (m.accountId === accountId && m.date >= from && m.date < to) total += m.delta
  }
  return total
}

/** Every statement starts the day after the previous one ended and opens at its closing, and its balances differ by what the executions moved in the month. */
function checkChain (t: Test, w: World, accountId: string): void {
  const chain = statementsOf(w, accountId)
  chain.forEach((s, i) => {
    const previous = chain[i - 1]
    if (previous !== undefined) {
      t.equal(s.periodStart, dayAfter(previous.periodEnd), `${s.id} starts the day after ${previous.id} ended`)
      t.equal(s.openingBalance, previous.closingBalance, `${s.id} opens at ${previous.id}'s closing`)
    }
    t.equal(s.closingBalance - s.openingBalance, movedBetween(w, accountId, s.periodStart, dayAfter(s.periodEnd)), `${s.id} (${s.periodStart}) agrees with the month's executions, its last day included`)
  })
}

t.test('month arithmetic', async t => {
  t.equal(nextMonthStart('2026-11-23'), '2026-12-01')
  t.equal(nextMonthStart('2026-12-01'), '2027-01-01')
  t.equal(nextMonthStart('2027-01-31'), '2027-02-01')
  t.equal(monthEndsBetween('2026-11-01', '2026-11-30'), 0)
  t.equal(monthEndsBetween('2026-11-23', '2026-12-01'), 1)
  t.equal(monthEndsBetween('2026-11-01', '2027-06-10'), 7)
  t.equal(monthEndsBetween('2027-06-10', '2026-11-01'), 0)
  t.equal(dayAfter('2026-10-31'), '2026-11-01')
  t.equal(dayAfter('2028-02-28'), '2028-02-29')
})

t.test('a fixture\'s periodEnd is the last day; a whole month written with an exclusive end is read as that month', async t => {
  t.equal(inclusivePeriodEnd('2026-10-01', '2026-10-31'), '2026-10-31')
  t.equal(inclusivePeriodEnd('2026-10-01', '2026-11-01'), '2026-10-31', 'October, written the exclusive way')
  t.equal(inclusivePeriodEnd('2027-02-01', '2027-03-01'), '2027-02-28')
  t.equal(inclusivePeriodEnd('2026-10-02', '2026-11-01'), '2026-11-01', 'not a calendar month: taken as written')
  t.equal(inclusivePeriodEnd('2026-10-15', '2026-11-14'), '2026-11-14')
})

t.test('at start, the bundled statements get balances that agree with the accounts and the recorded transfers', async t => {
  const w = world('2026-11-23T15:00:00.000Z')
  const maya = statementsOf(w, 'acct_maya_checking')
  t.same(maya.map(s => [s.id, s.periodStart, s.periodEnd]), [
    ['stmt_maya_2026_08', '2026-08-01', '2026-08-31'], ['stmt_maya_2026_09', '2026-09-01', '2026-09-30'], ['stmt_maya_2026_10', '2026-10-01', '2026-10-31']
  ], 'nothing to continue: October is the last month that ended')
  t.equal(maya.at(-1)?.closingBalance, balance(w, 'acct_maya_checking') - movedBetween(w, 'acct_maya_checking', '2026-11-01', '2026-11-24'), 'October closes at today\'s balance less November\'s transfers')
  checkChain(t, w, 'acct_maya_checking')
  t.same(w.ctx.state.statementCycles.get('acct_maya_checking'), {
    accountId: 'acct_maya_checking', periodStart: '2026-11-01', openingBalance: maya.at(-1)?.closingBalance, statementIds: maya.map(s => s.id)
  }, 'November is open, from October\'s closing')
  t.match(w.ctx.state.statementCycles.get('acct_jordan_checking'), { periodStart: '2026-11-23', openingBalance: 2500 }, 'Jordan signed up today: his first period starts today')
  t.match(w.ctx.state.statementCycles.get('acct_maya_savings'), { periodStart: '2026-11-01', statementIds: [] }, 'no statement history: none made up')
})

t.test('at start with a later clock, each persona\'s history is continued up to the last month end, continuously', async t => {
  const w = world('2027-06-10T12:00:00.000Z')
  const maya = statementsOf(w, 'acct_maya_checking')
  t.same(maya.map(s => s.periodStart), [
    '2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01', '2027-03-01', '2027-04-01', '2027-05-01'
  ], 'through May 2027')
  t.equal(maya.at(-1)?.periodEnd, '2027-05-31')
  t.equal(maya.at(-1)?.closingBalance, balance(w, 'acct_maya_checking'), 'every recorded transfer (April and May, relative to the clock) is before June')
  t.ok(maya.slice(3).every(s => /^stmt_[A-Za-z0-9]{16}$/.test(s.id) && s.createdAt === `${dayAfter(s.periodEnd)}T00:00:00.000Z` && s.customerId === 'cus_maya' && s.currency === 'USD'),
    'continued ones: new ids, made when their month ended')
  for (const account of ['acct_maya_checking', 'acct_sam_checking', 'acct_riley_checking']) checkChain(t, w, account)
  t.equal(statementsOf(w, 'acct_riley_checking').length, 1 + 7, 'a FROZEN customer\'s account is still open')
  t.equal(statementsOf(w, 'acct_maya_savings').length, 0)
})

t.test('on the clock: each month end closes every open account\'s period, after that month\'s runs and returns and before the next', async t => {
  const w = world('2026-11-23T15:00:00.000Z')
  w.ctx.state.scheduledTransfers.clear()
  createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 10000, frequency: 'MONTHLY', startDate: '2026-11-30' })
  createInternalTransfer(w.ctx, 'cus_maya', { fromAccountId: 'acct_maya_savings', toAccountId: 'acct_maya_checking', amount: 700, frequency: 'MONTHLY', startDate: '2026-12-01' })
  // Sent Nov 30, settled Dec 1, back (R01) on Dec 2: out in November's statement, back in December's.
  createAchTransfer(w.ctx, 'cus_maya', {
    fromAccountId: 'acct_maya_checking', amount: 2500, frequency: 'ONCE', startDate: '2026-11-30',
    counterparty: { name: 'Gym', routingNumber: '021000021', accountNumber: '10001', accountType: 'CHECKING' }
  })
  const opening = w.ctx.state.statementCycles.get('acct_maya_checking')?.openingBalance ?? Number.NaN
  const before = balance(w, 'acct_maya_checking')
  const fired = w.advanceTo(new Date('2027-01-15T00:00:00.000Z'))
  const created = fired.filter(e => e.type === 'statement.created')
  t.equal(created.length, 2 * w.ctx.state.statementCycles.size, 'two month ends, every open account')
  t.ok(created.every(e => e.at === '2026-12-01T00:00:00.000Z' || e.at === '2027-01-01T00:00:00.000Z'), 'stamped at the month end')
  const dec1 = fired.filter(e => e.at === '2026-12-01T00:00:00.000Z' && !e.type.startsWith('card.')).map(e => e.type)
  t.same([...new Set(dec1)], ['statement.created', 'scheduled_transfer.execution_settled', 'scheduled_transfer.execution_succeeded'], 'on Dec 1: the statements, then the settlement, then the day\'s run')

  const [november, december] = statementsOf(w, 'acct_maya_checking').slice(-2)
  t.match(november, { periodStart: '2026-11-01', periodEnd: '2026-11-30', openingBalance: opening, closingBalance: before - 10000 - 2500, customerId: 'cus_maya' })
  t.match(december, { periodStart: '2026-12-01', periodEnd: '2026-12-31', openingBalance: before - 12500, closingBalance: before - 12500 + 700 + 2500 - 10000 }, 'the return is in December, with the month\'s runs')
  t.match(created.find(e => e.entityId === november?.id)?.detail, 'November 2026 statement of acct_maya_checking')
  t.equal(sendStatementByEmail(w.ctx, 'cus_maya', november?.id ?? '').status, 'QUEUED', 'a new statement can be e-mailed')
  t.match(w.outbox.list()[0], { subject: 'Your November 2026 statement is ready' })
  const jordan = statementsOf(w, 'acct_jordan_checking')[0]
  t.match(jordan, { periodStart: '2026-11-23', periodEnd: '2026-11-30', openingBalance: 2500, closingBalance: 2500 }, 'the first period of a new account starts when it was opened')
})

t.test('statement ids are deterministic under a seed', async t => {
  const ids = (seed: number): string[] => {
    const w = world('2027-03-10T12:00:00.000Z', seed)
    w.advanceTo(new Date('2027-05-02T00:00:00.000Z'))
    return [...w.ctx.state.statements.keys()]
  }
  t.same(ids(42), ids(42))
  t.not(ids(42).at(-1), ids(43).at(-1), 'another seed, other ids')
})

t.test('an archived customer\'s accounts are closed: no statements', async t => {
  const w = world('2026-11-23T15:00:00.000Z')
  const sam = w.ctx.state.customers.get('cus_sam')
  if (sam === undefined) throw new Error('no Sam')
  w.ctx.state.customers.set('cus_sam', { ...sam, status: 'ARCHIVED' })
  const fired = w.advanceTo(new Date('2026-12-02T00:00:00.000Z'))
  const accounts = fired.filter(e => e.type === 'statement.created').map(e => w.ctx.state.statements.get(e.entityId)?.accountId)
  t.notOk(accounts.includes('acct_sam_checking'))
  t.ok(accounts.includes('acct_maya_checking'))
})

t.test('an account keeps its latest statements; the oldest go', async t => {
  const w = world('2026-11-23T15:00:00.000Z')
  w.ctx.state.scheduledTransfers.clear()
  w.advanceTo(new Date('2031-11-01T00:00:00.000Z'))
  w.advanceTo(new Date('2034-01-01T00:00:00.000Z'))
  const maya = statementsOf(w, 'acct_maya_checking')
  t.equal(maya.length, STATEMENTS_KEPT)
  t.equal(maya.at(-1)?.periodStart, '2033-12-01')
  t.notOk(w.ctx.state.statements.has('stmt_maya_2026_08'), 'the bundled ones were the oldest')
  t.same(w.ctx.state.statementCycles.get('acct_maya_checking')?.statementIds, maya.map(s => s.id))
})

t.test('a clock years ahead makes only the statements an account keeps', async t => {
  const w = world('2040-03-15T12:00:00.000Z')
  const maya = statementsOf(w, 'acct_maya_checking')
  t.equal(maya.length, STATEMENTS_KEPT)
  t.same([maya[0]?.periodStart, maya.at(-1)?.periodEnd], ['2033-03-01', '2040-02-29'], 'seven years: March 2033 to February 2040')
  checkChain(t, w, 'acct_maya_checking')
})
