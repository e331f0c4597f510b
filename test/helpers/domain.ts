import { DomainError } from '../../src/domain/errors.js'
import type { AchTransferRequest } from '../../src/domain/scheduled-transfer.js'

/** Runs `fn`, expecting a DomainError; answers its code, field pointers, message and the error itself. */
export function domainFailure (fn: () => unknown): { code: string; pointers: string[]; message: string; error: DomainError } {
  try {
    fn()
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, pointers: (error.errors ?? []).map(e => e.pointer), message: error.message, error }
    throw error
  }
  throw new Error('expected a DomainError, got none')
}

/** An ACH transfer from Maya's checking to a landlord's account; tests change what they look at. */
export function achRequest (over: Partial<AchTransferRequest> = {}): AchTransferRequest {
  return {
    fromAccountId: 'acct_maya_checking',
    counterparty: { name: 'Bayview Properties', routingNumber: '021000021', accountNumber: '000123458841', accountType: 'CHECKING' },
    amount: 185000,
    frequency: 'MONTHLY',
    startDate: '2026-12-01',
    ...over
  }
}
