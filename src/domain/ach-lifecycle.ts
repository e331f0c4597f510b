import { addBankingDays, bankingDayAfter, formatDate, parseDate } from './banking-calendar.js'
import { nowIso, today, type DomainContext } from './context.js'
import { DomainError } from './errors.js'
import { previousAttributes, updateEvent } from './events.js'
import {
  EXTENDED_RETURN_WINDOW_DAYS, isReturnCode, RETURN_CODE_TABLE, RETURN_CODES, RETURN_WINDOW_BANKING_DAYS, returnReason, type ReturnCode
} from './ach-return-codes.js'
import type { ScheduledTransfer, TransferExecution } from './model.js'
import type { TimelineEvent } from './timeline.js'
import { applyMovements, movementsOf } from './transfer-money.js'
import { describeMove } from './transfer-describe.js'
import { transferSnapshot } from './transfer-execution.js'

/**
 * What happens to an ACH execution after its run: PENDING on its execution date (the money has
 * moved), SETTLED at the start of the next Fed banking day, or RETURNED by the receiving bank,
 * which gives the money back. A transfer to a magic account number (100NN) has each execution
 * come back with RNN at the start of the banking day after it settled.
 */

/** The banking day an execution settles: the one after its execution date. */
export function settlementDateOf (execution: Pick<TransferExecution, 'executionDate'>): string {
  return bankingDayAfter(execution.executionDate)
}

/** The banking day a magic (100NN) return arrives: the one after settlement, within the return window. */
export function magicReturnDateOf (settledAt: string): string {
  return bankingDayAfter(settledAt.slice(0, 10))
}

/** The last day a SETTLED execution may still come back with `code`. */
export function returnDeadline (code: ReturnCode, settledAt: string): string {
  const settled = settledAt.slice(0, 10)
  return RETURN_CODE_TABLE[code].extendedWindow
    ? formatDate(parseDate(settled).add({ days: EXTENDED_RETURN_WINDOW_DAYS }))
    : addBankingDays(settled, RETURN_WINDOW_BANKING_DAYS)
}

export interface AchTransition {
  /** The day it falls due; it happens at the start of it. */
  date: string
  kind: 'settle' | 'return'
  execution: TransferExecution
}

/**
 * What is still to happen to the executions of an ACH transfer, whatever its status (a cancelled
 * transfer's last payment still settles). Scans from the newest run: a settled execution with no
 * return to come means everything older is final too (ACH execution dates strictly increase).
 */
export function pendingTransitions (t: ScheduledTransfer): AchTransition[] {
  if (t.type !== 'ACH') return []
  const due: AchTransition[] = []
  for (let i = t.executions.length - 1; i >= 0; i--) {
    const execution = t.executions[i] as TransferExecution
    const next = nextTransition(t, execution)
    if (next !== undefined) due.push(next)
    else if (execution.status === 'SETTLED') break
  }
  return due.reverse()
}

export function nextTransition (t: ScheduledTransfer, execution: TransferExecution): AchTransition | undefined {
  if (execution.status === 'PENDING') return { date: settlementDateOf(execution), kind: 'settle', execution }
  if (execution.status === 'SETTLED' && t.magicReturnCode !== undefined && execution.settledAt !== undefined) {
    return { date: magicReturnDateOf(execution.settledAt), kind: 'return', execution }
  }
  return undefined
}

function describeRun (t: ScheduledTransfer, execution: TransferExecution): string {
  return `ACH ${describeMove(t, execution.amount)}, executed ${execution.executionDate}`
}

/**
 * Puts `changed` in the place of `execution`. An execution is never changed in place: the events
 * made earlier share it (transferSnapshot) and are presented when first read.
 */
function replaceExecution (t: ScheduledTransfer, execution: TransferExecution, changed: TransferExecution): TransferExecution {
  const index = t.executions.lastIndexOf(execution)
  if (index !== -1) t.executions[index] = changed
  return changed
}

/** PENDING → SETTLED at `at`: the settled execution, and its event. Mutates the transfer. */
export function settleExecution (t: ScheduledTransfer, execution: TransferExecution, at: string): { settled: TransferExecution; event: TimelineEvent } {
  const settled = replaceExecution(t, execution, { ...execution, status: 'SETTLED', settledAt: at })
  t.updatedAt = at
  const event: TimelineEvent = { type: 'scheduled_transfer.execution_settled', at, entityId: t.id, data: transferSnapshot(t), detail: `Settled: ${describeRun(t, settled)}.` }
  return { settled, event }
}

/**
 * The receiving bank returns the execution: the money goes back, and a code that ends the
 * transfer (or any return of a ONCE transfer's only payment) makes an ACTIVE or COMPLETED
 * transfer FAILED with no further runs. A CANCELLED transfer stays CANCELLED. Mutates the transfer.
 */
export function returnExecution (ctx: DomainContext, t: ScheduledTransfer, execution: TransferExecution, code: ReturnCode, at: string): TimelineEvent {
  const before = { status: t.status, nextRunDate: t.nextRunDate, updatedAt: t.updatedAt }
  applyMovements(ctx, movementsOf(t, execution.amount), -1)
  replaceExecution(t, execution, { ...execution, status: 'RETURNED', returnCode: code, returnReason: returnReason(code), returnedAt: at })
  t.updatedAt = at
  const ends = RETURN_CODE_TABLE[code].endsTransfer || t.frequency === 'ONCE'
  const failed = ends && (t.status === 'ACTIVE' || t.status === 'COMPLETED')
  if (failed) {
    t.status = 'FAILED'
    t.nextRunDate = null
    delete t.failNextWith
  }
  const outcome = failed ? ' The transfer is FAILED: no further runs.' : ''
  const data = transferSnapshot(t)
  return updateEvent('scheduled_transfer.execution_returned', at, t.id, data, failed ? previousAttributes(before, data, ['status', 'nextRunDate']) : undefined,
    `Returned ${code} (${returnReason(code)}): ${describeRun(t, execution)}; the money is back.${outcome}`)
}

/** Simulation: the receiving bank returns the transfer's latest PENDING or SETTLED execution now. */
export function returnLatestExecution (ctx: DomainContext, transferId: string, code: string): { transfer: ScheduledTransfer; events: TimelineEvent[] } {
  const t = ctx.state.scheduledTransfers.get(transferId)
  if (t === undefined) throw new DomainError('transfer_not_found', `Scheduled transfer ${transferId} does not exist.`)
  if (!isReturnCode(code)) {
    throw new DomainError('unknown_return_code', `returnCode ${code} is not a return code the mock simulates: use one of ${RETURN_CODES.join(', ')}.`, {
      errors: [{ pointer: '/returnCode', message: `must be one of ${RETURN_CODES.join(', ')}` }],
      extensions: { returnCodes: RETURN_CODES }
    })
  }
  if (t.type !== 'ACH') {
    throw new DomainError('not_an_ach_transfer', `Scheduled transfer ${transferId} is an INTERNAL transfer: it succeeds at once between the customer's own accounts, and only ACH entries come back.`)
  }
  const execution = t.executions.findLast(e => e.status === 'PENDING' || e.status === 'SETTLED')
  if (execution === undefined) {
    throw new DomainError('nothing_to_return', `Scheduled transfer ${transferId} has no PENDING or SETTLED execution to return (runs that FAILED moved no money; RETURNED ones are back already).`)
  }
  if (execution.status === 'SETTLED' && execution.settledAt !== undefined) {
    const deadline = returnDeadline(code, execution.settledAt)
    if (today(ctx) > deadline) {
      throw new DomainError('nothing_to_return',
        `The latest execution of ${transferId} (executed ${execution.executionDate}, settled ${execution.settledAt.slice(0, 10)}) can no longer come back with ${code}: its return window closed on ${deadline}.`,
        { extensions: { returnDeadline: deadline } })
    }
  }
  const event = returnExecution(ctx, t, execution, code, nowIso(ctx))
  ctx.events.emit(event)
  return { transfer: t, events: [event] }
}
