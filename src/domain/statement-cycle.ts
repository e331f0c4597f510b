import { formatDate, parseDate } from './banking-calendar.js'
import type { DomainContext } from './context.js'
import type { Account, Statement, StatementCycle } from './model.js'
import { describePeriod, formatMoney } from './statement-email.js'
import type { TimelineEvent } from './timeline.js'

/**
 * Monthly statements made on the clock. Every open account has a cycle (its open period); when the
 * clock passes a month end, the period closes: a statement from periodStart to periodEnd, the
 * month's last day (both inclusive, as a bank's statement prints them), opening at the previous
 * closing balance and closing at the balance at the end of that last day. The caller
 * (ledger-due.ts) closes it before anything dated the next day moves money.
 */

/** Statements kept per account, oldest dropped first: seven years, as long as banks keep them online. */
export const STATEMENTS_KEPT = 84

const pad = (n: number, width: number): string => String(n).padStart(width, '0')

/** The first day of the month after the one `date` (YYYY-MM-DD) falls in: where its period closes. */
export function nextMonthStart (date: string): string {
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7))
  return month === 12 ? `${pad(year + 1, 4)}-01-01` : `${pad(year, 4)}-${pad(month + 1, 2)}-01`
}

export function monthStartOf (date: string): string {
  return `${date.slice(0, 7)}-01`
}

/** The day before `date`: the last day of a period that closes at `date`. */
export function dayBefore (date: string): string {
  return formatDate(parseDate(date).subtract({ days: 1 }))
}

/** The day after `date`: where the period after one ending on `date` starts. */
export function dayAfter (date: string): string {
  return formatDate(parseDate(date).add({ days: 1 }))
}

/**
 * A fixture statement's periodEnd as the mock keeps it: the period's last day. A whole calendar
 * month written with an exclusive end (periodStart 2026-10-01, periodEnd 2026-11-01, as some
 * partners' APIs and earlier versions of the mock write it) is read as ending on its last day
 * (2026-10-31); any other periodEnd is taken as the last day already.
 */
export function inclusivePeriodEnd (periodStart: string, periodEnd: string): string {
  const start = parseDate(periodStart)
  return start.day === 1 && start.add({ months: 1 }).equals(parseDate(periodEnd)) ? dayBefore(periodEnd) : periodEnd
}

/** How many month ends lie after `from` and on or before `until`: the statements a cycle makes up to then. */
export function monthEndsBetween (from: string, until: string): number {
  const index = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7))
  return Math.max(0, index(until) - index(from))
}

/** An account is open while its owner is not ARCHIVED; a closed account gets no more statements. */
export function isOpenAccount (ctx: DomainContext, account: Account): boolean {
  return ctx.state.customers.get(account.customerId)?.status !== 'ARCHIVED'
}

/** Adds a statement to the world and to its account's list, dropping the oldest beyond STATEMENTS_KEPT. */
export function keepStatement (ctx: DomainContext, cycle: StatementCycle, statement: Statement): void {
  ctx.state.statements.set(statement.id, statement)
  cycle.statementIds.push(statement.id)
  while (cycle.statementIds.length > STATEMENTS_KEPT) ctx.state.statements.delete(cycle.statementIds.shift() as string)
}

/**
 * Closes the cycle's period at `boundary` (the first day of the next month: the period ends the day
 * before) with the account's balance now, and opens the next one. A closed account's cycle moves on
 * without a statement.
 */
export function closeStatementPeriod (ctx: DomainContext, cycle: StatementCycle, boundary: string): TimelineEvent | undefined {
  const account = ctx.state.accounts.get(cycle.accountId)
  const periodStart = cycle.periodStart
  const openingBalance = cycle.openingBalance
  cycle.periodStart = boundary
  cycle.openingBalance = account?.balance ?? openingBalance
  if (account === undefined || !isOpenAccount(ctx, account)) return undefined
  const at = `${boundary}T00:00:00.000Z`
  const periodEnd = dayBefore(boundary)
  const statement: Statement = {
    id: ctx.ids.id('stmt'),
    accountId: account.id,
    customerId: account.customerId,
    periodStart,
    periodEnd,
    openingBalance,
    closingBalance: account.balance,
    currency: account.currency,
    createdAt: at
  }
  keepStatement(ctx, cycle, statement)
  return {
    type: 'statement.created',
    at,
    entityId: statement.id,
    data: { ...statement },
    detail: `${describePeriod(periodStart, periodEnd)} statement of ${account.id}: opening ${formatMoney(openingBalance, account.currency)}, closing ${formatMoney(account.balance, account.currency)}.`
  }
}
