import { routingNumberProblem } from './aba.js'
import { magicReturnCode, RETURN_CODES } from './ach-return-codes.js'
import { nowIso, today, type DomainContext } from './context.js'
import { getCustomer, getWritableCustomer } from './customer.js'
import { DomainError } from './errors.js'
import { previousAttributes, updateEvent, type EventType } from './events.js'
import type { AccountType, AchDirection, ScheduledTransfer, SecCode, TransferStatus, TransferType } from './model.js'
import type { Frequency } from './schedule.js'
import { settleTransfer, transferSnapshot } from './transfer-execution.js'
import { nextRun } from './transfer-runs.js'
import {
  checkAmount, checkLength, COUNTERPARTY_NAME_MAX, DESCRIPTION_MAX, isCalendarDate, MEMO_MAX, TransferProblems
} from './transfer-validation.js'

/**
 * Recurrent transfers a customer schedules: internal (between their own accounts) and ACH (to or
 * from a counterparty). Running them on the clock is transfer-execution.ts; where each stands in
 * its schedule is transfer-runs.ts.
 */
export { failNextExecution, runTransferNow } from './transfer-execution.js'
export { returnLatestExecution } from './ach-lifecycle.js'

/**
 * Scheduled transfers one customer may keep, whatever their status: each is stored with its
 * executions, so this (with EXECUTIONS_KEPT) bounds what one customer's transfers take.
 * Deleting one makes room; cancelling does not, since a cancelled transfer stays readable.
 */
export const MAX_TRANSFERS_PER_CUSTOMER = 50

export interface ScheduleRequest {
  frequency: Frequency
  startDate: string
  endDate?: string | undefined
  numberOfOccurrences?: number | undefined
}

export interface InternalTransferRequest extends ScheduleRequest {
  fromAccountId: string
  toAccountId: string
  amount: number
  currency?: 'USD' | undefined
  memo?: string | undefined
}

export interface CounterpartyRequest {
  name: string
  routingNumber: string
  /** The full account number; only its last 4 digits are kept. */
  accountNumber: string
  accountType: AccountType
}

export interface AchTransferRequest extends ScheduleRequest {
  fromAccountId: string
  counterparty: CounterpartyRequest
  /** CREDIT (default) pushes money to the counterparty; DEBIT pulls it from them. */
  direction?: AchDirection | undefined
  /** Default PPD (a consumer's own payment). */
  secCode?: SecCode | undefined
  amount: number
  currency?: 'USD' | undefined
  description?: string | undefined
  memo?: string | undefined
}

/** Fields absent stay as they are; `null` clears an end condition. Changes affect future runs only. */
export interface TransferUpdate {
  amount?: number | undefined
  memo?: string | undefined
  description?: string | undefined
  frequency?: Frequency | undefined
  startDate?: string | undefined
  endDate?: string | null | undefined
  numberOfOccurrences?: number | null | undefined
}

export interface TransferFilter {
  status?: TransferStatus | undefined
  type?: TransferType | undefined
}

function ownAccountProblem (ctx: DomainContext, customerId: string, accountId: string): string | undefined {
  const account = ctx.state.accounts.get(accountId)
  // Another customer's account reads as unknown: its existence must not leak.
  return account === undefined || account.customerId !== customerId ? `is not an account of yours (${accountId})` : undefined
}

function checkSchedule (ctx: DomainContext, problems: TransferProblems, request: ScheduleRequest): void {
  if (!isCalendarDate(request.startDate)) problems.add('invalid_field', '/startDate', 'must be a calendar date YYYY-MM-DD')
  else if (request.startDate < today(ctx)) problems.add('start_date_in_past', '/startDate', `must be today (${today(ctx)}) or later`)
  if (request.endDate !== undefined) {
    if (!isCalendarDate(request.endDate)) problems.add('invalid_field', '/endDate', 'must be a calendar date YYYY-MM-DD')
    else if (request.endDate < request.startDate) problems.add('end_date_before_start', '/endDate', 'must be on or after startDate')
  }
  const n = request.numberOfOccurrences
  if (n !== undefined) {
    if (!Number.isSafeInteger(n) || n < 1) problems.add('invalid_field', '/numberOfOccurrences', 'must be a whole number, 1 or more')
    else if (request.frequency === 'ONCE' && n > 1) problems.add('invalid_field', '/numberOfOccurrences', 'must be 1 for a ONCE transfer, which runs exactly once')
  }
  if (request.endDate !== undefined && n !== undefined) {
    problems.add('conflicting_end_conditions', '/numberOfOccurrences', 'cannot be given with endDate: give one or the other')
  }
}

type Draft = Omit<ScheduledTransfer, 'id' | 'nextIndex' | 'nextRunDate' | 'occurrencesCompleted' | 'status' | 'executions' | 'createdAt' | 'updatedAt'>

function checkRoomFor (ctx: DomainContext, customerId: string): void {
  let kept = 0
  for (const t of ctx.state.scheduledTransfers.values()) if (t.customerId === customerId) kept++
  if (kept >= MAX_TRANSFERS_PER_CUSTOMER) {
    throw new DomainError('too_many_transfers',
      `Customer ${customerId} has ${kept} scheduled transfers, the most one customer keeps (${MAX_TRANSFERS_PER_CUSTOMER}, cancelled and completed ones included); delete one to make room.`,
      { extensions: { maxTransfers: MAX_TRANSFERS_PER_CUSTOMER } })
  }
}

/** Stores a validated draft with its first run, then runs it at once if that run is due today. */
function schedule (ctx: DomainContext, problems: TransferProblems, draft: Draft): ScheduledTransfer {
  problems.throwIfAny()
  checkRoomFor(ctx, draft.customerId)
  const now = nowIso(ctx)
  const transfer: ScheduledTransfer = {
    id: ctx.ids.id('sxfer'), ...draft, nextIndex: 0, nextRunDate: null, occurrencesCompleted: 0, status: 'ACTIVE', executions: [], createdAt: now, updatedAt: now
  }
  const first = nextRun(transfer, 0)
  if (first === null) {
    problems.add('invalid_field', '/endDate', 'leaves no run: an ACH DAILY transfer runs on banking days only')
    problems.throwIfAny()
  }
  transfer.nextIndex = first?.index ?? 0
  transfer.nextRunDate = first?.executionDate ?? null
  ctx.state.scheduledTransfers.set(transfer.id, transfer)
  report(ctx, 'scheduled_transfer.created', transfer, undefined, `Scheduled ${transfer.type} ${transfer.frequency}, first run ${transfer.nextRunDate ?? 'none'}`)
  for (const event of settleTransfer(ctx, transfer)) ctx.events.emit(event)
  return transfer
}

/** The fields an update of a transfer reports the earlier values of. */
const UPDATABLE_FIELDS = ['amount', 'memo', 'description', 'frequency', 'startDate', 'endDate', 'numberOfOccurrences', 'nextRunDate', 'status'] as const

function report (ctx: DomainContext, type: EventType, transfer: ScheduledTransfer, before: ScheduledTransfer | undefined, detail: string): void {
  const data = transferSnapshot(transfer)
  const previous = before === undefined ? undefined : previousAttributes(before, data, UPDATABLE_FIELDS)
  ctx.events.emit(updateEvent(type, transfer.updatedAt, transfer.id, data, previous, detail))
}

function scheduleFields (request: ScheduleRequest): Pick<ScheduledTransfer, 'frequency' | 'startDate' | 'endDate' | 'numberOfOccurrences'> {
  return compact({ frequency: request.frequency, startDate: request.startDate, endDate: request.endDate, numberOfOccurrences: request.numberOfOccurrences })
}

export function createInternalTransfer (ctx: DomainContext, customerId: string, request: InternalTransferRequest): ScheduledTransfer {
  getWritableCustomer(ctx, customerId)
  const problems = new TransferProblems()
  checkAmount(ctx, problems, request.amount)
  const fromProblem = ownAccountProblem(ctx, customerId, request.fromAccountId)
  if (fromProblem !== undefined) problems.add('account_not_found', '/fromAccountId', fromProblem)
  const toProblem = ownAccountProblem(ctx, customerId, request.toAccountId)
  if (toProblem !== undefined) problems.add('account_not_found', '/toAccountId', toProblem)
  else if (request.toAccountId === request.fromAccountId) problems.add('same_account', '/toAccountId', 'must differ from fromAccountId')
  checkLength(problems, '/memo', request.memo, MEMO_MAX)
  checkSchedule(ctx, problems, request)
  return schedule(ctx, problems, compact({
    customerId, type: 'INTERNAL', amount: request.amount, currency: 'USD', fromAccountId: request.fromAccountId, toAccountId: request.toAccountId,
    memo: emptyToUndefined(request.memo), ...scheduleFields(request)
  }))
}

export function createAchTransfer (ctx: DomainContext, customerId: string, request: AchTransferRequest): ScheduledTransfer {
  getWritableCustomer(ctx, customerId)
  const problems = new TransferProblems()
  checkAmount(ctx, problems, request.amount)
  const fromProblem = ownAccountProblem(ctx, customerId, request.fromAccountId)
  if (fromProblem !== undefined) problems.add('account_not_found', '/fromAccountId', fromProblem)
  const { counterparty } = request
  const routing = routingNumberProblem(counterparty.routingNumber)
  if (routing !== undefined) problems.add('invalid_routing_number', '/counterparty/routingNumber', routing)
  if (!/^\d{4,17}$/.test(counterparty.accountNumber)) problems.add('invalid_field', '/counterparty/accountNumber', 'must be 4 to 17 digits')
  const magic = magicReturnCode(counterparty.accountNumber)
  if (magic !== undefined && 'unsupported' in magic) {
    problems.add('unknown_return_code', '/counterparty/accountNumber',
      `is a magic number asking for return code ${magic.unsupported}, which the mock does not simulate; 100NN works for ${RETURN_CODES.join(', ')}`)
  }
  if (counterparty.name.trim() === '') problems.add('invalid_field', '/counterparty/name', 'must not be blank')
  checkLength(problems, '/counterparty/name', counterparty.name, COUNTERPARTY_NAME_MAX)
  checkLength(problems, '/description', request.description, DESCRIPTION_MAX)
  checkLength(problems, '/memo', request.memo, MEMO_MAX)
  checkSchedule(ctx, problems, request)
  return schedule(ctx, problems, compact({
    customerId,
    type: 'ACH',
    amount: request.amount,
    currency: 'USD',
    fromAccountId: request.fromAccountId,
    counterparty: {
      name: counterparty.name,
      routingNumber: counterparty.routingNumber,
      accountNumberLast4: counterparty.accountNumber.slice(-4),
      accountType: counterparty.accountType
    },
    direction: request.direction ?? 'CREDIT',
    secCode: request.secCode ?? 'PPD',
    description: emptyToUndefined(request.description),
    memo: emptyToUndefined(request.memo),
    magicReturnCode: magic !== undefined && 'code' in magic ? magic.code : undefined,
    ...scheduleFields(request)
  }))
}

/** The customer's transfers, newest first, optionally filtered by status and type. */
export function listTransfers (ctx: DomainContext, customerId: string, filter: TransferFilter = {}): ScheduledTransfer[] {
  getCustomer(ctx, customerId)
  const mine = [...ctx.state.scheduledTransfers.values()].reverse().filter(t =>
    t.customerId === customerId && (filter.status === undefined || t.status === filter.status) && (filter.type === undefined || t.type === filter.type))
  // A fixed order, newest first, that paging can hold a position in: transfers created in the same instant (a frozen clock) by id.
  return mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
}

/** Another customer's transfer is 404, exactly like one that does not exist. */
export function getTransfer (ctx: DomainContext, customerId: string, transferId: string): ScheduledTransfer {
  getCustomer(ctx, customerId)
  const transfer = ctx.state.scheduledTransfers.get(transferId)
  if (transfer === undefined || transfer.customerId !== customerId) {
    throw new DomainError('transfer_not_found', `Scheduled transfer ${transferId} does not exist.`)
  }
  return transfer
}

function activeTransferOf (ctx: DomainContext, customerId: string, transferId: string, action: string): ScheduledTransfer {
  getWritableCustomer(ctx, customerId)
  const transfer = getTransfer(ctx, customerId, transferId)
  if (transfer.status !== 'ACTIVE') {
    throw new DomainError('invalid_transfer_state', `Scheduled transfer ${transferId} is ${transfer.status}; only an ACTIVE transfer can be ${action}.`, {
      extensions: { transferStatus: transfer.status }
    })
  }
  return transfer
}

/**
 * Changes future runs only; executions already made stay. A new frequency or startDate re-anchors
 * the schedule (a new frequency alone re-anchors on the next scheduled date). numberOfOccurrences
 * keeps counting every run of the transfer, those before the update included.
 */
export function updateTransfer (ctx: DomainContext, customerId: string, transferId: string, update: TransferUpdate): ScheduledTransfer {
  const current = activeTransferOf(ctx, customerId, transferId, 'updated')
  const problems = new TransferProblems()
  const next: ScheduledTransfer = { ...current }
  if (update.amount !== undefined) {
    checkAmount(ctx, problems, update.amount)
    next.amount = update.amount
  }
  if (update.memo !== undefined) {
    checkLength(problems, '/memo', update.memo, MEMO_MAX)
    next.memo = emptyToUndefined(update.memo)
  }
  if (update.description !== undefined) {
    if (current.type !== 'ACH') problems.add('invalid_field', '/description', 'only an ACH transfer has a description')
    checkLength(problems, '/description', update.description, DESCRIPTION_MAX)
    next.description = emptyToUndefined(update.description)
  }
  updateEndConditions(problems, current, next, update)
  reanchor(ctx, problems, current, next, update)
  if (next.endDate !== undefined && isCalendarDate(next.endDate) && next.endDate < next.startDate) {
    problems.add('end_date_before_start', '/endDate', `must be on or after startDate (${next.startDate})`)
  }
  problems.throwIfAny()

  const run = nextRun(next, next.nextIndex)
  if (run === null) {
    const pointer = update.numberOfOccurrences !== undefined ? '/numberOfOccurrences' : update.endDate !== undefined ? '/endDate' : '/startDate'
    problems.add('invalid_field', pointer, 'leaves no run in the future; cancel the transfer instead')
    problems.throwIfAny()
  }
  next.nextIndex = run?.index ?? next.nextIndex
  next.nextRunDate = run?.executionDate ?? null
  next.updatedAt = nowIso(ctx)
  ctx.state.scheduledTransfers.set(next.id, next)
  report(ctx, 'scheduled_transfer.updated', next, current, 'Future runs changed')
  for (const event of settleTransfer(ctx, next)) ctx.events.emit(event)
  return next
}

function updateEndConditions (problems: TransferProblems, current: ScheduledTransfer, next: ScheduledTransfer, update: TransferUpdate): void {
  const { endDate, numberOfOccurrences: n } = update
  if (endDate !== undefined && endDate !== null && n !== undefined && n !== null) {
    problems.add('conflicting_end_conditions', '/numberOfOccurrences', 'cannot be given with endDate: give one or the other')
    return
  }
  if (endDate !== undefined) {
    if (endDate !== null && !isCalendarDate(endDate)) problems.add('invalid_field', '/endDate', 'must be a calendar date YYYY-MM-DD')
    next.endDate = endDate ?? undefined
    // One end condition replaces the other.
    if (endDate !== null) next.numberOfOccurrences = undefined
  }
  if (n !== undefined) {
    if (n !== null && (!Number.isSafeInteger(n) || n < 1)) problems.add('invalid_field', '/numberOfOccurrences', 'must be a whole number, 1 or more')
    else if (n !== null && n <= current.occurrencesCompleted) {
      problems.add('invalid_field', '/numberOfOccurrences', `must be more than the ${current.occurrencesCompleted} run(s) already made`)
    }
    next.numberOfOccurrences = n ?? undefined
    if (n !== null) next.endDate = undefined
  }
}

function reanchor (ctx: DomainContext, problems: TransferProblems, current: ScheduledTransfer, next: ScheduledTransfer, update: TransferUpdate): void {
  const frequency = update.frequency ?? current.frequency
  if (frequency === current.frequency && (update.startDate === undefined || update.startDate === current.startDate)) return
  const anchor = update.startDate ?? implicitAnchor(ctx, current)
  const pointer = update.startDate === undefined ? '/frequency' : '/startDate'
  const lastRun = current.executions.at(-1)?.executionDate
  if (!isCalendarDate(anchor)) problems.add('invalid_field', pointer, 'must be a calendar date YYYY-MM-DD')
  else if (anchor < today(ctx)) problems.add('start_date_in_past', pointer, `must be today (${today(ctx)}) or later`)
  else if (lastRun !== undefined && anchor <= lastRun) problems.add('invalid_field', pointer, `must be after the last run (${lastRun}); give a later startDate`)
  next.frequency = frequency
  next.startDate = anchor
  next.nextIndex = 0
}

/** Keeps the next scheduled date and changes the cadence from there. */
function implicitAnchor (ctx: DomainContext, current: ScheduledTransfer): string {
  const upcoming = nextRun(current, current.nextIndex)?.scheduledDate ?? today(ctx)
  return upcoming < today(ctx) ? today(ctx) : upcoming
}

/** CANCELLED stays readable; it never runs again. */
export function cancelTransfer (ctx: DomainContext, customerId: string, transferId: string): ScheduledTransfer {
  const current = activeTransferOf(ctx, customerId, transferId, 'cancelled')
  const now = nowIso(ctx)
  const cancelled: ScheduledTransfer = { ...current, status: 'CANCELLED', nextRunDate: null, cancelledAt: now, updatedAt: now }
  delete cancelled.failNextWith
  ctx.state.scheduledTransfers.set(cancelled.id, cancelled)
  report(ctx, 'scheduled_transfer.cancelled', cancelled, current, 'Cancelled: no further runs')
  return cancelled
}

/** Removes the transfer whatever its state; afterwards it is 404. */
export function deleteTransfer (ctx: DomainContext, customerId: string, transferId: string): { id: string; deleted: true } {
  getWritableCustomer(ctx, customerId)
  const transfer = getTransfer(ctx, customerId, transferId)
  ctx.state.scheduledTransfers.delete(transferId)
  // The transfer as it was last: a backend that keeps a copy learns what is gone.
  ctx.events.emit({ type: 'scheduled_transfer.deleted', at: nowIso(ctx), entityId: transferId, data: transferSnapshot(transfer), detail: 'Deleted' })
  return { id: transferId, deleted: true }
}

function emptyToUndefined (value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

/** Drops undefined members so stored entities carry no empty keys. */
function compact<T extends object> (value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
