import { Type, type TSchema } from 'typebox'
import type { ResolvedRoute } from '../config/route-config.js'

/** A write moved to GET (only a bodiless one may be, see resolveRoutes) reads no body. */
export function takesBody (route: ResolvedRoute): boolean {
  return route.operation.body !== undefined && route.method !== 'GET'
}

export function routeSchema (route: ResolvedRoute, withBody: boolean): Record<string, unknown> {
  const op = route.operation
  const response: Record<number, TSchema> = { [op.success.status]: { ...Type.Ref(op.success.schema), description: op.success.description } }
  for (const status of op.success.alternatives ?? []) response[status] = { ...Type.Ref(op.success.schema), description: op.success.description }
  const bodyErrors = withBody ? [413, 415] : []
  for (const status of [400, 404, ...bodyErrors, ...op.errors, 503]) response[status] = { ...Type.Ref('Problem'), description: problemDescription(status) }
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
  503: 'Unavailable, when a fault rule or `Prefer: code=503` asks for it; see Retry-After'
}

function problemDescription (status: number): string {
  return PROBLEM_DESCRIPTIONS[status] ?? 'Problem'
}

