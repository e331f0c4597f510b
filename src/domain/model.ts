import type { ReturnCode } from './ach-return-codes.js'
import type { Frequency } from './schedule.js'

/**
 * The entities of one mock world. Plain data: JSON-serialisable, no methods. Each closed set of
 * values is declared once here, as a list the schemas (API, fixtures) take their enums from.
 */

export const CUSTOMER_STATUSES = ['ACTIVE', 'FROZEN', 'ARCHIVED'] as const
export type CustomerStatus = typeof CUSTOMER_STATUSES[number]

export interface Address {
  line1: string
  line2?: string | undefined
  city: string
  state: string
  postalCode: string
  country: string
}

export interface Customer {
  id: string
  firstName: string
  lastName: string
  dateOfBirth: string
  email: string
  phone: string
  phoneVerified: boolean
  address: Address
  ssnLast4: string
  status: CustomerStatus
  createdAt: string
  updatedAt: string
}

export const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const
export type AccountType = typeof ACCOUNT_TYPES[number]

export interface Account {
  id: string
  customerId: string
  type: AccountType
  last4: string
  /** Minor units. */
  balance: number
  currency: string
}

export const CARD_FORMS = ['VIRTUAL', 'PHYSICAL'] as const
export type CardForm = typeof CARD_FORMS[number]
export const CARD_STATUSES = ['PENDING_ACTIVATION', 'ACTIVE', 'LOCKED', 'CLOSED'] as const
export type CardStatus = typeof CARD_STATUSES[number]
export const CLOSED_REASONS = ['LOST', 'STOLEN', 'REPLACED', 'CUSTOMER_REQUEST'] as const
export type ClosedReason = typeof CLOSED_REASONS[number]
export const SHIPMENT_STATUSES = ['ORDERED', 'SHIPPED', 'DELIVERED', 'RETURNED'] as const
export type ShipmentStatus = typeof SHIPMENT_STATUSES[number]
export const SHIPPING_METHODS = ['STANDARD', 'EXPRESS', 'PRIORITY'] as const
export type ShippingMethod = typeof SHIPPING_METHODS[number]
export const CARD_NETWORKS = ['VISA', 'MASTERCARD'] as const
export type CardNetwork = typeof CARD_NETWORKS[number]
export const PIN_STATUSES = ['SET', 'NOT_SET'] as const
export type PinStatus = typeof PIN_STATUSES[number]

export interface Shipment {
  status: ShipmentStatus
  method: ShippingMethod
  trackingNumber: string | null
  /** Estimated delivery date, YYYY-MM-DD. */
  eta: string
  address: Address
  orderedAt: string
  shippedAt?: string | undefined
  deliveredAt?: string | undefined
}

export interface DebitCard {
  id: string
  customerId: string
  accountId: string
  form: CardForm
  network: CardNetwork
  last4: string
  maskedPan: string
  expirationMonth: number
  expirationYear: number
  status: CardStatus
  closedReason?: ClosedReason | undefined
  lockedAt?: string | undefined
  pinStatus: PinStatus
  replacementFor?: string | undefined
  replacedBy?: string | undefined
  shipment?: Shipment | undefined
  createdAt: string
  updatedAt: string
}

export interface Statement {
  id: string
  accountId: string
  customerId: string
  periodStart: string
  periodEnd: string
  openingBalance: number
  closingBalance: number
  currency: string
  createdAt: string
}

/** The statement period an account is in now: it closes at the next month end the clock passes. */
export interface StatementCycle {
  accountId: string
  /** First day of the open period (YYYY-MM-DD). */
  periodStart: string
  /** The balance at the start of periodStart: the previous statement's closing balance. */
  openingBalance: number
  /** The account's statements kept, oldest first (see STATEMENTS_KEPT). */
  statementIds: string[]
}

export const VERIFICATION_CHANNELS = ['SMS', 'CALL'] as const
export type VerificationChannel = typeof VERIFICATION_CHANNELS[number]

export interface PhoneVerification {
  id: string
  customerId: string
  phone: string
  channel: VerificationChannel
  code: string
  createdAt: string
  expiresAt: string
  lastSentAt: string
  checksMade: number
  /** Set when the clock passed expiresAt (reported once on the timeline); the record lingers so a late check is 410, not 404. */
  expiredAt?: string | undefined
}

export interface PinLink {
  token: string
  cardId: string
  customerId: string
  expiresAt: string
  usedAt?: string | undefined
}

export const TRANSFER_TYPES = ['INTERNAL', 'ACH'] as const
export type TransferType = typeof TRANSFER_TYPES[number]
export const TRANSFER_STATUSES = ['ACTIVE', 'COMPLETED', 'CANCELLED', 'FAILED'] as const
export type TransferStatus = typeof TRANSFER_STATUSES[number]
export const SEC_CODES = ['PPD', 'CCD', 'WEB'] as const
export type SecCode = typeof SEC_CODES[number]
/** ACH: which way money moves relative to the customer's account. */
export const ACH_DIRECTIONS = ['CREDIT', 'DEBIT'] as const
export type AchDirection = typeof ACH_DIRECTIONS[number]

export interface Counterparty {
  name: string
  routingNumber: string
  accountNumberLast4: string
  accountType: AccountType
}

/**
 * What became of one run. INTERNAL: SUCCEEDED or FAILED at once. ACH: PENDING on its execution
 * date (the money has moved), SETTLED on the next banking day, or RETURNED by the receiving bank;
 * FAILED when it could not be submitted (insufficient funds) and moved nothing.
 */
export const EXECUTION_STATUSES = ['SUCCEEDED', 'FAILED', 'PENDING', 'SETTLED', 'RETURNED'] as const
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number]

export interface TransferExecution {
  scheduledDate: string
  executionDate: string
  amount: number
  status: ExecutionStatus
  failureReason?: string | undefined
  /** ACH: when it settled (the start of the banking day after its execution date). */
  settledAt?: string | undefined
  /** ACH RETURNED: the NACHA return code and its reason, and when the return arrived. */
  returnCode?: ReturnCode | undefined
  returnReason?: string | undefined
  returnedAt?: string | undefined
}

export interface ScheduledTransfer {
  id: string
  customerId: string
  type: TransferType
  amount: number
  currency: string
  fromAccountId: string
  toAccountId?: string | undefined
  counterparty?: Counterparty | undefined
  /** ACH only: which way money moves relative to the customer's account. */
  direction?: AchDirection | undefined
  secCode?: SecCode | undefined
  description?: string | undefined
  memo?: string | undefined
  frequency: Frequency
  startDate: string
  endDate?: string | undefined
  numberOfOccurrences?: number | undefined
  /** Index of the next nominal occurrence counted from the anchor (startDate). */
  nextIndex: number
  nextRunDate: string | null
  occurrencesCompleted: number
  status: TransferStatus
  /** Set by a simulation: the next execution fails with this reason. */
  failNextWith?: string | undefined
  /** ACH to a magic counterparty account number (100NN): every execution comes back with RNN. */
  magicReturnCode?: ReturnCode | undefined
  executions: TransferExecution[]
  /** When the customer cancelled it (status CANCELLED). */
  cancelledAt?: string | undefined
  createdAt: string
  updatedAt: string
}

export const OUTBOX_CHANNELS = ['email', 'sms', 'call'] as const
export type OutboxChannel = typeof OUTBOX_CHANNELS[number]

export interface OutboxMessage {
  id: string
  channel: OutboxChannel
  to: string
  subject?: string | undefined
  body: string
  /** What produced it, e.g. `sendPhoneVerificationCode`. */
  kind: string
  /** Machine-readable extras: the MFA code, the statement id. */
  data: Record<string, unknown>
  customerId: string
  sentAt: string
}
