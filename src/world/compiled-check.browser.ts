import type { Static, TSchema } from 'typebox'
import { Ajv, type ValidateFunction } from 'ajv'

// compiled-check.ts for the browser: Ajv, which the browser build carries anyway for requests,
// compiles the check, so the build leaves out TypeBox's compiler and value engine (70 kB minified).
// A TypeBox schema is JSON Schema; its own keys (`~kind`) are not keywords, hence not strict.

let ajv: Ajv | undefined

/** A check of `schema` compiled into a function the first time it is used, as compiled-check.ts does. */
export function compiledCheck<S extends TSchema> (schema: S): (value: unknown) => value is Static<S> {
  let validate: ValidateFunction | undefined
  return (value: unknown): value is Static<S> => (validate ??= (ajv ??= new Ajv({ strict: false })).compile(schema))(value)
}
