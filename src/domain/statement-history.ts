import { today, type DomainContext } from './context.js'
import type { Statement, StatementCycle } from './model.js'
import { dayAfter, dayBefore, isOpenAccount, keepStatement, monthEndsBetween, monthStartOf, nextMonthStart, STATEMENTS_KEPT } from './statement-cycle.js'
import { executionMovements, type DatedMovement } from './transfer-money.js'

/**
 * A world's statements when it starts: the fixtures' ones, continued month by month up to the last
 * month end before the clock, and an open period (cycle) per open account for the clock to close.
 *
 * Balances in the past are worked back from the account's balance now (the fixtures give it
 * after the recorded executions) through the executions the transfers record: the balance at the
 * start of a day is today's minus what moved on or after it. So statements, executions and
 * balances agree whatever `--now` is, and each statement opens at the previous closing.
 * - A fixture statement without a balance gets it this way; one given is kept as written (the
 *   month after the last statement opens at its closing, and closes at the worked-back balance).
 * - An account with no statement in the fixtures gets none for the past: its history is unknown
 *   (a customer who signed up minutes ago has none). Its first period starts this month, or on
 *   the day its owner was created if that is later.
 */
/** Which balances of a fixture statement were left out. */
export interface BalancesToDerive { opening: boolean; closing: boolean }

export function beginStatementHistory (ctx: DomainContext, derive: ReadonlyMap<string, BalancesToDerive>): void {
  const { state } = ctx
  const movedSince = ledgerOf(ctx)
  const balanceAtStartOf = (accountId: string, day: string): number => {
    let balance = state.accounts.get(accountId)?.balance ?? 0
    for (const m of movedSince.get(accountId) ?? []) if (m.date >= day) balance -= m.delta
    return balance
  }

  const byAccount = new Map<string, Statement[]>()
  for (const statement of state.statements.values()) {
    const missing = derive.get(statement.id)
    if (missing?.opening === true) statement.openingBalance = balanceAtStartOf(statement.accountId, statement.periodStart)
    if (missing?.closing === true) statement.closingBalance = balanceAtStartOf(statement.accountId, dayAfter(statement.periodEnd))
    const list = byAccount.get(statement.accountId) ?? []
    list.push(statement)
    byAccount.set(statement.accountId, list)
  }

  const thisMonth = monthStartOf(today(ctx))
  for (const account of state.accounts.values()) {
    const known = (byAccount.get(account.id) ?? []).sort((a, b) => (a.periodEnd < b.periodEnd ? -1 : a.periodEnd > b.periodEnd ? 1 : 0))
    const last = known.at(-1)
    const created = state.customers.get(account.customerId)?.createdAt.slice(0, 10) ?? thisMonth
    const periodStart = last === undefined ? (created > thisMonth && created <= today(ctx) ? created : thisMonth) : dayAfter(last.periodEnd)
    const cycle: StatementCycle = {
      accountId: account.id,
      periodStart,
      openingBalance: last?.closingBalance ?? balanceAtStartOf(account.id, periodStart),
      statementIds: known.map(s => s.id)
    }
    if (!isOpenAccount(ctx, account)) continue
    state.statementCycles.set(account.id, cycle)
    if (last === undefined) continue
    // Only the statements an account keeps are made: a clock years ahead skips to them.
    for (let skip = monthEndsBetween(cycle.periodStart, thisMonth) - STATEMENTS_KEPT; skip > 0; skip--) cycle.periodStart = nextMonthStart(cycle.periodStart)
    if (cycle.periodStart !== periodStart) cycle.openingBalance = balanceAtStartOf(account.id, cycle.periodStart)
    for (let boundary = nextMonthStart(cycle.periodStart); boundary <= thisMonth; boundary = nextMonthStart(boundary)) {
      const closingBalance = balanceAtStartOf(account.id, boundary)
      keepStatement(ctx, cycle, {
        id: ctx.ids.id('stmt'),
        accountId: account.id,
        customerId: account.customerId,
        periodStart: cycle.periodStart,
        periodEnd: dayBefore(boundary),
        openingBalance: cycle.openingBalance,
        closingBalance,
        currency: account.currency,
        createdAt: `${boundary}T00:00:00.000Z`
      })
      cycle.periodStart = boundary
      cycle.openingBalance = closingBalance
    }
  }
}

/** Every recorded balance change per account. */
function ledgerOf (ctx: DomainContext): Map<string, DatedMovement[]> {
  const ledger = new Map<string, DatedMovement[]>()
  for (const t of ctx.state.scheduledTransfers.values()) {
    for (const execution of t.executions) {
      for (const m of executionMovements(t, execution)) {
        const list = ledger.get(m.accountId) ?? []
        list.push(m)
        ledger.set(m.accountId, list)
      }
    }
  }
  return ledger
}
