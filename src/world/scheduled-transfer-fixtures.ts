import type { Static } from 'typebox'
import { nextBankingDay } from '../domain/banking-calendar.js'
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
  const executions = recorded.map((e): TransferExecution => ({
    scheduledDate: e.scheduledDate,
    executionDate: e.executionDate ?? (fixture.type === 'ACH' ? nextBankingDay(e.scheduledDate) : e.scheduledDate),
    amount: e.amount ?? fixture.amount,
    status: e.status ?? 'SUCCEEDED',
    ...(e.failureReason === undefined ? {} : { failureReason: e.failureReason })
  }))
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
