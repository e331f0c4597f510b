import { isWrite, OPERATIONS_BY_ID } from '../../core/operations.js'
import { REPLAYABLE_ERRORS } from '../../core/idempotency.js'
import { SESSION_HEADER } from './request-context.js'

/**
 * What holds for every route, said once in the generated document instead of in each route schema:
 * the headers a client may send, the media type of errors, Retry-After, optional bodies, and that
 * a route no scheme guards is public.
 */

export const CONTROL_TAG = 'Mock control'

/** Set on a route schema whose body may be left out (see optional-body.ts); @fastify/swagger always writes `required: true`. */
import { BODY_OPTIONAL } from '../../core/route-definition.js'

export { BODY_OPTIONAL }

export const PARAMETERS = {
  MockSession: {
    name: SESSION_HEADER,
    in: 'header',
    required: false,
    description: 'The isolated world (state, clock, journal, outbox, faults) this request acts on, created from the scenario on first use; without it, `default`.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$', examples: ['test-42'] }
  },
  Prefer: {
    name: 'Prefer',
    in: 'header',
    required: false,
    description: 'RFC 7240, as Prism reads it: `code=503` answers with that status, `example=<name>` with a named example from the fixtures, `delay=800` waits that many milliseconds (at most 30000). Preferences combine: `code=429, delay=200`.',
    schema: { type: 'string', examples: ['code=503', 'example=minimal', 'delay=800'] }
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: 'Makes a retry safe: the first answer the operation gives (a success, or its 404, 409, 410 or 422) is kept for 24 hours of the session clock, per customer, and a retry with the same key and the same request gets it again, byte for byte, with `Idempotent-Replayed: true`, changing nothing. ' +
      'The same key with another operation, path or body is 422 `idempotency_key_reused`; while the first request is still being answered (during a delay), 409 `idempotency_request_in_progress`. ' +
      'A 400, 401, 429, 5xx, or an answer from a fault rule, `Prefer: code=` or a response example is not kept: a retry runs. A value that is not 1 to 255 printable ASCII characters is 400 `invalid_idempotency_key`.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]{1,255}$', examples: ['order-7f3c2a9e'] }
  }
} as const

export const HEADERS = {
  IdempotentReplayed: {
    description: 'Present on a replay: the stored answer of an earlier request with the same Idempotency-Key; nothing changed',
    schema: { type: 'string', enum: ['true'] }
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1, examples: [30] }
  }
} as const

/** The request headers each kind of operation reads. */
const API_PARAMETERS = ['MockSession', 'Prefer'] as const
const API_WRITE_PARAMETERS = [...API_PARAMETERS, 'IdempotencyKey'] as const
const CONTROL_PARAMETERS = ['MockSession'] as const

/** Control-plane operations that act on no particular session: they read no x-mock-session. */
const SESSIONLESS = new Set(['healthz', 'readyz', 'mockListScenarios', 'mockListSessions', 'mockDeleteSession', 'mockEnvExport'])

const ERROR_MEDIA_TYPE = 'application/problem+json'
const SAYS_WHEN_TO_RETRY = new Set(['429', '503'])
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'])

interface Response { content?: Record<string, unknown>; headers?: Record<string, unknown> }
interface Operation {
  operationId?: string
  tags?: string[]
  parameters?: unknown[]
  requestBody?: { required?: boolean }
  responses?: Record<string, Response>
  security?: unknown[]
  [BODY_OPTIONAL]?: boolean
}
interface Document { paths?: Record<string, Record<string, unknown>> }

/** Applies the rules above to a document @fastify/swagger generated (in place; it is built anew each time). */
export function applyContractRules<T extends object> (doc: T): T {
  for (const pathItem of Object.values((doc as Document).paths ?? {})) {
    for (const [method, value] of Object.entries(pathItem)) {
      if (METHODS.has(method)) applyToOperation(value as Operation)
    }
  }
  return doc
}

function applyToOperation (op: Operation): void {
  if (op[BODY_OPTIONAL] === true && op.requestBody !== undefined) op.requestBody.required = false
  delete op[BODY_OPTIONAL]
  // Routes outside the API and the guarded control plane (health, the PIN page) ask for nothing.
  op.security ??= []
  const headers = parametersOf(op)
  if (headers.length > 0) op.parameters = [...(op.parameters ?? []), ...headers.map(name => ({ $ref: `#/components/parameters/${name}` }))]
  const replayable = headers.includes('IdempotencyKey')
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (replayable && (/^2/.test(status) || REPLAYABLE_ERRORS.includes(Number(status)))) {
      response.headers = { ...response.headers, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } }
    }
    if (!/^[45]/.test(status)) continue
    // Every error is sent by sendProblem or the error handler, as problem+json; other media types
    // (the PIN page's HTML errors) are what the route says.
    const json = response.content?.['application/json']
    if (json !== undefined && response.content !== undefined) {
      delete response.content['application/json']
      response.content[ERROR_MEDIA_TYPE] = json
    }
    if (SAYS_WHEN_TO_RETRY.has(status)) response.headers = { ...response.headers, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }
  }
}

function parametersOf (op: Operation): readonly string[] {
  const apiOperation = op.operationId === undefined ? undefined : OPERATIONS_BY_ID.get(op.operationId)
  if (apiOperation !== undefined) return isWrite(apiOperation) ? API_WRITE_PARAMETERS : API_PARAMETERS
  if (op.tags?.includes(CONTROL_TAG) === true && !SESSIONLESS.has(op.operationId ?? '')) return CONTROL_PARAMETERS
  return []
}
