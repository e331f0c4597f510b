import type { DomainContext } from './context.js'
import type { ScheduledTransfer, TransferExecution } from './model.js'

/** One balance change: `delta` minor units on `accountId`. */
export interface Movement {
  accountId: string
  delta: number
}

/**
 * What a run of `t` that goes through does to the customer's balances:
 * - INTERNAL moves the amount from fromAccountId to toAccountId.
 * - ACH CREDIT pushes money to the counterparty: it debits fromAccountId.
 * - ACH DEBIT pulls money from the counterparty: it credits fromAccountId.
 */
export function movementsOf (t: Pick<ScheduledTransfer, 'type' | 'direction' | 'fromAccountId' | 'toAccountId'>, amount: number): Movement[] {
  if (t.type === 'ACH') return [{ accountId: t.fromAccountId, delta: t.direction === 'DEBIT' ? amount : -amount }]
  return [{ accountId: t.fromAccountId, delta: -amount }, { accountId: t.toAccountId ?? '', delta: amount }]
}

/** Applies movements (negated with `sign` -1: a return gives the money back). Unknown accounts are skipped. */
export function applyMovements (ctx: DomainContext, movements: readonly Movement[], sign: 1 | -1 = 1): void {
  const { accounts } = ctx.state
  for (const { accountId, delta } of movements) {
    const account = accounts.get(accountId)
    if (account !== undefined) accounts.set(accountId, { ...account, balance: account.balance + sign * delta })
  }
}

/** A balance change on a date: what a recorded execution did, for working balances back in time. */
export interface DatedMovement extends Movement {
  date: string
}

/**
 * The balance changes an execution made: none when it FAILED; its run on the execution date
 * otherwise, and the money given back on the day a return arrived.
 */
export function executionMovements (t: ScheduledTransfer, execution: TransferExecution): DatedMovement[] {
  if (execution.status === 'FAILED') return []
  const run = movementsOf(t, execution.amount).map(m => ({ ...m, date: execution.executionDate }))
  if (execution.status !== 'RETURNED' || execution.returnedAt === undefined) return run
  const date = execution.returnedAt.slice(0, 10)
  return [...run, ...run.map(m => ({ accountId: m.accountId, delta: -m.delta, date }))]
}
