import { OPERATIONS_BY_ID } from '../core/operations.js'
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
  return Object.fromEntries(Object.entries(requests).filter(([, shape]) => Object.keys(shape.fields).length > 0))
}
