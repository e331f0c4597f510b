/**
 * The NACHA return reason codes the mock simulates: the one table the domain, the schemas, the
 * magic account numbers and the docs use. Reasons are the Nacha Operating Rules' titles.
 * - endsTransfer: after such a return the originator must stop sending entries to that account
 *   (it is closed, missing, invalid, frozen or not a transaction account) or until it has a new
 *   authorization; the scheduled transfer becomes FAILED and runs no more. R01 (no money today)
 *   and R08 (this payment stopped) leave it running.
 * - extendedWindow: consumer claims of an unauthorized debit may come back up to 60 calendar days
 *   after settlement; every other code within 2 banking days of it.
 */
export const RETURN_CODE_TABLE = {
  R01: { reason: 'Insufficient Funds', endsTransfer: false, extendedWindow: false },
  R02: { reason: 'Account Closed', endsTransfer: true, extendedWindow: false },
  R03: { reason: 'No Account/Unable to Locate Account', endsTransfer: true, extendedWindow: false },
  R04: { reason: 'Invalid Account Number Structure', endsTransfer: true, extendedWindow: false },
  R07: { reason: 'Authorization Revoked by Customer', endsTransfer: true, extendedWindow: true },
  R08: { reason: 'Payment Stopped', endsTransfer: false, extendedWindow: false },
  R10: { reason: 'Customer Advises Originator is Not Known to Receiver and/or Originator is Not Authorized by Receiver to Debit Receiver\'s Account', endsTransfer: true, extendedWindow: true },
  R16: { reason: 'Account Frozen/Entry Returned Per OFAC Instruction', endsTransfer: true, extendedWindow: false },
  R20: { reason: 'Non-Transaction Account', endsTransfer: true, extendedWindow: false },
  R29: { reason: 'Corporate Customer Advises Not Authorized', endsTransfer: true, extendedWindow: false }
} as const satisfies Record<string, { reason: string; endsTransfer: boolean; extendedWindow: boolean }>

export type ReturnCode = keyof typeof RETURN_CODE_TABLE

export const RETURN_CODES = Object.keys(RETURN_CODE_TABLE) as ReturnCode[]

/** Banking days after settlement within which a return may arrive (most codes). */
export const RETURN_WINDOW_BANKING_DAYS = 2
/** Calendar days after settlement for the unauthorized-debit codes (extendedWindow). */
export const EXTENDED_RETURN_WINDOW_DAYS = 60

export function isReturnCode (code: string): code is ReturnCode {
  return Object.hasOwn(RETURN_CODE_TABLE, code)
}

export function returnReason (code: ReturnCode): string {
  return RETURN_CODE_TABLE[code].reason
}

/** Modern Treasury's sandbox convention: counterparty account number 100NN → every entry returns RNN. */
const MAGIC_ACCOUNT_NUMBER = /^100(\d\d)$/

/**
 * What a counterparty account number asks for: nothing (an ordinary number), a return code in the
 * table, or a code the mock does not simulate (the caller refuses it, so that 10005 does not
 * silently settle when R05 was meant).
 */
export function magicReturnCode (accountNumber: string): { code: ReturnCode } | { unsupported: string } | undefined {
  const match = MAGIC_ACCOUNT_NUMBER.exec(accountNumber)
  if (match === null) return undefined
  const code = `R${match[1] ?? ''}`
  return isReturnCode(code) ? { code } : { unsupported: code }
}
