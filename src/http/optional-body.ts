import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { BODY_OPTIONAL } from './openapi-rules.js'

/**
 * One rule for every route: a body whose fields are all optional (lock's `{}`, a reset's
 * `{scenario?}`) may be left out, and is then read as `{}`. The document says so
 * (`requestBody.required: false`), so generated clients do not make callers send `{}`.
 * A body with a required field stays required (the API's routes read its absence as `{}` too, so
 * that the 400 names the missing field).
 */
export function installOptionalBodies (app: FastifyInstance, sharedSchemas: readonly (TSchema & { $id?: string })[]): void {
  const context = Object.fromEntries(sharedSchemas.map(schema => [schema.$id, schema]))
  app.addHook('onRoute', route => {
    const body = route.schema?.body as TSchema | undefined
    // A route can say its body is needed although every field is optional (clock advance: by or to).
    const declared = (route.schema as Record<string, unknown> | undefined)?.[BODY_OPTIONAL]
    if (body === undefined || declared === false || !Value.Check(context, body, {})) return
    route.schema = Object.assign({}, route.schema, { [BODY_OPTIONAL]: true })
    route.preValidation = [readAbsentBodyAsEmpty, ...[route.preValidation ?? []].flat()]
  })
}

const readAbsentBodyAsEmpty: preValidationHookHandler = (request: FastifyRequest, _reply, done) => {
  if (request.body === undefined || request.body === null) request.body = {}
  done()
}
