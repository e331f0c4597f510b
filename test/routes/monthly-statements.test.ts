import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'

// TEST_NOW is Monday 2026-11-23; the bundled statements end with October 2026.
const maya = { token: TOKENS.maya }

interface Statement { id: string; accountId: string; customerId: string; periodStart: string; periodEnd: string; openingBalance: number; closingBalance: number; createdAt: string }
interface Execution { executionDate: string; amount: number; status: string; returnedAt?: string }
interface Transfer { type: string; direction?: string; fromAccountId: string; toAccountId?: string; executions: Execution[] }
interface State { statements: Statement[]; accounts: { id: string; balance: number }[]; scheduledTransfers: Transfer[] }

async function state (call: TestApp['call']): Promise<State> {
  return (await call('GET', '/__mock/state')).body as State
}

async function advance (call: TestApp['call'], body: { to?: string; by?: string }): Promise<{ kind: string; entityId: string; at: string }[]> {
  const res = await call('POST', '/__mock/clock/advance', { body })
  if (res.status !== 200) throw new Error(`advance answered ${res.status}: ${res.text}`)
  return res.body.fired
}

const chainOf = (s: State, accountId: string): Statement[] =>
  s.statements.filter(x => x.accountId === accountId).sort((a, b) => a.periodStart.localeCompare(b.periodStart))

/** What the transfers in the state moved on `accountId` in [from, to): runs that went out, and returns back. */
function moved (s: State, accountId: string, from: string, to: string): number {
  let total = 0
  const within = (date: string): boolean => date >= from && date < to
  for (const x of s.scheduledTransfers) {
    for (const e of x.executions) {
      if (e.status === 'FAILED') continue
      const deltas: [string | undefined, number][] = x.type === 'INTERNAL'
        ? [[x.fromAccountId, -e.amount], [x.toAccountId, e.amount]]
        : [[x.fromAccountId, x.direction === 'DEBIT' ? e.amount : -e.amount]]
      for (const [account, delta] of deltas) {
        if (account !== accountId) continue
        if (within(e.executionDate)) total += delta
        if (e.status === 'RETURNED' && e.returnedAt !== undefined && within(e.returnedAt.slice(0, 10))) total -= delta
      }
    }
  }
  return total
}

/** The calendar day after `date` (YYYY-MM-DD). */
const dayAfter = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

/**
 * Continuous (each starts the day after the previous one's last day, and opens at its closing) and
 * consistent with the executions from its first day to its last, returns included.
 */
function checkChain (t: Test, s: State, accountId: string): void {
  chainOf(s, accountId).forEach((x, i, chain) => {
    const previous = chain[i - 1]
    if (previous !== undefined) t.same([x.periodStart, x.openingBalance], [dayAfter(previous.periodEnd), previous.closingBalance], `${accountId} ${x.periodStart} opens where the last closed`)
    t.equal(x.closingBalance - x.openingBalance, moved(s, accountId, x.periodStart, dayAfter(x.periodEnd)), `${accountId} ${x.periodStart} agrees with its executions`)
  })
}

t.test('passing a month end makes every open account\'s statement, closing at the balance at the end of the last day', async t => {
  const { call } = await buildTestApp(t)
  const before = await state(call)
  t.notOk(before.statements.some(s => s.periodStart >= '2026-11-01'), 'November is not over yet')
  await advance(call, { to: '2026-11-30T23:59:59Z' })
  const lastDay = await state(call)
  const fired = await advance(call, { to: '2026-12-01T00:00:00Z' })
  const created = fired.filter(e => e.kind === 'statement.created')
  t.equal(created.length, before.accounts.length, 'one per open account')
  t.ok(created.every(e => e.at === '2026-12-01T00:00:00.000Z'), 'stamped at the instant the month ended')
  t.ok(fired.findIndex(e => e.kind === 'statement.created') < fired.findIndex(e => e.kind === 'scheduled_transfer.execution_succeeded'), 'before December 1st\'s rent runs')

  const after = await state(call)
  for (const account of lastDay.accounts) {
    const november = after.statements.find(s => s.accountId === account.id && s.periodStart >= '2026-11-01')
    t.match(november, { periodEnd: '2026-11-30', closingBalance: account.balance, createdAt: '2026-12-01T00:00:00.000Z' }, `${account.id}: the balance at the end of Nov 30, not after Dec 1's runs`)
  }
  t.match(chainOf(after, 'acct_maya_checking').at(-1), { periodStart: '2026-11-01', customerId: 'cus_maya' })
  t.match(chainOf(after, 'acct_jordan_checking'), [{ periodStart: '2026-11-23', periodEnd: '2026-11-30', openingBalance: 2500, closingBalance: 2500 }], 'Jordan opened his account today')
  checkChain(t, after, 'acct_maya_checking')
  checkChain(t, after, 'acct_maya_savings')

  const id = created.find(e => after.statements.find(s => s.id === e.entityId)?.accountId === 'acct_maya_checking')?.entityId ?? ''
  const sent = await call('POST', `/baas/statements/${id}/send-by-email`, maya)
  t.same([sent.status, sent.body.statementId], [202, id], 'the new statement can be e-mailed')
  const mail = (await call('GET', '/__mock/outbox')).body.data[0]
  t.match(mail, { subject: 'Your November 2026 statement is ready', data: { statementId: id, periodStart: '2026-11-01', periodEnd: '2026-11-30' } })
  t.match(mail.body, 'Statement period: November 1, 2026 – November 30, 2026', 'the first and last day, as the statement has them')
  t.equal((await call('POST', `/baas/statements/${id}/send-by-email`, { token: TOKENS.sam })).status, 404, 'and it is Maya\'s only')
})

t.test('several months of transfers and a returned payment: statements stay continuous and agree with the executions', async t => {
  const { call } = await buildTestApp(t)
  const created = await call('POST', '/baas/scheduled-transfers/ach', {
    ...maya,
    body: {
      fromAccountId: 'acct_maya_checking', amount: 4200, frequency: 'MONTHLY', startDate: '2026-11-30',
      counterparty: { name: 'Gym', routingNumber: '021000021', accountNumber: '10001', accountType: 'CHECKING' }
    }
  })
  t.equal(created.status, 201)
  await call('POST', '/baas/scheduled-transfers/internal', { ...maya, body: { fromAccountId: 'acct_maya_savings', toAccountId: 'acct_maya_checking', amount: 3000, frequency: 'WEEKLY', startDate: '2026-11-27' } })
  await advance(call, { by: 'P4M' })
  const s = await state(call)
  t.equal(chainOf(s, 'acct_maya_checking').filter(x => x.periodStart >= '2026-11-01').length, 4, 'November to February')
  t.ok(s.scheduledTransfers.some(x => x.executions.some(e => e.status === 'RETURNED' && e.returnedAt?.startsWith('2026-12'))), 'a payment sent in November came back in December')
  for (const account of ['acct_maya_checking', 'acct_maya_savings', 'acct_sam_checking', 'acct_jordan_checking', 'acct_riley_checking']) checkChain(t, s, account)
})

t.test('at start with a later clock, statements run through the last month end with continuous balances', async t => {
  const { call } = await buildTestApp(t, { now: new Date('2027-06-10T12:00:00.000Z') })
  const s = await state(call)
  const chain = chainOf(s, 'acct_maya_checking')
  t.same([chain.at(-1)?.periodStart, chain.at(-1)?.periodEnd], ['2027-05-01', '2027-05-31'], 'through May 2027')
  t.equal(chain.length, 10, 'August 2026 (the bundled ones) to May 2027')
  t.equal(chain.at(-1)?.closingBalance, s.accounts.find(a => a.id === 'acct_maya_checking')?.balance, 'May closes at today\'s balance: no transfer ran in June yet')
  for (const account of ['acct_maya_checking', 'acct_sam_checking', 'acct_riley_checking']) checkChain(t, s, account)
  const sent = await call('POST', `/baas/statements/${chain.at(-1)?.id ?? ''}/send-by-email`, maya)
  t.equal(sent.status, 202, 'a continued statement can be e-mailed')
})

t.test('the same seed makes the same statements, ids included', async t => {
  const run = async (seed: number): Promise<string> => {
    const { call } = await buildTestApp(t, { seed, now: new Date('2027-03-10T12:00:00.000Z') })
    await advance(call, { by: 'P2M' })
    return JSON.stringify((await state(call)).statements)
  }
  const first = await run(42)
  t.equal(await run(42), first)
  t.not(await run(43), first, 'another seed, other ids')
})

t.test('a team\'s fixtures may end a whole month the exclusive way (the 1st of the next): it is read as that month', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-statements-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  const file = join(dir, 'statements.yaml')
  const exclusive = readFileSync(file, 'utf8').replace('periodEnd: "2026-08-31"', 'periodEnd: "2026-09-01"').replace(/periodEnd: "2026-10-31"/g, 'periodEnd: "2026-11-01"')
  writeFileSync(file, exclusive)
  const { call } = await buildTestApp(t, { fixturesDir: dir })
  const bundled = await buildTestApp(t)
  const chain = chainOf(await state(call), 'acct_maya_checking')
  t.same(chain.map(x => [x.periodStart, x.periodEnd]), [['2026-08-01', '2026-08-31'], ['2026-09-01', '2026-09-30'], ['2026-10-01', '2026-10-31']], 'as the bundled ones')
  t.same(chain, chainOf(await state(bundled.call), 'acct_maya_checking'), 'the same statements, balances and createdAt included')
  await advance(call, { to: '2026-12-01T00:00:00Z' })
  const after = await state(call)
  t.match(chainOf(after, 'acct_maya_checking').at(-1), { periodStart: '2026-11-01', periodEnd: '2026-11-30' }, 'November follows October')
  checkChain(t, after, 'acct_maya_checking')
})
