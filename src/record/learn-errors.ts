import type { DomainErrorCode } from '../domain/errors.js'
import { OPERATIONS_BY_ID, type Operation, type OperationTag } from '../core/operations.js'
import type { FieldSpec, Shape } from '../dialect/schema.js'
import type { Exchange } from './exchange.js'
import type { Notes } from './notes.js'
import { get, isObject, join, lastToken, leaves, type Json } from './pointer.js'

/** The mock's code for an error answer, where the operation and the status leave one choice. */
const NOT_FOUND: Partial<Record<OperationTag, DomainErrorCode>> = {
  Customers: 'customer_not_found',
  'Debit cards': 'card_not_found',
  Statements: 'statement_not_found',
  'Scheduled transfers': 'transfer_not_found',
  'Phone verification': 'verification_not_found'
}
const CONFLICT: Partial<Record<OperationTag, DomainErrorCode>> = {
  Customers: 'customer_not_writable',
  'Debit cards': 'invalid_card_state',
  'Scheduled transfers': 'invalid_transfer_state'
}

export function mockCodeFor (operation: Operation, status: number): string | undefined {
  if (status === 400) return 'validation_failed'
  if (status === 401) return 'unauthenticated'
  if (status === 404) return NOT_FOUND[operation.tag]
  if (status === 409) return CONFLICT[operation.tag]
  return undefined
}

/** Error bodies in a wrapper of one member (`{error: {…}}`) have it as their envelope. */
function envelopeOf (body: Record<string, Json>): string {
  const keys = Object.keys(body)
  const only = keys.length === 1 ? body[keys[0] as string] : undefined
  return isObject(only) ? join('', keys[0] as string) : ''
}

const CODE_LIKE = /^[A-Za-z][A-Za-z0-9_.:-]*$/

/**
 * The error shape (the mock's Problem) from the error answers seen: the member equal to the status
 * is /status, a code-like string is /code with the mock's codes mapped to the backend's, a sentence
 * is /detail; any other member answers the value seen.
 */
export function learnErrorShape (exchanges: readonly Exchange[], notes: Notes): Shape | undefined {
  const errors = exchanges.flatMap(exchange => {
    const operation = OPERATIONS_BY_ID.get(exchange.operation)
    const body = exchange.response.json
    return operation !== undefined && exchange.response.status >= 400 && isObject(body) ? [{ exchange, operation, body }] : []
  })
  if (errors.length === 0) return undefined
  const envelope = envelopeOf(errors[0]?.body ?? {})
  const seen = errors.map(e => ({ ...e, fields: leaves(get(e.body, envelope)) }))
  const pointers = [...new Set(seen.flatMap(s => [...s.fields.keys()]))]
  const fields: Record<string, FieldSpec> = {}
  const all = (pointer: string, test: (value: Json, status: number) => boolean): boolean =>
    seen.every(s => !s.fields.has(pointer) || test(s.fields.get(pointer) as Json, s.exchange.response.status))
  const statusAt = pointers.find(p => all(p, (v, status) => v === status || v === String(status)))
  if (statusAt !== undefined) fields[statusAt] = '/status'
  const codeCandidates = pointers.filter(p => p !== statusAt && all(p, v => typeof v === 'string' && CODE_LIKE.test(v)))
  codeCandidates.sort((a, b) => Number(/code|error|type|reason/i.test(lastToken(b))) - Number(/code|error|type|reason/i.test(lastToken(a))))
  const codeAt = codeCandidates[0]
  if (codeAt !== undefined) {
    const values: Record<string, Json> = {}
    for (const s of seen) {
      const mock = mockCodeFor(s.operation, s.exchange.response.status)
      const theirs = s.fields.get(codeAt)
      if (theirs === undefined) continue
      if (mock === undefined) {
        notes.edit.push(`Problem ${codeAt}: ${s.operation.id} answered ${s.exchange.response.status} ${JSON.stringify(theirs)}, which the status does not tie to one of the mock's codes; add it to the value map by hand`)
      } else if (values[mock] === undefined) {
        values[mock] = theirs
        notes.learned.push(`Problem ${codeAt}: the mock's ${mock} is ${JSON.stringify(theirs)} (${s.operation.id} answered ${s.exchange.response.status})`)
      }
    }
    fields[codeAt] = { from: '/code', values }
    notes.guessed.push('Problem: the mock\'s error codes never seen answer under their own names (card_closed, invalid_field, …)')
  } else {
    notes.edit.push('Problem: no code-like field in the error answers; the mock\'s codes are not shown')
  }
  const detailAt = pointers.find(p => p !== codeAt && p !== statusAt && all(p, v => typeof v === 'string' && /\s/.test(v)))
  if (detailAt !== undefined) fields[detailAt] = '/detail'
  for (const pointer of pointers) {
    if (fields[pointer] !== undefined) continue
    const values = seen.filter(s => s.fields.has(pointer)).map(s => s.fields.get(pointer) as Json)
    fields[pointer] = values.every(v => JSON.stringify(v) === JSON.stringify(values[0])) ? { const: values[0] ?? null } : { default: values[0] ?? null }
    notes.guessed.push(`Problem ${pointer}: answers ${JSON.stringify(values[0])} (the value seen); the mock has no rule for it`)
  }
  notes.learned.push(`Problem: ${errors.length} error answer(s) (${[...new Set(errors.map(e => e.exchange.response.status))].join(', ')}) learned as one shape${statusAt !== undefined ? `, ${statusAt} the status` : ''}${detailAt !== undefined ? `, ${detailAt} the detail` : ''}`)
  const contentType = errors[0]?.exchange.response.headers['content-type']?.split(';')[0]?.trim()
  return { ...envelope === '' ? {} : { envelope }, fields, ...contentType !== undefined && contentType !== '' ? { contentType } : {} }
}
