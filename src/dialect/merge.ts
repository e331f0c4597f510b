import { isThenable, type CoreRequest } from '../core/exchange.js'
import type { RouteDefinition } from '../core/route-definition.js'

/** A plain JSON object. */
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The read of the same resource (GET on the write's path, `getCustomer` for `updateCustomer`):
 * a partial update (`merge: true`) takes the fields it leaves out from it.
 */
export function readRouteOf (definitions: readonly RouteDefinition[], write: RouteDefinition): RouteDefinition | undefined {
  return definitions.find(d => d.method === 'GET' && d.url === write.url && d.operationId !== null && d !== write)
}

/** The entity as it is before the write, in the mock's own shape; undefined when it cannot be read (the write is then refused as sent). */
export async function currentEntity (read: RouteDefinition, request: CoreRequest): Promise<Record<string, unknown> | undefined> {
  const given = read.answer(request)
  const answer = isThenable(given) ? await given : given
  return answer.status < 300 && isRecord(answer.body) ? answer.body : undefined
}

/** The body read from the team's shape, the fields it does not hold filled from the current entity (the body's own win). */
export function mergeCurrent (current: Record<string, unknown> | undefined, body: unknown): unknown {
  if (current === undefined || !isRecord(body)) return body
  const merged: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(body)) {
    const before = merged[key]
    merged[key] = isRecord(before) && isRecord(value) ? mergeCurrent(before, value) : value
  }
  return merged
}
