import { Type, type Static } from 'typebox'
import { StrictObject } from '../core/schemas/common.js'

/**
 * The dialect file (`dialect.yaml` in a fixtures folder, or `scenarios/<name>/dialect.yaml`): how a
 * team's backend *shows* the mock's state. The mock's model, rules, events and journal stay as they
 * are underneath; a dialect is a view, used both ways: rendering answers, errors, events and the
 * served contract, and reading requests in the team's shape.
 *
 * One convention everywhere, so people and the recorder write the same thing:
 * - **keys are the team's side**: JSON Pointers (RFC 6901) into the team's document;
 * - **values name the mock's side**: a JSON Pointer into the mock's own value, or a field spec;
 * - **value maps go mock → team** (`{ LOCKED: frozen }`), and are inverted to read requests.
 * A numeric pointer token makes an array (`/errors/0/code`).
 */

const Pointer = Type.String({
  pattern: '^(/([^~/]|~[01])*)*$',
  description: 'A JSON Pointer (RFC 6901): "" is the whole value, /a/b a nested field, /errors/0 an array item'
})

/** A JSON value as written in YAML. */
const Json = Type.Unknown({ description: 'Any JSON value' })

/** The schema names the mock's contract gives its answers (components of /openapi.json), which a shape is keyed by. */
export const SHAPED_SCHEMAS = [
  'Customer', 'DebitCard', 'Statement', 'StatementEmailAck', 'SetPinUrl', 'SendCodeResponse', 'VerifyCodeResponse',
  'ScheduledTransfer', 'ScheduledTransferList', 'DeletedScheduledTransfer', 'Problem'
] as const
export type ShapedSchema = typeof SHAPED_SCHEMAS[number]

export const FieldSpec = Type.Union([
  Type.String({ pattern: '^(/([^~/]|~[01])*)*$', description: 'Copy the mock\'s value at this pointer' }),
  StrictObject({
    from: Type.Optional(Pointer),
    values: Type.Optional(Type.Record(Type.String(), Json, {
      description: 'Mock value → team value (an enum map: { LOCKED: frozen }); inverted to read requests. A mock value not listed passes through'
    })),
    shape: Type.Optional(Type.String({ description: 'Render the value (each item of an array) with this shape, without its envelope' })),
    const: Type.Optional(Json),
    template: Type.Optional(Type.String({ description: 'A Handlebars template over { value: the mock\'s resource }, for the rare computed field; rendering only' })),
    default: Type.Optional(Json)
  }, {
    description: 'Exactly one of from, const, template, or neither: a field with neither is a value kept per entity ' +
      '(`entities` below), else `default`. With from, `default` stands in when the mock has no value there.'
  })
])
export type FieldSpec = Static<typeof FieldSpec>

export const Shape = StrictObject({
  envelope: Type.Optional(Pointer),
  fields: Type.Record(Type.String({ pattern: '^(/([^~/]|~[01])*)*$' }), FieldSpec, {
    // A key that is no pointer (`id` for `/id`) is refused, not ignored.
    additionalProperties: false,
    description: 'Team pointer → mock pointer or field spec. Only listed fields appear in the team\'s document: a shape lists every field the team\'s backend shows'
  }),
  contentType: Type.Optional(Type.String({ description: 'The answer\'s media type (default application/json; an error shape\'s default too)' }))
}, {
  description: 'How one of the mock\'s schemas looks in the team\'s backend. `envelope`: where the resource sits when it is a whole answer ({data: …} is /data); nested or listed, it appears without it'
})
export type Shape = Static<typeof Shape>

export const RequestShape = StrictObject({
  fields: Type.Record(Type.String({ pattern: '^(/([^~/]|~[01])*)*$' }), Type.Union([
    Type.String({ pattern: '^(/([^~/]|~[01])*)*$', description: 'Where the value goes in the mock\'s input' }),
    StrictObject({
      to: Pointer,
      values: Type.Optional(Type.Record(Type.String(), Json, { description: 'Mock value → team value, as in shapes; read inverted' }))
    }),
    StrictObject({ const: Json }, { description: 'The team sends this value (a JSON:API type): checked, not passed on' })
  ]), { additionalProperties: false }),
  merge: Type.Optional(Type.Boolean({
    description: 'The backend updates partially: the updatable fields the body leaves out keep their current values (read from the entity before the write) instead of being refused as missing'
  }))
}, { description: 'A request body in the team\'s shape: team pointer → where it goes in the operation\'s input. Without one, an operation whose body is a resource reads the inverse of that resource\'s shape' })
export type RequestShape = Static<typeof RequestShape>

export const DialectFile = StrictObject({
  description: Type.Optional(Type.String()),
  shapes: Type.Optional(Type.Record(Type.String(), Shape, { description: 'Keyed by the mock\'s schema name (SHAPED_SCHEMAS), used wherever that schema appears; Problem is the error shape (the status is kept). ' +
      'Any other name is a nested shape, used only where a field says `shape: Name` (an execution inside a transfer)' })),
  requests: Type.Optional(Type.Record(Type.String(), RequestShape, { description: 'Keyed by operation id' })),
  entities: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Record(Type.String(), Json)), {
    description: 'Values the mock has no rule for, kept per entity: shape name → entity id → team pointer → value'
  }))
})
export type DialectFile = Static<typeof DialectFile>
