import { formatDate, nextBankingDay, parseDate } from './banking-calendar.js'
import { nowIso, today, type DomainContext } from './context.js'
import { DomainError } from './errors.js'
import { previousAttributes, updateEvent, withUpdatedAt } from './events.js'
import type { ScheduledTransfer, TransferExecution } from './model.js'
import { describeMove } from './transfer-describe.js'
import { applyMovements, movementsOf } from './transfer-money.js'
import type { Occurrence } from './schedule.js'
import type { TimelineEvent } from './timeline.js'
import { nextRun, runsUntil } from './transfer-runs.js'

/**
 * Running scheduled transfers: money moves (transfer-money.ts), execution records, status changes.
 * - An ACH run that went out is PENDING; it settles or comes back later (ach-lifecycle.ts).
 * - A debit larger than the balance fails the run (INSUFFICIENT_FUNDS) and moves nothing.
 * - Every run, failed or not, uses up its occurrence: occurrencesCompleted counts runs made, so
 *   numberOfOccurrences - occurrencesCompleted is always the runs left. Failed runs are not retried.
 * - A failed run keeps a recurring transfer ACTIVE; a failed ONCE transfer becomes FAILED.
 *   After its last run a transfer is COMPLETED.
 */
/**
 * Executions a transfer keeps: the latest ones, oldest first. occurrencesCompleted counts every run
 * made, so a DAILY transfer left running for years stays a few KiB.
 */
export const EXECUTIONS_KEPT = 100

export const INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS'
export const ACCOUNT_NOT_FOUND = 'ACCOUNT_NOT_FOUND'

/** Moves the money, or says why it cannot; balances change only on success. */
function moveMoney (ctx: DomainContext, t: ScheduledTransfer): string | undefined {
  const movements = movementsOf(t, t.amount)
  for (const { accountId, delta } of movements) {
    const account = ctx.state.accounts.get(accountId)
    if (account === undefined) return ACCOUNT_NOT_FOUND
    if (delta < 0 && account.balance < -delta) return INSUFFICIENT_FUNDS
  }
  applyMovements(ctx, movements)
  return undefined
}

/**
 * Applies one run dated `executionDate` at instant `at` and advances the schedule. Mutates `t`.
 * `following`, when the caller already made it, is the run after this one (saves the date math,
 * most of a run's cost).
 */
export function executeRun (ctx: DomainContext, t: ScheduledTransfer, run: Occurrence, executionDate: string, at: string, following?: Occurrence): TimelineEvent[] {
  const before = { status: t.status, nextRunDate: t.nextRunDate, occurrencesCompleted: t.occurrencesCompleted, updatedAt: t.updatedAt }
  const forced = t.failNextWith
  delete t.failNextWith
  const failure = forced ?? moveMoney(ctx, t)
  // An ACH entry that went out is PENDING until it settles (ach-lifecycle.ts); an internal move is final at once.
  const status = failure !== undefined ? 'FAILED' : t.type === 'ACH' ? 'PENDING' : 'SUCCEEDED'
  const execution: TransferExecution = { scheduledDate: run.scheduledDate, executionDate, amount: t.amount, status }
  if (failure !== undefined) execution.failureReason = failure
  t.executions.push(execution)
  if (t.executions.length > EXECUTIONS_KEPT) t.executions.splice(0, t.executions.length - EXECUTIONS_KEPT)
  t.occurrencesCompleted += 1
  const next = following ?? nextRun(t, run.index + 1)
  t.nextIndex = next?.index ?? run.index + 1
  t.nextRunDate = next?.executionDate ?? null
  t.updatedAt = at

  if (next === null) t.status = t.frequency === 'ONCE' && failure !== undefined ? 'FAILED' : 'COMPLETED'
  // A copy: the transfer goes on changing (later runs, later in the same advance) after the event.
  const data = transferSnapshot(t)
  const previous = previousAttributes(before, data, ['status', 'nextRunDate', 'occurrencesCompleted'])
  const events: TimelineEvent[] = [failure === undefined
    ? updateEvent('scheduled_transfer.execution_succeeded', at, t.id, data, previous, `${status === 'PENDING' ? 'Sent' : 'Transferred'} ${describeMove(t)} (run ${t.occurrencesCompleted}, scheduled ${run.scheduledDate})${status === 'PENDING' ? '; PENDING until it settles' : ''}.`)
    : updateEvent('scheduled_transfer.execution_failed', at, t.id, data, previous, `Run ${t.occurrencesCompleted} of ${describeMove(t)} failed: ${failure}.`)]
  if (t.status === 'COMPLETED') {
    events.push({ type: 'scheduled_transfer.completed', at, entityId: t.id, data, previousAttributes: withUpdatedAt(before, data, { status: 'ACTIVE' }), detail: `All ${t.occurrencesCompleted} run(s) made; the schedule is over.` })
  }
  return events
}

/** The transfer as it stands, apart from later changes to it (an execution is never changed once made: a change replaces it). */
export function transferSnapshot (t: ScheduledTransfer): ScheduledTransfer {
  return { ...t, executions: t.executions.slice() }
}

/** Runs whatever of `t` is due by today, now (a transfer created or re-anchored for today). */
export function settleTransfer (ctx: DomainContext, t: ScheduledTransfer): TimelineEvent[] {
  const at = nowIso(ctx)
  const events: TimelineEvent[] = []
  const runs = runsUntil(t, t.nextIndex, today(ctx))
  for (const [i, run] of runs.entries()) {
    if (t.status !== 'ACTIVE') break
    events.push(...executeRun(ctx, t, run, run.executionDate, at, runs[i + 1]))
  }
  return events
}

function activeTransfer (ctx: DomainContext, transferId: string): ScheduledTransfer {
  const t = ctx.state.scheduledTransfers.get(transferId)
  if (t === undefined) throw new DomainError('transfer_not_found', `Scheduled transfer ${transferId} does not exist.`)
  if (t.status !== 'ACTIVE') {
    throw new DomainError('invalid_transfer_state', `Scheduled transfer ${transferId} is ${t.status}; only an ACTIVE transfer runs.`, { extensions: { transferStatus: t.status } })
  }
  return t
}

/** Simulation: runs the next occurrence now, dated today, instead of on its own date. */
export function runTransferNow (ctx: DomainContext, transferId: string): { transfer: ScheduledTransfer; events: TimelineEvent[] } {
  const t = activeTransfer(ctx, transferId)
  const run = nextRun(t, t.nextIndex)
  if (run === null) throw new DomainError('invalid_transfer_state', `Scheduled transfer ${transferId} has no run left.`, { extensions: { transferStatus: t.status } })
  const events = executeRun(ctx, t, run, runNowDate(t, today(ctx)), nowIso(ctx))
  for (const event of events) ctx.events.emit(event)
  return { transfer: t, events }
}

/**
 * The date a run made now carries: today. An ACH entry settles on a banking day, one run per day,
 * so it takes the first banking day from today after its last run: ACH execution dates stay
 * banking days and strictly increasing, as the schedule makes them.
 */
function runNowDate (t: ScheduledTransfer, today: string): string {
  if (t.type !== 'ACH') return today
  const last = t.executions.at(-1)?.executionDate
  const earliest = last === undefined || last < today ? today : formatDate(parseDate(last).add({ days: 1 }))
  return nextBankingDay(earliest)
}

/** Simulation: the next run of the transfer fails with `reason` (moving no money). */
export function failNextExecution (ctx: DomainContext, transferId: string, reason: string): ScheduledTransfer {
  const t = activeTransfer(ctx, transferId)
  t.failNextWith = reason
  return t
}
