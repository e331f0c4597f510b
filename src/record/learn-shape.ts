import type { FieldSpec, Shape } from '../dialect/schema.js'
import type { Notes } from './notes.js'
import { lastToken, type Json } from './pointer.js'
import { commonEnvelope, DATE_TIME, idField, type Sighting } from './sightings.js'

/** A resource shape learned from its sightings, and the values kept per entity. */
export interface LearnedShape {
  name: string
  shape: Shape
  /** Entity id → team pointer → the last value seen, for fields the mock has no rule for. */
  kept: Map<string, Record<string, Json>>
  /** The sightings with an id, in order: the world is built from them. */
  sightings: Sighting[]
  /** The exchanges whose answers taught this shape (with an id or not). */
  shown: number[]
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const E164 = /^\+[1-9]\d{7,14}$/

/** Fields bound by a value of an unmistakable kind: one field of that kind in the shape, else none. */
function bindByKind (fields: Map<string, Json>, name: string, bound: Map<string, FieldSpec>, notes: Notes): void {
  const only = (test: (pointer: string, value: Json) => boolean): string | undefined => {
    const found = [...fields].filter(([p, v]) => !bound.has(p) && test(p, v)).map(([p]) => p)
    return found.length === 1 ? found[0] : undefined
  }
  const bind = (pointer: string | undefined, spec: FieldSpec, why: string): void => {
    if (pointer === undefined) return
    bound.set(pointer, spec)
    notes.learned.push(`${name} ${pointer} → ${typeof spec === 'string' ? spec : spec.from ?? ''}: ${why}`)
  }
  if (name === 'Customer') {
    bind(only((_p, v) => typeof v === 'string' && EMAIL.test(v)), '/email', 'the only e-mail address')
    bind(only((_p, v) => typeof v === 'string' && E164.test(v)), '/phone', 'the only E.164 phone number')
    for (const [pattern, mock, valid, what] of PERSON_NAMES) bind(only((p, v) => typeof v === 'string' && valid.test(v) && pattern.test(lastToken(p))), mock, `the only string named like ${what}`)
  }
  if (name === 'Customer') bindAddress(fields, bound, notes)
  if (name === 'DebitCard') {
    bind(only((p, v) => typeof v === 'string' && /^\d{4}$/.test(v) && /last.?(4|four)|tail/i.test(lastToken(p))), '/last4', '4 digits named like last4')
    const form = only((_p, v) => typeof v === 'string' && /^(virtual|physical)$/i.test(v))
    if (form !== undefined) {
      const seen = fields.get(form) as string
      const cased = (word: string): string => seen === seen.toUpperCase() ? word.toUpperCase() : seen[0] === seen[0]?.toUpperCase() ? word[0]?.toUpperCase() + word.slice(1) : word
      bind(form, { from: '/form', values: { VIRTUAL: cased('virtual'), PHYSICAL: cased('physical') } }, `"${seen}" is a card's form`)
      notes.guessed.push(`DebitCard ${form}: the form value not seen (${seen.toLowerCase() === 'virtual' ? 'physical' : 'virtual'}) is written in the same case as the one seen`)
    }
  }
}

/** A person's names and birth date, by name and format. */
const PERSON_NAMES: Array<[RegExp, string, RegExp, string]> = [
  [/^(first|first.?name|given.?name|forename)$/i, '/firstName', /\S/, 'a first name'],
  [/^(last|last.?name|surname|family.?name)$/i, '/lastName', /\S/, 'a last name'],
  [/^(dob|date.?of.?birth|birth.?date)$/i, '/dateOfBirth', /^\d{4}-\d{2}-\d{2}$/, 'a date of birth']
]

/** The parts of a postal address, by name, with the value the mock's Address takes. */
const ADDRESS_PARTS: Array<[RegExp, string, RegExp]> = [
  [/^(line.?1|street.?1?|address.?line.?1|address1)$/i, '/address/line1', /./],
  [/^(line.?2|street.?2|address.?line.?2|address2|apartment|unit)$/i, '/address/line2', /./],
  [/^(city|town|locality)$/i, '/address/city', /./],
  [/^(state|st|region|province)$/i, '/address/state', /^[A-Z]{2}$/],
  [/^(zip|zip.?code|postal.?code|postcode)$/i, '/address/postalCode', /^\d{5}(-\d{4})?$/],
  [/^(country|country.?code|ctry|cntry)$/i, '/address/country', /^[A-Z]{2}$/]
]

/** A postal address: one object holding a city and a ZIP code, its parts bound by their names (guessed). */
function bindAddress (fields: Map<string, Json>, bound: Map<string, FieldSpec>, notes: Notes): void {
  const parents = new Set([...fields.keys()].map(p => p.slice(0, p.lastIndexOf('/'))))
  for (const at of parents) {
    const parts = new Map<string, string>()
    for (const [pointer, value] of fields) {
      if (pointer.slice(0, pointer.lastIndexOf('/')) !== at || bound.has(pointer) || typeof value !== 'string') continue
      const part = ADDRESS_PARTS.find(([name, , valid]) => name.test(lastToken(pointer)) && valid.test(value))
      if (part !== undefined && ![...parts.values()].includes(part[1])) parts.set(pointer, part[1])
    }
    const found = [...parts.values()]
    if (!found.includes('/address/city') || !found.includes('/address/postalCode')) continue
    for (const [pointer, mock] of parts) bound.set(pointer, mock)
    notes.guessed.push(`Customer ${at || '/'}: a postal address by its members' names (${[...parts].map(([p, m]) => `${p} → ${m}`).join(', ')})`)
    return
  }
}

/** Values of a field over the sightings of one operation. */
function valuesOf (sightings: readonly Sighting[], operation: string, pointer: string): Json[] {
  return sightings.filter(s => s.operation.id === operation && s.fields.has(pointer)).map(s => s.fields.get(pointer) as Json)
}

const constant = (values: readonly Json[]): Json | undefined => values.length > 0 && values.every(v => v === values[0]) ? values[0] : undefined

/**
 * The card's state: a field that lockCard always answers with one value and unlockCard with
 * another. Several candidates: the one named like a state.
 */
function bindCardState (sightings: readonly Sighting[], pointers: readonly string[], bound: Map<string, FieldSpec>, notes: Notes): void {
  const candidates = pointers.filter(p => {
    if (bound.has(p)) return false
    const locked = constant(valuesOf(sightings, 'lockCard', p))
    const active = constant(valuesOf(sightings, 'unlockCard', p))
    return locked !== undefined && active !== undefined && locked !== active && !(typeof locked === 'string' && DATE_TIME.test(locked))
  })
  candidates.sort((a, b) => Number(/state|status|lock|frozen/i.test(lastToken(b))) - Number(/state|status|lock|frozen/i.test(lastToken(a))))
  const pointer = candidates[0]
  if (pointer === undefined) {
    notes.edit.push('DebitCard: no field changed between lockCard and unlockCard answers, so the card\'s state is not bound; record a lock and an unlock of one card, or add `{ from: /status, values: { ACTIVE: …, LOCKED: … } }` by hand')
    return
  }
  const locked = constant(valuesOf(sightings, 'lockCard', pointer)) as Json
  const active = constant(valuesOf(sightings, 'unlockCard', pointer)) as Json
  bound.set(pointer, { from: '/status', values: { ACTIVE: active, LOCKED: locked } })
  notes.learned.push(`DebitCard ${pointer} → /status: lockCard answered ${JSON.stringify(locked)} (LOCKED), unlockCard ${JSON.stringify(active)} (ACTIVE)`)
  if (candidates.length > 1) notes.guessed.push(`DebitCard ${pointer} chosen as the state over ${candidates.slice(1).join(', ')}, which changed too`)
  notes.guessed.push('DebitCard: the states never seen (CLOSED, PENDING_ACTIVATION) answer the mock\'s own names; map them in dialect.yaml when your backend names them')
}

/** A timestamp that a write changed, on one entity: the entity's updatedAt. */
function bindUpdatedAt (name: string, sightings: readonly Sighting[], pointers: readonly string[], bound: Map<string, FieldSpec>, notes: Notes): void {
  const changed = pointers.filter(p => {
    if (bound.has(p)) return false
    const byEntity = new Map<string, Set<Json>>()
    for (const s of sightings) {
      const value = s.fields.get(p)
      if (s.id === undefined || typeof value !== 'string' || !DATE_TIME.test(value)) continue
      byEntity.set(s.id, (byEntity.get(s.id) ?? new Set()).add(value))
    }
    return [...byEntity.values()].some(values => values.size > 1)
  })
  if (changed.length === 1) {
    bound.set(changed[0] as string, '/updatedAt')
    notes.learned.push(`${name} ${changed[0] as string} → /updatedAt: a timestamp that changed with a write`)
  } else if (changed.length > 1) {
    notes.edit.push(`${name}: ${changed.join(', ')} all changed with writes; bind the one that is the last change to /updatedAt`)
  }
}

/** The customer is one per persona: read without an id, it is still the one the answers showed. */
export const MADE_UP_CUSTOMER_ID = 'cus_recorded'

/**
 * No field named like an id: the only string that never changed across two reads or more is
 * taken as the id; else a customer gets an id made up (said so), anything else a hand edit.
 */
function bindStableId (name: string, sightings: Sighting[], pointers: readonly string[], bound: Map<string, FieldSpec>, notes: Notes): void {
  const stable = sightings.length < 2
    ? []
    : pointers.filter(p => !bound.has(p) && sightings.every(s => typeof s.fields.get(p) === 'string' && s.fields.get(p) === sightings[0]?.fields.get(p) && !DATE_TIME.test(s.fields.get(p) as string)))
  const pointer = stable.length === 1 ? stable[0] : undefined
  if (pointer !== undefined) {
    bound.set(pointer, '/id')
    for (const s of sightings) s.id = s.fields.get(pointer) as string
    notes.guessed.push(`${name} ${pointer} → /id: the only string that stayed the same across ${sightings.length} reads`)
    return
  }
  if (name !== 'Customer') {
    notes.edit.push(`${name}: no id field found; bind one to /id by hand`)
    return
  }
  for (const s of sightings) s.id = MADE_UP_CUSTOMER_ID
  notes.guessed.push(`Customer: the answers show no id; the customer they show is ${MADE_UP_CUSTOMER_ID} in customers.yaml (an id made up; bind your id field to /id in dialect.yaml if there is one)`)
}

export function learnShape (name: string, sightings: readonly Sighting[], notes: Notes): LearnedShape | undefined {
  const first = sightings[0]
  if (first === undefined) return undefined
  const envelope = commonEnvelope(sightings)
  const agreeing = sightings.filter(s => s.envelope === envelope)
  if (agreeing.length < sightings.length) notes.edit.push(`${name}: ${sightings.length - agreeing.length} answer(s) put the resource elsewhere than ${envelope || 'the root'}; only the others were learned from`)
  const pointers = [...new Set(agreeing.flatMap(s => [...s.fields.keys()]))]
  const bound = new Map<string, FieldSpec>()
  // The id: the field equal to the path parameter, else a field named like an id.
  const idBy = agreeing.find(s => s.id !== undefined && Object.values(s.exchange.params).includes(s.id))
  const idPointer: string | undefined = idBy !== undefined
    ? [...idBy.fields].find(([, v]) => v === idBy.id)?.[0]
    : idField(first.fields)
  if (idPointer !== undefined) {
    bound.set(idPointer, '/id')
    notes.learned.push(`${name} ${idPointer} → /id: ${idBy !== undefined ? `equal to the path parameter of ${idBy.operation.id}` : 'named like an id (guessed: no path parameter showed it)'}`)
    if (idBy === undefined) notes.guessed.push(`${name} ${idPointer} taken as the id by its name`)
  }
  bindByKind(new Map([...agreeing.flatMap(s => [...s.fields])]), name, bound, notes)
  if (idPointer === undefined) bindStableId(name, agreeing, pointers, bound, notes)
  if (name === 'DebitCard') bindCardState(agreeing, pointers, bound, notes)
  bindUpdatedAt(name, agreeing, pointers, bound, notes)

  const kept = new Map<string, Record<string, Json>>()
  const fields: Record<string, FieldSpec> = {}
  const keptPointers: string[] = []
  for (const pointer of pointers) {
    const spec = bound.get(pointer)
    if (spec !== undefined) {
      fields[pointer] = spec
      continue
    }
    const seen = agreeing.find(s => s.fields.has(pointer))?.fields.get(pointer) ?? null
    fields[pointer] = { default: seen }
    keptPointers.push(pointer)
  }
  for (const s of agreeing) {
    if (s.id === undefined) continue
    const values = kept.get(s.id) ?? {}
    for (const pointer of keptPointers) if (s.fields.has(pointer)) values[pointer] = s.fields.get(pointer) as Json
    kept.set(s.id, values)
  }
  if (keptPointers.length > 0) notes.learned.push(`${name}: ${keptPointers.join(', ')} kept as recorded values of each entity (the mock has no rule for them)`)
  return { name, shape: { ...envelope === '' ? {} : { envelope }, fields }, kept, sightings: agreeing.filter(s => s.id !== undefined), shown: agreeing.map(s => s.index) }
}
