import FindMyWay, { type HTTPMethod } from 'find-my-way'
import { OPERATIONS, type Operation } from '../core/operations.js'
import { resolveRoutes } from '../config/route-config.js'

/** Which of the mock's operations a request of the team's frontend is, by the configured routes. */
export interface OperationMatcher {
  match (method: string, path: string): { operation: Operation; params: Record<string, string> } | undefined
}

export function operationMatcher (routes: Readonly<Record<string, string>>): OperationMatcher {
  const router = FindMyWay({ ignoreTrailingSlash: true })
  for (const route of resolveRoutes(OPERATIONS, routes)) {
    router.on(route.method as HTTPMethod, route.url, () => {}, { operation: route.operation })
  }
  return {
    match (method, path) {
      const found = router.find(method.toUpperCase() as HTTPMethod, path)
      if (found === null) return undefined
      const { operation } = found.store as { operation: Operation }
      const params = Object.fromEntries(Object.entries(found.params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      return { operation, params }
    }
  }
}
