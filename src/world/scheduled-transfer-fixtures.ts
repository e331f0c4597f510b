import type { Static } from 'typebox'
import { nextBankingDay } from '../domain/banking-calendar.js'
import { magicReturnDateOf, settlementDateOf } from '../domain/ach-lifecycle.js'
import { returnReason } from '../domain/ach-return-codes.js'
import type { ScheduledTransfer, TransferExecution } from '../domain/model.js'
import { EXECUTIONS_KEPT } from '../domain/transfer-execution.js'
import { resumeRun } from '../domain/transfer-runs.js'
import type { FixtureScheduledTransfer } from '../fixtures/schemas.js'

export type TransferFixture = Static<typeof FixtureScheduledTransfer>

/**
 * A scheduled transfer from a fixture (relative dates already resolved): fills the derived
 * fields. occurrencesCompleted is the number of executions listed, of which the last
 * EXECUTIONS_KEPT are kept, as for runs made on the clock. An ACTIVE transfer resumes
 * after its last execution, not before `today`; one with no run left becomes COMPLETED.
 */
export function restoreScheduledTransfer (fixture: TransferFixture, today: string, now: string): ScheduledTransfer {
  if (fixture.type === 'INTERNAL' && fixture.toAccountId === undefined) throw new Error(`Scheduled transfer ${fixture.id}: an INTERNAL transfer needs toAccountId.`)
  if (fixture.type === 'ACH' && fixture.counterparty === undefined) throw new Error(`Scheduled transfer ${fixture.id}: an ACH transfer needs counterparty.`)
  const { executions: recorded = [], status = 'ACTIVE', ...rest } = fixture
  const executions = recorded.map((e, i): TransferExecution => restoreExecution(fixture, e, i, today))
  const transfer: ScheduledTransfer = {
    currency: 'USD',
    ...(fixture.type === 'ACH' ? { direction: 'CREDIT' as const, secCode: 'PPD' as const } : {}),
    createdAt: now,
    updatedAt: now,
    ...rest,
    executions: executions.slice(-EXECUTIONS_KEPT),
    occurrencesCompleted: executions.length,
    status,
    nextIndex: 0,
    nextRunDate: null
  }
  if (status !== 'ACTIVE') return transfer
  const run = resumeRun(transfer, today)
  if (run === null) return { ...transfer, status: 'COMPLETED' }
  return { ...transfer, nextIndex: run.index, nextRunDate: run.executionDate }
}

type ExecutionFixture = NonNullable<TransferFixture['executions']>[number]

/**
 * An execution as recorded: an ACH one that went through is SETTLED once the banking day after its
 * execution date has begun (PENDING before), with its settlement and return instants filled in.
 */
function restoreExecution (fixture: TransferFixture, e: ExecutionFixture, index: number, today: string): TransferExecution {
  // The loader checks these rules with the file and pointer (checkReferences); a fixture set made
  // in code reaches here unchecked, so they are enforced again.
  const where = `Scheduled transfer ${fixture.id}, execution ${index}`
  const executionDate = e.executionDate ?? (fixture.type === 'ACH' ? nextBankingDay(e.scheduledDate) : e.scheduledDate)
  const execution: TransferExecution = { scheduledDate: e.scheduledDate, executionDate, amount: e.amount ?? fixture.amount, status: e.status ?? 'SUCCEEDED' }
  if (e.failureReason !== undefined) execution.failureReason = e.failureReason
  if (e.returnCode !== undefined && e.status !== 'RETURNED') throw new Error(`${where}: returnCode goes with status RETURNED only.`)
  if (fixture.type === 'INTERNAL') {
    if (execution.status !== 'SUCCEEDED' && execution.status !== 'FAILED') throw new Error(`${where}: an INTERNAL execution is SUCCEEDED or FAILED, not ${execution.status}.`)
    return execution
  }
  if (execution.status === 'FAILED') return execution
  const settlementDate = settlementDateOf(execution)
  if (execution.status === 'SUCCEEDED') execution.status = settlementDate <= today ? 'SETTLED' : 'PENDING'
  if (execution.status === 'PENDING') return execution
  execution.settledAt = `${settlementDate}T00:00:00.000Z`
  if (execution.status !== 'RETURNED') return execution
  if (e.returnCode === undefined) throw new Error(`${where}: a RETURNED execution needs its returnCode.`)
  execution.returnCode = e.returnCode
  execution.returnReason = returnReason(e.returnCode)
  execution.returnedAt = e.returnedAt ?? `${magicReturnDateOf(execution.settledAt)}T00:00:00.000Z`
  return execution
}
