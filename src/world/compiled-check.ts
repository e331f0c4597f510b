import type { Static, TSchema } from 'typebox'
import { Compile } from 'typebox/compile'

/**
 * A check of `schema` compiled into a function the first time it is used. `Value.Check` walks the
 * schema anew on every call, which made a shared store's reload (the world's envelope, each part,
 * each row, on every turn another replica saved) spend a tenth of a replica's time in it. Compiled
 * on first use, not at import: a mock that never restores anything (the memory store, a browser
 * bundle) never compiles, nor evaluates generated code.
 */
export function compiledCheck<S extends TSchema> (schema: S): (value: unknown) => value is Static<S> {
  let validator: ReturnType<typeof Compile<S>> | undefined
  return (value: unknown): value is Static<S> => (validator ??= Compile(schema)).Check(value)
}
