import { parseDate } from './banking-calendar.js'
import type { DomainContext } from './context.js'
import { DomainError, type DomainErrorCode, type FieldError } from './errors.js'

/**
 * Collects every problem of a transfer request so one answer names all the fields at fault.
 * The error's code is the problems' common code, or `invalid_field` when they differ.
 */
export class TransferProblems {
  private readonly problems: (FieldError & { code: DomainErrorCode })[] = []
  private extensions: Record<string, unknown> = {}

  add (code: DomainErrorCode, pointer: string, message: string, extensions: Record<string, unknown> = {}): void {
    this.problems.push({ code, pointer, message })
    this.extensions = { ...this.extensions, ...extensions }
  }

  throwIfAny (): void {
    const first = this.problems[0]
    if (first === undefined) return
    const codes = new Set(this.problems.map(p => p.code))
    const code = codes.size === 1 ? first.code : 'invalid_field'
    const detail = this.problems.map(p => `${p.pointer.slice(1)} ${p.message}`).join('; ')
    throw new DomainError(code, `The transfer is invalid: ${detail}.`, {
      errors: this.problems.map(({ pointer, message }) => ({ pointer, message })),
      ...(Object.keys(this.extensions).length > 0 ? { extensions: this.extensions } : {})
    })
  }
}

export function isCalendarDate (value: string): boolean {
  try {
    parseDate(value)
    return true
  } catch {
    return false
  }
}

/** Amount rules: a positive whole number of cents, at most the configured limit. */
export function checkAmount (ctx: DomainContext, problems: TransferProblems, amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    problems.add('invalid_field', '/amount', 'must be a positive whole number of cents')
  } else if (amount > ctx.settings.maxTransferAmount) {
    problems.add('amount_over_limit', '/amount', `must be at most ${ctx.settings.maxTransferAmount} cents`, { maxAmount: ctx.settings.maxTransferAmount })
  }
}

/** Nacha widths: company entry description 10, addenda payment information 80. */
export const DESCRIPTION_MAX = 10
export const MEMO_MAX = 80
export const COUNTERPARTY_NAME_MAX = 22

export function checkLength (problems: TransferProblems, pointer: string, value: string | undefined, max: number): void {
  if (value !== undefined && value.length > max) problems.add('invalid_field', pointer, `must be at most ${max} characters`)
}
