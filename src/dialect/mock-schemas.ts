import type { TSchema } from 'typebox'
import { SHARED_SCHEMAS, SERIALIZED_AS } from '../core/schemas/index.js'
import { Statement } from '../core/schemas/statement.js'

/**
 * The mock's schemas by name, as its answers are written: what a dialect's mock pointers point
 * into. ScheduledTransfer is its flat serialized form (either kind's fields), not the document's oneOf.
 */
const BY_NAME = new Map<string, TSchema>()
for (const schema of [...SHARED_SCHEMAS, Statement]) BY_NAME.set((schema as { $id: string }).$id, schema)
for (const [name, schema] of Object.entries(SERIALIZED_AS)) BY_NAME.set(name, schema)

export function mockSchema (name: string): TSchema | undefined {
  return BY_NAME.get(name)
}

/** What a pointer reaches in a schema: a schema, `any` (an open object, such as a problem's extensions), or nothing. */
export type Reached = TSchema | 'any' | undefined

/** A schema read as the JSON Schema it is. */
interface Node {
  $ref?: string
  type?: string
  anyOf?: TSchema[]
  oneOf?: TSchema[]
  items?: TSchema
  properties?: Record<string, TSchema>
  additionalProperties?: unknown
  enum?: unknown[]
}

/** One RFC 6901 token written into a pointer (`~` and `/` escaped), and read back. */
export function escapeToken (token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

export function unescapeToken (token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~')
}

/** RFC 6901 tokens of a pointer ("" is none). */
export function pointerTokens (pointer: string): string[] {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map(unescapeToken)
}

export function pointerOf (tokens: readonly string[]): string {
  return tokens.map(token => `/${escapeToken(token)}`).join('')
}

/** The schema at `tokens` below `schema`, following `$ref`s by name and any branch of a union. */
export function schemaAt (schema: Reached, tokens: readonly string[]): Reached {
  if (schema === undefined || schema === 'any') return schema
  const node = resolve(schema)
  const branches = node.anyOf ?? node.oneOf
  if (branches !== undefined) {
    for (const branch of branches) {
      const found = schemaAt(branch, tokens)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (tokens.length === 0) return node
  const [token, ...rest] = tokens as [string, ...string[]]
  if (node.type === 'array' || node.items !== undefined) return /^\d+$/.test(token) ? schemaAt(node.items, rest) : undefined
  const properties = node.properties
  const property = properties !== undefined && Object.hasOwn(properties, token) ? properties[token] : undefined
  if (property !== undefined) return schemaAt(property, rest)
  return node.additionalProperties === true ? 'any' : undefined
}

/** The enum values a schema (or the items of an array schema) allows; undefined when it is no enum. */
export function enumOf (schema: Reached): readonly unknown[] | undefined {
  if (schema === undefined || schema === 'any') return undefined
  const node = resolve(schema)
  if (Array.isArray(node.enum)) return node.enum
  if (node.items !== undefined) return enumOf(node.items)
  return undefined
}

/** Whether a schema is an array (what a nested shape renders item by item). */
export function isArraySchema (schema: Reached): boolean {
  return schema !== undefined && schema !== 'any' && resolve(schema).type === 'array'
}

function resolve (schema: TSchema): Node {
  let node = schema as Node
  for (let i = 0; i < 8 && typeof node.$ref === 'string'; i++) node = (BY_NAME.get(node.$ref.split('#')[0] ?? '') ?? node) as Node
  return node
}

/** The name a `$ref` schema refers to (a request body's CustomerUpdate); undefined for an inline one. */
export function refName (schema: TSchema): string | undefined {
  const ref = (schema as Node).$ref
  return typeof ref === 'string' ? ref : undefined
}
