import { OPERATIONS_BY_ID } from '../core/operations.js'
import { SHARED_SCHEMAS } from '../core/schemas/index.js'
import type { RequestShape } from '../dialect/schema.js'
import type { Exchange } from './exchange.js'
import type { LearnedShape } from './learn-shape.js'
import type { Notes } from './notes.js'
import { isObject, leaves } from './pointer.js'

type RequestField = RequestShape['fields'][string]

/**
 * Request shapes from the bodies sent: a value sent that the answer shows in a bound field goes
 * where that field comes from in the mock (`/data/attributes/email_address` sent and answered →
 * the Customer's /email). Values that never reappear are left for a hand edit.
 */
export function learnRequestShapes (exchanges: readonly Exchange[], shapes: ReadonlyMap<string, LearnedShape>, notes: Notes): Record<string, RequestShape> {
  const requests: Record<string, RequestShape> = {}
  const unmapped = new Map<string, Set<string>>()
  for (const [index, exchange] of exchanges.entries()) {
    const operation = OPERATIONS_BY_ID.get(exchange.operation)
    const body = exchange.request.json
    if (operation === undefined || !isObject(body) || exchange.response.status >= 300) continue
    const learned = shapes.get(operation.success.schema)
    const sighting = learned?.sightings.find(s => s.index === index)
    if (learned === undefined || sighting === undefined) continue
    const fields = requests[operation.id]?.fields ?? {}
    for (const [pointer, value] of leaves(body)) {
      if (fields[pointer] !== undefined) continue
      const answeredAt = [...sighting.fields].find(([, v]) => v === value && value !== null)?.[0]
      const spec = answeredAt === undefined ? undefined : learned.shape.fields[answeredAt]
      const to: RequestField | undefined = typeof spec === 'string'
        ? spec
        : spec?.from !== undefined ? { to: spec.from, ...spec.values !== undefined ? { values: spec.values } : {} } : undefined
      if (to === undefined) {
        unmapped.set(operation.id, (unmapped.get(operation.id) ?? new Set()).add(pointer))
        continue
      }
      fields[pointer] = to
      unmapped.get(operation.id)?.delete(pointer)
      notes.learned.push(`${operation.id} request ${pointer} → ${typeof to === 'string' ? to : to.to}: sent and answered at ${learned.name} ${answeredAt as string}`)
    }
    requests[operation.id] = { fields }
  }
  for (const [operation, pointers] of unmapped) {
    if (pointers.size === 0) continue
    notes.edit.push(`${operation} request ${[...pointers].join(', ')}: the value sent never showed in a bound field of the answer, so the mock refuses it (400); map it under requests.${operation} by hand`)
  }
  const learned = Object.fromEntries(Object.entries(requests).filter(([, shape]) => Object.keys(shape.fields).length > 0))
  for (const [id, shape] of Object.entries(learned)) markPartial(id, shape, notes)
  return learned
}

/** The fields the mock's body of an operation requires (CustomerUpdate: email, phone, address). */
function requiredFields (operationId: string): string[] {
  const body = OPERATIONS_BY_ID.get(operationId)?.body as { $ref?: string; required?: string[] } | undefined
  const schema = body?.$ref === undefined ? body : SHARED_SCHEMAS.find(s => (s as { $id?: string }).$id === body.$ref) as { required?: string[] } | undefined
  return schema?.required ?? []
}

/**
 * A backend that updates partially sends fewer fields than the mock's PUT requires (it replaces
 * them all, DESIGN §4): `merge: true` has the mock keep the current values of the ones left out.
 */
function markPartial (operationId: string, shape: RequestShape, notes: Notes): void {
  const sent = new Set(Object.values(shape.fields).flatMap(spec => typeof spec === 'string' ? [spec] : 'to' in spec ? [spec.to] : []).map(to => to.split('/')[1]))
  const missing = requiredFields(operationId).filter(field => !sent.has(field))
  if (missing.length === 0) return
  shape.merge = true
  notes.learned.push(`${operationId}: the backend updates partially (the recorded body held no ${missing.join(', ')}); requests.${operationId} says merge: true, so the mock keeps their current values`)
}
