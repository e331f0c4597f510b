import { OPERATIONS_BY_ID, type Operation } from '../core/operations.js'
import type { Exchange } from './exchange.js'
import { get, isObject, join, lastToken, leaves, parent, type Json } from './pointer.js'

/** One resource as an answer showed it: where it sat (the envelope), its fields, and whose it is. */
export interface Sighting {
  index: number
  exchange: Exchange
  operation: Operation
  envelope: string
  resource: Record<string, Json>
  fields: Map<string, Json>
  /** The entity's id, when the path or a field gave it. */
  id: string | undefined
}

export const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/

/** Wrappers of one member (`{result: {card: {…}}}`) are the envelope, not the resource. */
function unwrap (value: unknown): string {
  let pointer = ''
  let at = value
  while (isObject(at)) {
    const keys = Object.keys(at)
    const only = keys.length === 1 ? at[keys[0] as string] : undefined
    if (!isObject(only)) break
    pointer = join(pointer, keys[0] as string)
    at = only
  }
  return pointer
}

/** Where a value equal to the path parameter sits, the shallowest first: the resource is the object that holds it. */
function pointerOfValue (value: unknown, wanted: string): string | undefined {
  const found = [...allLeaves(value)].filter(([, v]) => v === wanted).map(([p]) => p)
  found.sort((a, b) => a.split('/').length - b.split('/').length)
  return found[0]
}

/** Every leaf, walking arrays too (an id may sit in a list's item). */
function allLeaves (value: unknown, at = ''): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap((item, i) => allLeaves(item, join(at, i)))
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => allLeaves(v, join(at, k)))
  return [[at, value]]
}

/** Names of an id: `id`, `customerId`, `holder_id`, `ref`, `holder_ref`, `cardRef`. */
const ID_NAME = /(^|[_-]|[a-z])(id|Id|ID|ref|Ref|REF)$|^(id|ref)$/

/** The pointer (relative to the resource) of an id-like field: `id`, else a name ending in id or ref, shallowest first. */
export function idField (fields: ReadonlyMap<string, Json>): string | undefined {
  const candidates = [...fields].filter(([p, v]) => typeof v === 'string' && ID_NAME.test(lastToken(p)))
  candidates.sort(([a], [b]) => a.split('/').length - b.split('/').length || Number(lastToken(b).toLowerCase() === 'id') - Number(lastToken(a).toLowerCase() === 'id'))
  return candidates[0]?.[0]
}

/** The resources the success answers of the exchanges showed, for one of the mock's schemas. */
export function successSightings (exchanges: readonly Exchange[], schema: string): Sighting[] {
  const sightings: Sighting[] = []
  exchanges.forEach((exchange, index) => {
    const operation = OPERATIONS_BY_ID.get(exchange.operation)
    if (operation?.success.schema !== schema || exchange.response.status >= 300) return
    const body = exchange.response.json
    if (!isObject(body)) return
    const params = Object.values(exchange.params)
    const param = params.length === 1 ? params[0] : undefined
    const idAt = param === undefined ? undefined : pointerOfValue(body, param)
    const envelope = idAt === undefined ? unwrap(body) : parent(idAt)
    const resource = get(body, envelope)
    if (!isObject(resource)) return
    const fields = leaves(resource)
    const idPointer = idAt === undefined ? idField(fields) : idAt.slice(envelope.length)
    const id = idPointer === undefined ? undefined : fields.get(idPointer)
    sightings.push({ index, exchange, operation, envelope, resource, fields, id: typeof id === 'string' ? id : undefined })
  })
  return sightings
}

/** The envelope most sightings agree on. */
export function commonEnvelope (sightings: readonly Sighting[]): string {
  const counts = new Map<string, number>()
  for (const s of sightings) counts.set(s.envelope, (counts.get(s.envelope) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}
