import { Type, type TSchema } from 'typebox'
import { CardIdParams } from './http/schemas/debit-card.js'
import { StatementIdParams } from './http/schemas/statement.js'
import { EmptyBody } from './http/schemas/common.js'

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
    description: 'If the customer already has a physical card that is not closed, answers 200 with it; otherwise 201 with a new card, PENDING_ACTIVATION, shipped to the given address or the one on file.',
    body: Type.Ref('PhysicalCardRequest'),
    success: { status: 201, schema: 'DebitCard', description: 'A new physical card (200 with the existing one when already requested)', alternatives: [200] },
    errors: [401, 409]
  },
  {
    id: 'unlockCard', method: 'PUT', path: '/baas/debit-cards/$CARD_ID/unlock', configName: 'API_BAAS_CUSTOMER_CARD_UNLOCK', tag: 'Debit cards',
    summary: 'Unlock a locked card',
    description: 'LOCKED → ACTIVE. Unlocking an ACTIVE card is a no-op (200). A CLOSED or PENDING_ACTIVATION card is 409.',
    params: CardIdParams, body: EmptyBody,
    success: { status: 200, schema: 'DebitCard', description: 'The card' },
    errors: [401, 409]
  },
  {
    id: 'lockCard', method: 'POST', path: '/baas/debit-cards/$CARD_ID/lock', configName: 'API_BAAS_CUSTOMER_CARD_LOCK', tag: 'Debit cards',
    summary: 'Lock a card temporarily',
    description: 'ACTIVE → LOCKED. Locking a LOCKED card is a no-op (200). A CLOSED card is 409.',
    params: CardIdParams, body: EmptyBody,
    success: { status: 200, schema: 'DebitCard', description: 'The card' },
    errors: [401, 409]
  },
  {
    id: 'reissueCard', method: 'POST', path: '/baas/debit-cards/$CARD_ID/reissue', configName: 'API_BAAS_REISSUE', tag: 'Debit cards',
    summary: 'Reissue a card',
    description: 'Closes the card (REPLACED, or LOST/STOLEN) and answers 201 with its replacement. DAMAGED/EXPIRED keep the last 4 digits with a new expiry; LOST/STOLEN get a new number. A physical replacement starts PENDING_ACTIVATION with a shipment ORDERED.',
    params: CardIdParams, body: Type.Ref('ReissueRequest'),
    success: { status: 201, schema: 'DebitCard', description: 'The replacement card' },
    errors: [401, 409]
  },
  {
    id: 'createSetPinUrl', method: 'POST', path: '/baas/debit-cards/$CARD_ID/set-pin-url', configName: 'API_BAAS_SET_PIN', tag: 'Debit cards',
    summary: 'Create a single-use URL to set the card PIN',
    description: 'The URL opens the mock\'s own PIN page; it is single-use and expires after 5 minutes (configurable).',
    params: CardIdParams, body: EmptyBody,
    success: { status: 200, schema: 'SetPinUrl', description: 'The URL and when it expires' },
    errors: [401, 409]
  },
  {
    id: 'sendStatementByEmail', method: 'POST', path: '/baas/statements/$STATEMENT_ID/send-by-email', configName: 'API_BAAS_STATEMENT_BY_EMAIL', tag: 'Statements',
    summary: 'E-mail a statement to the address on file',
    description: 'Queues an e-mail with the statement to the customer\'s address on file (never an arbitrary recipient). The e-mail appears in the mock outbox.',
    params: StatementIdParams, body: Type.Ref('SendStatementRequest'),
    success: { status: 202, schema: 'StatementEmailAck', description: 'Queued' },
    errors: [401, 409]
  },
  {
    id: 'sendPhoneVerificationCode', method: 'POST', path: '/mfa/send-code', configName: 'API_PHONE_VERFICATION_SEND_CODE', tag: 'Phone verification',
    summary: 'Send a verification code to a phone',
    description: 'Sends a 6-digit code by SMS (or voice call), valid 10 minutes, 5 checks. Resending within 30 s is 429; at most 5 sends per number per 10 minutes. A resend within the validity re-sends the same code. The SMS appears in the mock outbox.',
    body: Type.Ref('SendCodeRequest'),
    success: { status: 202, schema: 'SendCodeResponse', description: 'Code sent' },
    errors: [401, 409, 429]
  },
  {
    id: 'verifyPhoneVerificationCode', method: 'POST', path: '/mfa/verify', configName: 'API_PHONE_VERIFICATION_VERIFY_CODE', tag: 'Phone verification',
    summary: 'Check a verification code',
    description: 'Approves the pending verification and marks the phone verified. A wrong code is 422 invalid_code with attemptsRemaining; the sixth check is 429; an expired code is 410; no pending verification is 404.',
    body: Type.Ref('VerifyCodeRequest'),
    success: { status: 200, schema: 'VerifyCodeResponse', description: 'Approved' },
    errors: [401, 410, 422, 429]
  }
] as const satisfies readonly Operation[]

export type OperationId = (typeof OPERATIONS)[number]['id']

export const OPERATIONS_BY_ID: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map(op => [op.id, op]))

/** The distinct configuration names, in table order (two customer operations share one). */
export function configurationNames (operations: readonly Operation[] = OPERATIONS): string[] {
  return [...new Set(operations.map(op => op.configName))]
}
