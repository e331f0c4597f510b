import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FieldError } from '../domain/errors.js'
import { nearestName } from '../config/nearest-name.js'
import { problem, type ProblemBody } from './problem.js'
import { formatWords, MINOR_UNITS_KEY, minorUnitsWords, patternWords, unknownFieldWords } from './validation-words.js'

/**
 * Two validators: bodies are checked strictly (no coercion, unknown fields rejected, never
 * removed); querystrings and path params get type coercion because everything in a URL is text.
 */
// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

function makeAjv (coerce: boolean): Ajv {
  // validateSchema off: the schemas are ours (TypeBox, checked by the suite), and compiling the
  // meta-schema to check them would cost every cold start tens of milliseconds.
  // verbose: errors carry the value given, for a "did you mean"; its code runs only on invalid input.
  const ajv = new Ajv({ allErrors: true, verbose: true, removeAdditional: false, useDefaults: false, coerceTypes: coerce ? 'array' : false, strict: false, validateSchema: false })
  addFormats(ajv)
  return ajv
}

/** A validator as Fastify's schema compiler and the Fetch transport both call it: errors left on the function. */
export type Validator = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] }

/** What a compiler is given: the schema, and which part of the request it checks. */
export interface ValidatorRoute { schema: unknown; httpPart?: string | undefined }

export function createValidatorCompiler (): { compiler: (route: ValidatorRoute) => Validator; addSchema: (schema: object) => void } {
  const bodyAjv = makeAjv(false)
  const urlAjv = makeAjv(true)
  return {
    addSchema (schema: object) {
      bodyAjv.addSchema(schema)
      urlAjv.addSchema(schema)
    },
    // Compiled on first use: most routes are never called in a CI run, and startup must stay fast.
    compiler: ({ schema, httpPart }) => {
      let validate: ValidateFunction | undefined
      const lazy = (data: unknown): boolean => {
        validate ??= (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema as object)
        const valid = validate(data) as boolean
        lazy.errors = validate.errors
        return valid
      }
      lazy.errors = null as ValidateFunction['errors']
      return lazy
    }
  }
}

type FastifyValidationError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'> & { data?: unknown; parentSchema?: unknown }

/** Turns validation errors into a 400 problem listing each field by JSON pointer. */
export function validationProblem (errors: FastifyValidationError[], context: string): ProblemBody {
  const fieldErrors: FieldError[] = []
  const seen = new Set<string>()
  for (const e of errors) {
    const fe = describe(e)
    const key = fe.pointer + fe.message
    if (seen.has(key)) continue
    seen.add(key)
    fieldErrors.push(fe)
  }
  const where = context === 'body' ? 'request body' : context === 'querystring' ? 'query string' : context === 'params' ? 'path' : context
  const first = fieldErrors[0]
  const detail = first === undefined
    ? `The ${where} is invalid.`
    : `The ${where} is invalid: ${first.pointer === '' ? '' : `${first.pointer} `}${first.message}${fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : ''}${first.message.endsWith('?') && fieldErrors.length === 1 ? '' : '.'}`
  return problem(400, 'validation_failed', detail, { errors: fieldErrors })
}

function describe (e: FastifyValidationError): FieldError {
  const params = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty)
      return { pointer: `${e.instancePath}/${name}`, message: unknownFieldWords(name, knownFields(e.parentSchema)) }
    }
    case 'required':
      return { pointer: `${e.instancePath}/${String(params.missingProperty)}`, message: 'is required' }
    case 'enum':
      return { pointer: e.instancePath, message: enumMessage(params.allowedValues as unknown[], e.data) }
    case 'const':
      return { pointer: e.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` }
    case 'anyOf':
      return { pointer: e.instancePath, message: 'does not match any allowed value' }
    case 'format':
      return { pointer: e.instancePath, message: formatWords(params.format) }
    case 'pattern':
      return { pointer: e.instancePath, message: patternWords(params.pattern) }
    case 'type':
      if (isMinorUnits(e.parentSchema)) return { pointer: e.instancePath, message: minorUnitsWords(e.data) }
      return { pointer: e.instancePath, message: e.message ?? 'is invalid' }
    default:
      return { pointer: e.instancePath, message: e.message ?? 'is invalid' }
  }
}

/** The fields an object schema names (Ajv's verbose errors carry the schema): what a misspelt one was meant as. */
function knownFields (schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties
  return properties !== null && typeof properties === 'object' ? Object.keys(properties) : []
}

function isMinorUnits (schema: unknown): boolean {
  return (schema as Record<string, unknown> | undefined)?.[MINOR_UNITS_KEY] === true
}

/** How far a mistyped value may be from the allowed one it was meant as. */
const VALUE_REACH = 2

/** Lists longer than this are not spelt out when the value meant is named: they would bury it. */
const LISTED_VALUES = 8

/** The allowed values, and for a near miss (`lockcard`, `sms`) the one it was meant as. */
function enumMessage (allowed: unknown[], given: unknown): string {
  const meant = typeof given === 'string' ? nearestName(given, allowed.filter(v => typeof v === 'string'), VALUE_REACH) : undefined
  const values = meant !== undefined && allowed.length > LISTED_VALUES ? `the ${allowed.length} allowed values` : allowed.map(v => JSON.stringify(v)).join(', ')
  return `must be one of ${values}${meant === undefined ? '' : `; did you mean ${JSON.stringify(meant)}?`}`
}
