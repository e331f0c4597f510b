import type { TSchema } from 'typebox'
import { SHARED_SCHEMAS } from './schemas/index.js'
import { REDACTED } from '../world/secret-names.js'

/**
 * Fields a schema marks secret, so the journal never keeps them: JSON Schema's `writeOnly`
 * ("sent by the client, never shown back"), which OpenAPI shows too. A verification code and a
 * PIN carry it. Found once per schema by walking it (through `$ref`s to the shared schemas).
 */

/** A field's place in a body: property names, `*` for every item of an array. */
export type FieldPath = readonly string[]

const SHARED = new Map(SHARED_SCHEMAS.map(schema => [(schema as { $id?: string }).$id, schema]))

interface SchemaNode {
  $ref?: string
  writeOnly?: boolean
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  anyOf?: SchemaNode[]
  oneOf?: SchemaNode[]
  allOf?: SchemaNode[]
}

/** The secret fields of a body schema; none for a schema without any (most). */
export function secretFields (schema: TSchema | undefined): FieldPath[] {
  const found: FieldPath[] = []
  const walk = (node: SchemaNode | undefined, at: string[], seen: ReadonlySet<SchemaNode>): void => {
    if (node === undefined || seen.has(node)) return
    const inside = new Set(seen).add(node)
    if (node.$ref !== undefined) return walk(SHARED.get(node.$ref) as SchemaNode | undefined, at, inside)
    if (node.writeOnly === true && at.length > 0) {
      found.push(at)
      return
    }
    for (const [name, property] of Object.entries(node.properties ?? {})) walk(property, [...at, name], inside)
    walk(node.items, [...at, '*'], inside)
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) walk(branch, at, inside)
  }
  walk(schema as SchemaNode | undefined, [], new Set())
  return found
}

/** `body` with the value at each of `fields` replaced by [REDACTED]; the rest shared, not copied. */
export function redactFields (body: unknown, fields: readonly FieldPath[]): unknown {
  let out = body
  for (const field of fields) out = redactAt(out, field, 0)
  return out
}

function redactAt (value: unknown, field: FieldPath, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value
  const name = field[depth] as string
  const last = depth === field.length - 1
  if (Array.isArray(value)) {
    if (name === '*') return value.map(item => last ? REDACTED : redactAt(item, field, depth + 1))
    // One item by its index: a dialect's pointer may name it (`/codes/0`).
    if (!/^\d+$/.test(name) || Number(name) >= value.length) return value
    const copy = [...value]
    copy[Number(name)] = last ? REDACTED : redactAt(value[Number(name)], field, depth + 1)
    return copy
  }
  if (!Object.hasOwn(value, name)) return value
  const record = value as Record<string, unknown>
  return { ...record, [name]: last ? REDACTED : redactAt(record[name], field, depth + 1) }
}
