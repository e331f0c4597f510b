import { Type, type TInteger, type TString } from 'typebox'
import { MINOR_UNITS_KEY } from '../validation-words.js'

/** Shared building blocks of the API contract. Every object is closed: unknown fields are rejected. */

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP'
] as const

export const StrictObject = <T extends Parameters<typeof Type.Object>[0]>(properties: T, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options })

export const E164 = Type.String({ pattern: '^\\+[1-9]\\d{1,14}$', description: 'E.164 phone number', examples: ['+14155550123'] })
export const Email = Type.String({ format: 'email', maxLength: 254, examples: ['ada@example.com'] })
export const DateString = Type.String({ format: 'date', description: 'Calendar date, YYYY-MM-DD', examples: ['2026-12-01'] })
export const DateTimeString = Type.String({ format: 'date-time', description: 'RFC 3339 instant, UTC', examples: ['2026-11-22T10:00:00.000Z'] })
export const Currency = Type.Literal('USD')
/** Every amount: an integer of minor units (cents), marked so that `25.00` sent is answered with the 2500 meant. */
export const MinorUnits = (options: Record<string, unknown> = {}): TInteger =>
  Type.Integer({ description: 'Amount in minor units (cents)', examples: [12550], ...options, [MINOR_UNITS_KEY]: true })
export const Last4 = Type.String({ pattern: '^\\d{4}$', examples: ['4242'] })
/** A closed set of strings, as a plain JSON Schema `enum` (one clear error, not one per value). */
export const Enum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })

export const Address = StrictObject({
  line1: Type.String({ minLength: 1, maxLength: 100 }),
  line2: Type.Optional(Type.String({ maxLength: 100 })),
  city: Type.String({ minLength: 1, maxLength: 60 }),
  state: Enum(US_STATES, { description: 'US state or territory, 2 letters' }),
  postalCode: Type.String({ pattern: '^\\d{5}(-\\d{4})?$', description: 'ZIP or ZIP+4' }),
  country: Type.Literal('US')
})

export const FieldErrorSchema = StrictObject({
  pointer: Type.String({ description: 'JSON pointer to the offending input, e.g. /address/postalCode' }),
  message: Type.String()
})

/** RFC 9457 problem details, with a stable machine `code`. Extensions are allowed. */
export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String(),
  instance: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Array(FieldErrorSchema))
}, { $id: 'Problem', additionalProperties: true })

export const IdParam = <const Name extends string>(name: Name, prefix: string) =>
  StrictObject({ [name]: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', examples: [`${prefix}_01HF3Z`] }) } as Record<Name, TString>)


/** Action endpoints take no body; an empty object (or no body at all) is accepted. */
export const EmptyBody = StrictObject({}, { description: 'No fields; the body may be omitted.' })
