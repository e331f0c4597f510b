import { Type, type Static, type TSchema } from 'typebox'
import { EXECUTIONS_KEPT } from '../../domain/transfer-execution.js'
import { DateString, DateTimeString, Enum, Last4, MinorUnits, StrictObject } from './common.js'
import { NextCursor, pageQueryFields, type PagedList } from './page.js'
import { RETURN_CODES } from '../../domain/ach-return-codes.js'
import { FREQUENCIES } from '../../domain/schedule.js'
import { ACCOUNT_TYPES, ACH_DIRECTIONS, EXECUTION_STATUSES, SEC_CODES, TRANSFER_STATUSES, TRANSFER_TYPES } from '../../domain/model.js'

const AccountId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', examples: ['acct_maya_checking'] })
const Amount = MinorUnits({ minimum: 1, description: 'Minor units (cents), more than 0 and at most the configured limit (default 2500000)', examples: [50000] })
export const AccountType = Enum(ACCOUNT_TYPES)
const RoutingNumber = Type.String({ pattern: '^\\d{9}$', description: 'ABA routing number (checksum 3-7-1)', examples: ['021000021'] })
const Frequency = (description?: string) => Enum(FREQUENCIES, description === undefined ? {} : { description })
const Memo = (description = 'Free text, up to 80 characters (Nacha addenda)') => Type.String({ maxLength: 80, description })
const Description = (description = 'ACH company entry description, up to 10 characters') => Type.String({ maxLength: 10, description, examples: ['RENT'] })
const Occurrences = Type.Integer({ minimum: 1, maximum: 10000, description: 'Total number of runs; the alternative to endDate' })
const DateField = (description: string) => Type.String({ format: 'date', description, examples: ['2026-12-01'] })
const StartDate = (description = 'First nominal date (today or later on the mock clock); later dates count from it') => DateField(description)
const EndDate = DateField('Last possible nominal date, inclusive; the alternative to numberOfOccurrences')

const Execution = StrictObject({
  scheduledDate: DateField('The nominal date of the run'),
  executionDate: DateField('When it ran (ACH: a banking day)'),
  amount: MinorUnits(),
  status: Enum(EXECUTION_STATUSES, {
    description: 'INTERNAL: SUCCEEDED or FAILED at once. ACH: PENDING on its execution date (the money has moved), SETTLED on the next Fed banking day, ' +
      'or RETURNED by the receiving bank (the money is back); FAILED when it could not be submitted (insufficient funds) and moved nothing'
  }),
  failureReason: Type.Optional(Type.String({ examples: ['INSUFFICIENT_FUNDS'] })),
  settledAt: Type.Optional(DateTimeString),
  returnCode: Type.Optional(Enum(RETURN_CODES, { description: 'RETURNED: the NACHA return reason code' })),
  returnReason: Type.Optional(Type.String({ description: 'RETURNED: the NACHA title of returnCode', examples: ['Insufficient Funds'] })),
  returnedAt: Type.Optional(DateTimeString)
})

const Counterparty = StrictObject({
  name: Type.String(),
  routingNumber: RoutingNumber,
  accountNumberLast4: Last4,
  accountType: AccountType
}, { description: 'ACH: the other side; only the last 4 digits of its account number are shown' })

// The fields of a scheduled transfer, in the order answers list them, split by who has them.
const identity = {
  id: Type.String({ examples: ['sxfer_maya_savings'] }),
  amount: MinorUnits({ description: 'Minor units (cents)' }),
  currency: Type.Literal('USD'),
  fromAccountId: Type.String({ description: 'The customer\'s account: debited, or credited by an ACH DEBIT' })
}
const internalOnly = {
  toAccountId: Type.String({ description: 'The customer\'s account credited' })
}
const achOnly = {
  counterparty: Counterparty,
  direction: Enum(ACH_DIRECTIONS, { description: 'CREDIT pushes money to the counterparty, DEBIT pulls it into fromAccountId' }),
  secCode: Enum(SEC_CODES)
}
const schedule = {
  memo: Type.Optional(Type.String()),
  frequency: Frequency(),
  startDate: DateField('The anchor every nominal date counts from'),
  endDate: Type.Optional(DateString),
  numberOfOccurrences: Type.Optional(Type.Integer({ minimum: 1 })),
  nextRunDate: Type.Union([DateString, Type.Null()], { description: 'Execution date of the next run; null when none is left' }),
  occurrencesCompleted: Type.Integer({ minimum: 0, description: 'Runs made so far, failed ones included' }),
  status: Enum(TRANSFER_STATUSES),
  executions: Type.Array(Execution, { maxItems: EXECUTIONS_KEPT, description: `The last ${EXECUTIONS_KEPT} runs, oldest first; occurrencesCompleted counts them all` }),
  cancelledAt: Type.Optional(DateTimeString),
  createdAt: DateTimeString,
  updatedAt: DateTimeString
}

export const InternalScheduledTransfer = StrictObject({
  id: identity.id,
  type: Type.Literal('INTERNAL'),
  amount: identity.amount, currency: identity.currency, fromAccountId: identity.fromAccountId,
  ...internalOnly,
  ...schedule
}, { $id: 'InternalScheduledTransfer', description: 'Between two of the customer\'s accounts' })

export const AchScheduledTransfer = StrictObject({
  id: identity.id,
  type: Type.Literal('ACH'),
  amount: identity.amount, currency: identity.currency, fromAccountId: identity.fromAccountId,
  ...achOnly,
  description: Type.Optional(Type.String({ description: 'The ACH company entry description' })),
  ...schedule
}, { $id: 'AchScheduledTransfer', description: 'To or from a counterparty at another bank' })

export type ScheduledTransferView = Static<typeof InternalScheduledTransfer> | Static<typeof AchScheduledTransfer>

/** One of the two kinds, told apart by `type`, so generated clients can narrow it. */
export const ScheduledTransfer = Type.Unsafe<ScheduledTransferView>({
  $id: 'ScheduledTransfer',
  oneOf: [Type.Ref('InternalScheduledTransfer'), Type.Ref('AchScheduledTransfer')],
  discriminator: {
    propertyName: 'type',
    mapping: { INTERNAL: '#/components/schemas/InternalScheduledTransfer', ACH: '#/components/schemas/AchScheduledTransfer' }
  }
})

/**
 * What transfer answers are written with: every field of either kind in one flat object. A oneOf
 * would make fast-json-stringify validate each answer against the branches to pick one; the
 * fields of the other kind are absent from the domain object anyway (the fixture loader and the
 * domain refuse them), so the bytes are those the documented oneOf describes.
 */
export const ScheduledTransferSerialized = StrictObject({
  id: identity.id,
  type: Enum(TRANSFER_TYPES),
  amount: identity.amount, currency: identity.currency, fromAccountId: identity.fromAccountId,
  toAccountId: Type.Optional(internalOnly.toAccountId),
  counterparty: Type.Optional(achOnly.counterparty),
  direction: Type.Optional(achOnly.direction),
  secCode: Type.Optional(achOnly.secCode),
  description: Type.Optional(Type.String()),
  ...schedule
}, { $id: 'ScheduledTransfer' })

/** Newest first: createdAt, then id, both descending. */
export const TRANSFER_PAGES: PagedList<Pick<ScheduledTransferView, 'createdAt' | 'id'>> = {
  name: 'scheduledTransfers',
  positionKinds: ['string', 'string'],
  position: transfer => [transfer.createdAt, transfer.id],
  defaultLimit: 25,
  maxLimit: 100
}

export const ScheduledTransferList = StrictObject({
  data: Type.Array(Type.Ref('ScheduledTransfer')),
  nextCursor: NextCursor
}, { $id: 'ScheduledTransferList', description: 'One page, newest first' })

export const DeletedScheduledTransfer = StrictObject({
  id: Type.String(),
  deleted: Type.Literal(true)
}, { $id: 'DeletedScheduledTransfer' })

const scheduleFields = {
  frequency: Frequency(),
  startDate: StartDate(),
  endDate: Type.Optional(EndDate),
  numberOfOccurrences: Type.Optional(Occurrences)
}

export const InternalScheduledTransferRequest = StrictObject({
  fromAccountId: AccountId,
  toAccountId: AccountId,
  amount: Amount,
  currency: Type.Optional(Type.Literal('USD')),
  memo: Type.Optional(Memo()),
  ...scheduleFields
}, { $id: 'InternalScheduledTransferRequest' })

export const AchScheduledTransferRequest = StrictObject({
  fromAccountId: AccountId,
  counterparty: StrictObject({
    name: Type.String({ minLength: 1, maxLength: 22, description: 'Up to 22 characters (Nacha individual name)' }),
    routingNumber: RoutingNumber,
    accountNumber: Type.String({
      pattern: '^\\d{4,17}$',
      description: 'The full account number, 4 to 17 digits; answers show only its last 4. Magic numbers (Modern Treasury\'s convention): 100NN makes every execution ' +
        `come back with return code RNN (${RETURN_CODES.join(', ')}); another 100NN is 422 unknown_return_code`,
      examples: ['000123458841', '10001']
    }),
    accountType: AccountType
  }),
  direction: Type.Optional(Enum(ACH_DIRECTIONS, { description: 'CREDIT (default) pushes money to the counterparty; DEBIT pulls it from them' })),
  secCode: Type.Optional(Enum(SEC_CODES, { description: 'Default PPD' })),
  amount: Amount,
  currency: Type.Optional(Type.Literal('USD')),
  description: Type.Optional(Description()),
  memo: Type.Optional(Memo()),
  ...scheduleFields
}, { $id: 'AchScheduledTransferRequest' })

export const ScheduledTransferUpdate = StrictObject({
  amount: Type.Optional(Amount),
  memo: Type.Optional(Memo('Up to 80 characters; an empty string removes it')),
  description: Type.Optional(Description('ACH only, up to 10 characters; an empty string removes it')),
  frequency: Type.Optional(Frequency('Re-anchors the schedule (on startDate if given, else on the next scheduled date)')),
  startDate: Type.Optional(StartDate('Re-anchors the schedule: today or later, and after the last run')),
  endDate: Type.Optional(Type.Union([EndDate, Type.Null()], { description: 'Replaces numberOfOccurrences; null removes the end date' })),
  numberOfOccurrences: Type.Optional(Type.Union([Occurrences, Type.Null()], { description: 'Total runs, counting those already made; replaces endDate; null removes it' }))
}, { $id: 'ScheduledTransferUpdate', minProperties: 1, description: 'Only the fields given change, and only for future runs' })

export const TransferIdParams = StrictObject({ transferId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) })

export const ScheduledTransferListQuery = StrictObject({
  status: Type.Optional(Enum(TRANSFER_STATUSES)),
  type: Type.Optional(Enum(TRANSFER_TYPES)),
  ...pageQueryFields(TRANSFER_PAGES)
})

export const TRANSFER_SCHEMAS: TSchema[] = [
  ScheduledTransfer, InternalScheduledTransfer, AchScheduledTransfer, ScheduledTransferList, DeletedScheduledTransfer,
  InternalScheduledTransferRequest, AchScheduledTransferRequest, ScheduledTransferUpdate
]
