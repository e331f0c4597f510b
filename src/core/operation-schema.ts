import { Type, type TSchema } from 'typebox'
import type { ResolvedRoute } from '../config/route-config.js'
import { isWrite } from './operations.js'

/** A write moved to GET (only a bodiless one may be, see resolveRoutes) reads no body. */
export function takesBody (route: ResolvedRoute): boolean {
  return route.operation.body !== undefined && route.method !== 'GET'
}

export function routeSchema (route: ResolvedRoute, withBody: boolean): Record<string, unknown> {
  const op = route.operation
  const response: Record<number, TSchema> = { [op.success.status]: { ...Type.Ref(op.success.schema), description: op.success.description } }
  for (const status of op.success.alternatives ?? []) response[status] = { ...Type.Ref(op.success.schema), description: op.success.description }
  const bodyErrors = withBody ? [413, 415] : []
  // Every write takes an Idempotency-Key, which may answer 409 (in flight) or 422 (reused).
  const keyErrors = isWrite(op) ? [409, 422] : []
  for (const status of new Set([400, 404, ...bodyErrors, ...op.errors, ...keyErrors, 503])) {
    response[status] = { ...Type.Ref('Problem'), description: isWrite(op) ? WRITE_PROBLEM_DESCRIPTIONS[status] ?? problemDescription(status) : problemDescription(status) }
  }
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\nConfiguration name: \`${op.configName}\`.`,
    security: [{ bearer: [] }, {}],
    ...(op.params === undefined ? {} : { params: op.params }),
    ...(op.querystring === undefined ? {} : { querystring: op.querystring }),
    ...(withBody ? { body: op.body } : {}),
    response
  }
}

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed or schema-invalid request',
  401: 'No known persona token (strict auth)',
  404: 'Unknown, or not the caller\'s',
  409: 'Not allowed in the current state',
  410: 'Expired',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Semantically invalid',
  429: 'Rate limited; see Retry-After',
  503: 'Unavailable: when a fault rule or `Prefer: code=503` asks for it, or when the state store (`--state-dir`) cannot keep the change now (`store_unavailable`, nothing changed), or when a Redis store (`--store`) got the change and its answer was lost (`store_outcome_unknown`: it may have been kept; read before retrying); see Retry-After'
}

const WRITE_PROBLEM_DESCRIPTIONS: Record<number, string> = {
  409: 'Not allowed in the current state, or a request with the same Idempotency-Key is still being answered (idempotency_request_in_progress)',
  422: 'Semantically invalid, or the Idempotency-Key was used with another request (idempotency_key_reused)'
}

function problemDescription (status: number): string {
  return PROBLEM_DESCRIPTIONS[status] ?? 'Problem'
}

