import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { BODY_OPTIONAL } from './openapi-rules.js'

/**
 * One rule for the body of every route: a missing body is read as `{}`, so that a 400 names the
 * field that is missing rather than saying "must be object". A body whose fields are all optional
 * (lock's `{}`, a reset's `{scenario?}`) may so be left out, and the document says so
 * (`requestBody.required: false`): generated clients do not make callers send `{}`.
 */
export function installOptionalBodies (app: FastifyInstance, sharedSchemas: readonly (TSchema & { $id?: string })[]): void {
  const context = Object.fromEntries(sharedSchemas.map(schema => [schema.$id, schema]))
  app.addHook('onRoute', route => {
    const body = route.schema?.body as TSchema | undefined
    if (body === undefined) return
    route.preValidation = [readAbsentBodyAsEmpty, ...[route.preValidation ?? []].flat()]
    // A route can say its body is needed although every field is optional (clock advance: by or to).
    const declared = (route.schema as Record<string, unknown> | undefined)?.[BODY_OPTIONAL]
    if (declared !== false && Value.Check(context, body, {})) route.schema = Object.assign({}, route.schema, { [BODY_OPTIONAL]: true })
  })
}

const readAbsentBodyAsEmpty: preValidationHookHandler = (request: FastifyRequest, _reply, done) => {
  if (request.body === undefined || request.body === null) request.body = {}
  done()
}
