import { pointerOf, pointerTokens } from './mock-schemas.js'
import { OPERATIONS_BY_ID } from '../core/operations.js'
import type { DialectFile, FieldSpec, RequestShape, Shape } from './schema.js'
import { RESOURCE_BODIES } from './view.js'

/**
 * The contract in a team's dialect: the mock's OpenAPI document with every shaped answer, error
 * and request body written as the team's backend shows it, so that a client generated from the
 * served document matches the team's backend. Operation ids, paths, parameters and security stay;
 * the control plane (/__mock) keeps the mock's own shapes. Pure: no Fastify, the input is not changed.
 */

type Schema = Record<string, unknown>
interface Document {
  paths?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, Schema> } & Record<string, unknown>
  [key: string]: unknown
}
interface Operation {
  operationId?: string
  requestBody?: { content?: Record<string, { schema?: Schema }> } & Record<string, unknown>
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> } & Record<string, unknown>>
}

const SCHEMAS = '#/components/schemas/'
const PROBLEM_MEDIA_TYPE = 'application/problem+json'
const DEFAULT_MEDIA_TYPE = 'application/json'

/** The shaped document. A dialect with no shapes and no requests gives the document back as it is. */
export function shapeContract<D extends object> (document: D, dialect: DialectFile): D {
  const shapes = dialect.shapes ?? {}
  const requests = dialect.requests ?? {}
  if (Object.keys(shapes).length === 0 && Object.keys(requests).length === 0) return document
  const original = document as Document
  const doc = structuredClone(document) as Document
  const components = doc.components ??= {}
  const schemas = components.schemas ??= {}
  const builder = new ShapeBuilder(original, dialect, schemas)
  // The mock's schemas each shape is keyed by: the team's schema takes the name's place.
  for (const name of Object.keys(shapes)) {
    const mock = original.components?.schemas?.[name]
    if (mock !== undefined) builder.component(name, { $ref: SCHEMAS + name })
  }
  for (const path of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(path) as Operation[]) {
      if (typeof operation !== 'object' || operation === null) continue
      if (operation.operationId === undefined || OPERATIONS_BY_ID.get(operation.operationId as never) === undefined) {
        keepMockSchemas(operation, original, schemas, shapes)
        continue
      }
      shapeResponses(operation, shapes, builder)
      shapeRequest(operation, original, requests, shapes, builder)
    }
  }
  pruneComponents(doc)
  return doc as D
}

/**
 * The control plane answers in the mock's own shapes (its errors are problem+json whatever the
 * dialect): what it refers to by a shaped name refers to the mock's schema, kept as `Mock<Name>`.
 */
function keepMockSchemas (operation: Operation, original: Document, schemas: Record<string, Schema>, shapes: Record<string, Shape>): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) { value.forEach(visit); return }
    if (value === null || typeof value !== 'object') return
    const record = value as Schema
    const name = refName(record)
    const mock = name === undefined ? undefined : original.components?.schemas?.[name]
    if (name !== undefined && mock !== undefined && shapes[name] !== undefined) {
      record.$ref = `${SCHEMAS}Mock${name}`
      schemas[`Mock${name}`] ??= inline(original, mock)
    }
    for (const child of Object.values(record)) visit(child)
  }
  visit(operation)
}

/** Answers: a shaped schema's body becomes the team's (with its envelope); every error the Problem shape. */
function shapeResponses (operation: Operation, shapes: Record<string, Shape>, builder: ShapeBuilder): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const content = response.content
    if (content === undefined) continue
    const error = Number(status) >= 400 || status === 'default'
    const problem = shapes.Problem
    if (error && problem !== undefined) {
      if (content[PROBLEM_MEDIA_TYPE] === undefined) continue
      response.content = { [problem.contentType ?? DEFAULT_MEDIA_TYPE]: { schema: builder.whole('Problem', problem) } }
      continue
    }
    const json = content[DEFAULT_MEDIA_TYPE]
    const name = refName(json?.schema)
    const shape = name === undefined ? undefined : shapes[name]
    if (name === undefined || shape === undefined || json === undefined) continue
    response.content = { [shape.contentType ?? DEFAULT_MEDIA_TYPE]: { ...json, schema: builder.whole(name, shape) } }
  }
}

/** A request body in the team's shape: `requests.<operation>`, else the inverse of its resource's shape. */
function shapeRequest (operation: Operation, original: Document, requests: Record<string, RequestShape>, shapes: Record<string, Shape>, builder: ShapeBuilder): void {
  const id = operation.operationId ?? ''
  const media = operation.requestBody?.content?.[DEFAULT_MEDIA_TYPE]
  if (media?.schema === undefined) return
  const input = media.schema
  const request = requests[id]
  const resource = RESOURCE_BODIES[id]
  const shape = resource === undefined ? undefined : shapes[resource]
  if (request !== undefined) {
    media.schema = builder.tree(Object.entries(request.fields).map(([team, spec]) => {
      if (typeof spec === 'string') return builder.copied(team, input, spec)
      if ('const' in spec) return { team, schema: constSchema(spec.const), required: true }
      return builder.copied(team, input, spec.to, spec.values)
    }))
  } else if (shape !== undefined) {
    // Only what lands in the operation's input is read; the rest of the resource (its id, its dates) is not sent.
    const fields = Object.entries(shape.fields).flatMap(([team, spec]): Leaf[] => {
      if (typeof spec !== 'string' && spec.const !== undefined) return [{ team, schema: constSchema(spec.const), required: true }]
      const from = typeof spec === 'string' ? spec : spec.template === undefined ? spec.from : undefined
      if (from === undefined || mockAt(original, input, from) === undefined) return []
      return [builder.copied(team, input, from, typeof spec === 'string' ? undefined : spec.values)]
    })
    media.schema = builder.tree(shape.envelope === undefined || shape.envelope === '' ? fields : [{ team: shape.envelope, schema: builder.tree(fields), required: true }])
  }
}

/** A team field: where it goes in the team's document, its schema, and whether it is always there. */
interface Leaf { team: string; schema: Schema; required: boolean }

/** Builds the team's schemas from the mock's, field by field. */
class ShapeBuilder {
  private readonly built = new Set<string>()
  constructor (private readonly original: Document, private readonly dialect: DialectFile, private readonly schemas: Record<string, Schema>) {}

  /** The whole answer: the shaped component inside its envelope. */
  whole (name: string, shape: Shape): Schema {
    const ref = { $ref: SCHEMAS + name }
    if (shape.envelope === undefined || shape.envelope === '') return ref
    return this.tree([{ team: shape.envelope, schema: ref, required: true }])
  }

  /** Writes the team's schema of shape `name` into components, over the mock schema it renders (once). */
  component (name: string, mock: Schema): void {
    if (this.built.has(name)) return
    this.built.add(name)
    const shape = this.dialect.shapes?.[name]
    if (shape === undefined) return
    this.schemas[name] = {
      ...this.tree(Object.entries(shape.fields).map(([team, spec]) => this.field(name, team, spec, mock))),
      description: `${name}, as the team's backend shows it (dialect)`
    }
  }

  private field (shapeName: string, team: string, spec: FieldSpec, mock: Schema): Leaf {
    if (typeof spec === 'string') return this.copied(team, mock, spec)
    if (spec.const !== undefined) return { team, schema: constSchema(spec.const), required: true }
    if (spec.template !== undefined) return { team, schema: { description: 'Computed by the dialect\'s template' }, required: true }
    if (spec.from === undefined) {
      const kept = Object.values(this.dialect.entities?.[shapeName] ?? {}).flatMap(values => Object.hasOwn(values, team) ? [values[team]] : [])
      return { team, schema: typeOfValues([spec.default ?? null, ...kept]), required: true }
    }
    if (spec.shape !== undefined) {
      const found = mockAt(this.original, mock, spec.from)
      const over = found === undefined ? {} : found.schema
      const array = resolved(this.original, over).type === 'array'
      this.component(spec.shape, array ? (resolved(this.original, over).items as Schema | undefined) ?? {} : over)
      const ref = { $ref: SCHEMAS + spec.shape }
      return { team, schema: array ? { type: 'array', items: ref } : ref, required: found?.required === true || spec.default !== undefined }
    }
    const copied = this.copied(team, mock, spec.from, spec.values)
    if (spec.default === undefined) return copied
    return { team, schema: { anyOf: [copied.schema, typeOfValues([spec.default])] }, required: true }
  }

  /** The mock's schema at `from` under `mock`, its enum mapped through `values`. */
  copied (team: string, mock: Schema, from: string, values?: Record<string, unknown>): Leaf {
    const found = mockAt(this.original, mock, from)
    const schema = found === undefined ? {} : inline(this.original, found.schema)
    return { team, schema: values === undefined ? schema : mapped(this.original, schema, values), required: found?.required === true }
  }

  /** One object (or array) schema holding each leaf at its team pointer; a container is required when something in it is. */
  tree (leaves: readonly Leaf[]): Schema {
    const direct = leaves.find(leaf => leaf.team === '')
    if (direct !== undefined) return direct.schema
    const groups = new Map<string, Leaf[]>()
    for (const leaf of leaves) {
      const [head = '', ...rest] = tokens(leaf.team)
      groups.set(head, [...groups.get(head) ?? [], { ...leaf, team: pointer(rest) }])
    }
    const arrayLike = [...groups.keys()].every(key => /^\d+$/.test(key))
    if (arrayLike) {
      // /errors/0/code: the items of a list, as its first item shows them.
      const items = [...groups.values()].flat()
      return { type: 'array', items: this.tree(items), ...items.some(leaf => leaf.required) ? { minItems: 1 } : {} }
    }
    const properties: Record<string, Schema> = {}
    const required: string[] = []
    for (const [key, group] of groups) {
      properties[key] = this.tree(group)
      if (group.some(leaf => leaf.required)) required.push(key)
    }
    return { type: 'object', ...required.length > 0 ? { required } : {}, properties, additionalProperties: false }
  }
}

/** The schema at a mock pointer, through $refs and both branches of a oneOf; required when every step is, in every branch. */
function mockAt (doc: Document, schema: Schema, from: string): { schema: Schema; required: boolean } | undefined {
  let reached: { schema: Schema; required: boolean }[] = [{ schema, required: true }]
  for (const token of tokens(from)) {
    const next: { schema: Schema; required: boolean }[] = []
    let missing = false
    for (const { schema: at, required } of reached) {
      for (const node of branches(doc, at)) {
        const properties = node.properties as Record<string, Schema> | undefined
        if (properties !== undefined && Object.hasOwn(properties, token)) {
          next.push({ schema: properties[token] as Schema, required: required && ((node.required as string[] | undefined) ?? []).includes(token) })
        } else if (node.items !== undefined && /^\d+$/.test(token)) {
          next.push({ schema: node.items as Schema, required: false })
        } else {
          missing = true
        }
      }
    }
    if (next.length === 0) return undefined
    reached = missing ? next.map(r => ({ ...r, required: false })) : next
  }
  const distinct = [...new Map(reached.map(r => [JSON.stringify(r.schema), r.schema])).values()]
  return { schema: distinct.length === 1 ? distinct[0] as Schema : { anyOf: distinct }, required: reached.every(r => r.required) }
}

/** The schemas a value may match: the schema itself, or each branch of its oneOf/anyOf, $refs followed. */
function branches (doc: Document, schema: Schema): Schema[] {
  const node = resolved(doc, schema)
  const union = (node.oneOf ?? node.anyOf) as Schema[] | undefined
  return union === undefined ? [node] : union.flatMap(branch => branches(doc, branch))
}

function resolved (doc: Document, schema: Schema): Schema {
  let node = schema
  for (let i = 0; i < 16; i++) {
    const name = refName(node)
    const target = name === undefined ? undefined : doc.components?.schemas?.[name]
    if (target === undefined) return node
    node = target
  }
  return node
}

/** A copy of a mock schema with its $refs written out: the team's field holds the mock's value as it is, not its shaped form. */
function inline (doc: Document, schema: unknown, depth = 0): Schema {
  if (Array.isArray(schema)) return schema.map(item => inline(doc, item, depth)) as unknown as Schema
  if (schema === null || typeof schema !== 'object') return schema as Schema
  const name = refName(schema as Schema)
  const target = name === undefined ? undefined : doc.components?.schemas?.[name]
  if (target !== undefined && depth < 16) return inline(doc, target, depth + 1)
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id' || key === 'discriminator') continue
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, inline(doc, v, depth)])) : inline(doc, value, depth)
  }
  return out
}

/** A value map turns the mock's enum into the team's (a value not listed passes through). */
function mapped (doc: Document, schema: Schema, values: Record<string, unknown>): Schema {
  const map = (value: unknown): unknown => typeof value === 'string' && Object.hasOwn(values, value) ? values[value] : value
  const node = resolved(doc, schema)
  if (Array.isArray(node.enum)) {
    const team = [...new Set(node.enum.map(map))]
    return { ...typeOfValues(team, false), enum: team, ...typeof node.description === 'string' ? { description: node.description } : {} }
  }
  if (node.type === 'array' && node.items !== undefined) return { ...node, items: mapped(doc, node.items as Schema, values) }
  // No enum to map: the mapped values, or any value of the mock's type passing through.
  return { anyOf: [{ enum: [...new Set(Object.values(values))] }, node] }
}

function constSchema (value: unknown): Schema {
  return { ...typeOfValues([value], false), const: value }
}

const JSON_TYPE = (value: unknown): string => value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value

/** The JSON type(s) of some values: a kept value's schema (nullable when its default is null). */
function typeOfValues (values: readonly unknown[], withDescription = true): Schema {
  let types = [...new Set(values.map(JSON_TYPE))]
  if (types.includes('integer') && types.includes('number')) types = types.filter(type => type !== 'integer')
  const type = types.length === 1 ? types[0] : types
  return { type, ...withDescription ? { description: 'A value the mock keeps per entity (dialect)' } : {} }
}

function refName (schema: unknown): string | undefined {
  const ref = (schema as Schema | undefined)?.$ref
  return typeof ref === 'string' && ref.startsWith(SCHEMAS) ? ref.slice(SCHEMAS.length) : undefined
}

const tokens = pointerTokens
const pointer = pointerOf

/** Drops the schemas nothing refers to any more (the mock's InternalScheduledTransfer under a shaped ScheduledTransfer). */
function pruneComponents (doc: Document): void {
  const schemas = doc.components?.schemas
  if (schemas === undefined) return
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) { value.forEach(visit); return }
    if (value === null || typeof value !== 'object') return
    const name = refName(value)
    if (name !== undefined && !used.has(name)) {
      used.add(name)
      visit(schemas[name])
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'schemas') visit(child)
  }
  visit({ ...doc, components: { ...doc.components, schemas: undefined } })
  for (const name of Object.keys(schemas)) if (!used.has(name)) Reflect.deleteProperty(schemas, name)
}
