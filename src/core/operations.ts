import { Type, type TSchema } from 'typebox'
import { CardIdParams } from './schemas/debit-card.js'
import { StatementIdParams } from './schemas/statement.js'
import { EmptyBody } from './schemas/common.js'
import { MAX_TRANSFERS_PER_CUSTOMER } from '../domain/scheduled-transfer.js'
import { ScheduledTransferListQuery, TransferIdParams } from './schemas/scheduled-transfer.js'

/**
 * The one table of the mock's API: route registration, the OpenAPI document, configuration
 * names, the `.env` export and the README all read it. Paths are the defaults; each can be moved
 * by its configuration name (see src/route-config.ts).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type OperationTag = 'Customers' | 'Debit cards' | 'Statements' | 'Phone verification' | 'Scheduled transfers'

export interface Operation {
  id: string
  method: HttpMethod
  /** Default path; parameters written `$CARD_ID` as in the configuration names. */
  path: string
  configName: string
  /**
   * Other names that set the same route. The API spells API_PHONE_VERFICATION_SEND_CODE so; an app
   * that corrected the spelling in its own code reads its .env under the corrected name.
   */
  configAliases?: readonly string[]
  tag: OperationTag
  summary: string
  description: string
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  /** Success status and the `$id` of its body schema (registered as a shared schema). */
  success: { status: number; schema: string; description: string; alternatives?: readonly number[] }
  /** Also answered, besides 400 and 404 which every operation can return. */
  errors: number[]
  /**
   * Set on a write that cannot make anything fall due on a calendar day (it orders no shipment and
   * creates or moves no transfer run): the world's daily processors, which already ran today, need
   * not run again after it. A write without it is assumed to, which is always correct, only slower.
   */
  createsNoDueWork?: true
}

export const OPERATIONS = [
  {
    id: 'getCustomer', method: 'GET', path: '/baas/customers', configName: 'API_BAAS_CUSTOMER', tag: 'Customers',
    summary: 'Get the authenticated customer',
    description: 'The customer is implied by the bearer token (the persona).',
    success: { status: 200, schema: 'Customer', description: 'The customer' },
    errors: [401]
  },
  {
    id: 'updateCustomer', method: 'PUT', path: '/baas/customers', configName: 'API_BAAS_CUSTOMER', tag: 'Customers',
    summary: 'Replace the customer\'s contact details',
    description: 'Replaces email, phone and address. Read-only fields may be sent back unchanged; a changed name, date of birth or SSN is 422 field_not_updatable. A new phone number is unverified.',
    body: Type.Ref('CustomerUpdate'),
    success: { status: 200, schema: 'Customer', description: 'The updated customer' },
    errors: [401, 409, 422]
  },
  {
    id: 'requestPhysicalCard', method: 'PUT', path: '/baas/debit-cards/physical', configName: 'API_BAAS_PHYSICAL_CARD_REQUEST', tag: 'Debit cards',
    summary: 'Request a physical debit card (idempotent)',
    description: 'If the customer already has a physical card that is not closed, answers 200 with it (the body is then ignored); otherwise 201 with a new card, PENDING_ACTIVATION, shipped to the given address or the one on file (STANDARD 5, EXPRESS 2, PRIORITY 1 business days). Delivery activates the card. A customer holds at most 50 cards, closed ones included (409 too_many_cards; --max-cards).',
    body: Type.Ref('PhysicalCardRequest'),
    success: { status: 201, schema: 'DebitCard', description: 'A new physical card (200 with the existing one when already requested)', alternatives: [200] },
    errors: [401, 409, 422]
  },
  {
    id: 'unlockCard', method: 'PUT', path: '/baas/debit-cards/$CARD_ID/unlock', configName: 'API_BAAS_CUSTOMER_CARD_UNLOCK', tag: 'Debit cards',
    summary: 'Unlock a locked card',
    description: 'LOCKED → ACTIVE. Unlocking an ACTIVE card is a no-op (200). A CLOSED or PENDING_ACTIVATION card is 409.',
    params: CardIdParams, body: EmptyBody,
    success: { status: 200, schema: 'DebitCard', description: 'The card' },
    errors: [401, 409],
    createsNoDueWork: true
  },
  {
    id: 'lockCard', method: 'POST', path: '/baas/debit-cards/$CARD_ID/lock', configName: 'API_BAAS_CUSTOMER_CARD_LOCK', tag: 'Debit cards',
    summary: 'Lock a card temporarily',
    description: 'ACTIVE → LOCKED. Locking a LOCKED card is a no-op (200). A CLOSED or PENDING_ACTIVATION card is 409.',
    params: CardIdParams, body: EmptyBody,
    success: { status: 200, schema: 'DebitCard', description: 'The card' },
    errors: [401, 409],
    createsNoDueWork: true
  },
  {
    id: 'reissueCard', method: 'POST', path: '/baas/debit-cards/$CARD_ID/reissue', configName: 'API_BAAS_REISSUE', tag: 'Debit cards',
    summary: 'Reissue a card',
    description: 'Closes the card (REPLACED, or LOST/STOLEN) and answers 201 with its replacement. DAMAGED/EXPIRED keep the last 4 digits with a new expiry; LOST/STOLEN get a new number. A virtual replacement is ACTIVE at once; a physical one starts PENDING_ACTIVATION with a shipment ORDERED to shippingAddress (default: the address on file). Shipping fields on a virtual card are 422. A customer holds at most 50 cards, closed ones included, so a chain of reissues ends there (409 too_many_cards; --max-cards).',
    params: CardIdParams, body: Type.Ref('ReissueRequest'),
    success: { status: 201, schema: 'DebitCard', description: 'The replacement card' },
    errors: [401, 409, 422]
  },
  {
    id: 'createSetPinUrl', method: 'POST', path: '/baas/debit-cards/$CARD_ID/set-pin-url', configName: 'API_BAAS_SET_PIN', tag: 'Debit cards',
    summary: 'Create a single-use URL to set the card PIN',
    description: 'The URL opens the mock\'s own PIN page; it is single-use and expires after 5 minutes (configurable). A non-default session travels in the URL as ?session=. A new link for a card replaces the one before (which then answers 404). A CLOSED card is 409. A session keeps at most 100 links: a spent one (used, expired, its card closed) makes room, else 409 too_many_pin_links (--max-pin-links).',
    params: CardIdParams, body: EmptyBody,
    success: { status: 200, schema: 'SetPinUrl', description: 'The URL and when it expires' },
    errors: [401, 409],
    createsNoDueWork: true
  },
  {
    id: 'sendStatementByEmail', method: 'POST', path: '/baas/statements/$STATEMENT_ID/send-by-email', configName: 'API_BAAS_STATEMENT_BY_EMAIL', tag: 'Statements',
    summary: 'E-mail a statement to the address on file',
    description: 'Queues an e-mail with the statement to the customer\'s address on file (never an arbitrary recipient; the body is empty) and answers with that address masked. The e-mail appears in the mock outbox. Another customer\'s statement is 404, as an unknown one. Allowed for a FROZEN customer: it reads their own data and changes nothing.',
    params: StatementIdParams, body: Type.Ref('SendStatementRequest'),
    success: { status: 202, schema: 'StatementEmailAck', description: 'Queued' },
    errors: [401, 409],
    createsNoDueWork: true
  },
  {
    id: 'sendPhoneVerificationCode', method: 'POST', path: '/mfa/send-code', configName: 'API_PHONE_VERFICATION_SEND_CODE', configAliases: ['API_PHONE_VERIFICATION_SEND_CODE'], tag: 'Phone verification',
    summary: 'Send a verification code to a phone',
    description: 'Sends a 6-digit code by SMS (or voice call) to the given number or the one on file, valid 10 minutes, 5 checks. Resending within 30 s is 429 resend_too_soon; at most 5 sends per number per 10 minutes (429 too_many_sends); both carry Retry-After. A resend while the code is valid re-sends the same code with the same verificationId and expiry. The message, with its code, appears in the mock outbox. A FROZEN customer is 409. A session keeps codes and send counts for at most 20 numbers: a new number takes the place of the oldest one with no code pending, else 429 too_many_verifications with Retry-After (--max-verifications). All limits are configurable.',
    body: Type.Ref('SendCodeRequest'),
    success: { status: 202, schema: 'SendCodeResponse', description: 'Code sent' },
    errors: [401, 409, 429],
    createsNoDueWork: true
  },
  {
    id: 'verifyPhoneVerificationCode', method: 'POST', path: '/mfa/verify', configName: 'API_PHONE_VERIFICATION_VERIFY_CODE', tag: 'Phone verification',
    summary: 'Check a verification code',
    description: 'Approves the pending verification for the number (default: the one on file) and, when it is the number on file, marks the phone verified; the verification is then gone. A wrong code is 422 invalid_code with attemptsRemaining; the check after the fifth wrong one is 429 max_attempts; an expired code is 410; no pending verification (also after approval, expiry or max attempts) is 404. A FROZEN customer is 409.',
    body: Type.Ref('VerifyCodeRequest'),
    success: { status: 200, schema: 'VerifyCodeResponse', description: 'Approved' },
    errors: [401, 409, 410, 422, 429],
    createsNoDueWork: true
  },
  {
    id: 'createInternalScheduledTransfer', method: 'POST', path: '/baas/scheduled-transfers/internal', configName: 'API_BAAS_SCHEDULED_TRANSFER_INTERNAL', tag: 'Scheduled transfers',
    summary: 'Schedule a recurrent transfer between the customer\'s own accounts',
    description: 'Both accounts must be the customer\'s and differ; amount > 0 and at most the configured limit; startDate today or later (mock clock); endDate or numberOfOccurrences, not both (422). Internal runs are not moved off weekends or holidays. A run due today executes at once. ' +
      `A customer keeps at most ${MAX_TRANSFERS_PER_CUSTOMER} scheduled transfers, whatever their status (409 too_many_transfers; delete one to make room).`,
    body: Type.Ref('InternalScheduledTransferRequest'),
    success: { status: 201, schema: 'ScheduledTransfer', description: 'The scheduled transfer' },
    errors: [401, 409, 422]
  },
  {
    id: 'createAchScheduledTransfer', method: 'POST', path: '/baas/scheduled-transfers/ach', configName: 'API_BAAS_SCHEDULED_TRANSFER_ACH', tag: 'Scheduled transfers',
    summary: 'Schedule a recurrent ACH transfer to or from a counterparty',
    description: 'direction CREDIT (default) pushes money to the counterparty (debits fromAccountId); DEBIT pulls it (credits fromAccountId). The routing number must pass the ABA checksum (422). Runs execute on the next Federal Reserve banking day; a DAILY ACH transfer runs on banking days only. Answers show only the last 4 digits of the counterparty account number. ' +
      `A customer keeps at most ${MAX_TRANSFERS_PER_CUSTOMER} scheduled transfers (409 too_many_transfers).`,
    body: Type.Ref('AchScheduledTransferRequest'),
    success: { status: 201, schema: 'ScheduledTransfer', description: 'The scheduled transfer' },
    errors: [401, 409, 422]
  },
  {
    id: 'listScheduledTransfers', method: 'GET', path: '/baas/scheduled-transfers', configName: 'API_BAAS_SCHEDULED_TRANSFERS', tag: 'Scheduled transfers',
    summary: 'List the customer\'s scheduled transfers',
    description: 'Newest first, optionally filtered by status and type. Deleted transfers are gone; cancelled ones stay.',
    querystring: ScheduledTransferListQuery,
    success: { status: 200, schema: 'ScheduledTransferList', description: 'The transfers' },
    errors: [401]
  },
  {
    id: 'getScheduledTransfer', method: 'GET', path: '/baas/scheduled-transfers/$TRANSFER_ID', configName: 'API_BAAS_SCHEDULED_TRANSFER', tag: 'Scheduled transfers',
    summary: 'Get a scheduled transfer with its executions',
    description: 'Another customer\'s transfer is 404, like one that does not exist.',
    params: TransferIdParams,
    success: { status: 200, schema: 'ScheduledTransfer', description: 'The transfer' },
    errors: [401]
  },
  {
    id: 'updateScheduledTransfer', method: 'POST', path: '/baas/scheduled-transfers/$TRANSFER_ID', configName: 'API_BAAS_SCHEDULED_TRANSFER_UPDATE', tag: 'Scheduled transfers',
    summary: 'Change the future runs of a scheduled transfer',
    description: 'Changes amount, memo, description (ACH), the end condition, or re-anchors the schedule with frequency/startDate; executions already made stay. numberOfOccurrences counts every run, past ones included. A COMPLETED, CANCELLED or FAILED transfer is 409.',
    params: TransferIdParams, body: Type.Ref('ScheduledTransferUpdate'),
    success: { status: 200, schema: 'ScheduledTransfer', description: 'The updated transfer' },
    errors: [401, 409, 422]
  },
  {
    id: 'deleteScheduledTransfer', method: 'PUT', path: '/baas/scheduled-transfers/$TRANSFER_ID/delete', configName: 'API_BAAS_SCHEDULED_TRANSFER_DELETE', tag: 'Scheduled transfers',
    summary: 'Delete a scheduled transfer',
    description: 'Removes it whatever its state; afterwards it is 404. Executions already made (and their balance moves) stay.',
    params: TransferIdParams, body: EmptyBody,
    success: { status: 200, schema: 'DeletedScheduledTransfer', description: 'Deleted' },
    errors: [401, 409]
  },
  {
    id: 'cancelScheduledTransfer', method: 'POST', path: '/baas/scheduled-transfers/$TRANSFER_ID/cancel', configName: 'API_BAAS_SCHEDULED_TRANSFER_CANCEL', tag: 'Scheduled transfers',
    summary: 'Cancel a scheduled transfer',
    description: 'ACTIVE → CANCELLED: no further runs; it stays readable. A COMPLETED, CANCELLED or FAILED transfer is 409.',
    params: TransferIdParams, body: EmptyBody,
    success: { status: 200, schema: 'ScheduledTransfer', description: 'The cancelled transfer' },
    errors: [401, 409]
  }
] as const satisfies readonly Operation[]

export type OperationId = (typeof OPERATIONS)[number]['id']

export const OPERATIONS_BY_ID: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map(op => [op.id, op]))

/** An action that reads no body (lock, cancel...): the only kind of write that may be moved to GET. */
export function isBodiless (op: Operation): boolean {
  return op.body === EmptyBody
}

/** Whether an operation changes state, whatever method it was moved to. */
export function isWrite (op: Operation): boolean {
  return op.method !== 'GET'
}

/** Whether a successful call may have made something due on a calendar day (see createsNoDueWork). */
export function mayCreateDueWork (op: Operation): boolean {
  return isWrite(op) && op.createsNoDueWork !== true
}

/** The distinct configuration names, in table order (two customer operations share one). */
export function configurationNames (operations: readonly Operation[] = OPERATIONS): string[] {
  return [...new Set(operations.map(op => op.configName))]
}

/** Every name that moves a route: the configuration names, then their aliases. */
export function acceptedConfigurationNames (operations: readonly Operation[] = OPERATIONS): string[] {
  return [...configurationNames(operations), ...operations.flatMap(op => op.configAliases ?? [])]
}

/** The configuration name a name sets (itself, or the one it is an alias of); undefined for none. */
export function configurationNameOf (name: string, operations: readonly Operation[] = OPERATIONS): string | undefined {
  return operations.find(op => op.configName === name || op.configAliases?.includes(name) === true)?.configName
}

/** A configuration name and its aliases, the configuration name first. */
export function namesOfRoute (configName: string, operations: readonly Operation[] = OPERATIONS): string[] {
  return [configName, ...new Set(operations.filter(op => op.configName === configName).flatMap(op => op.configAliases ?? []))]
}
