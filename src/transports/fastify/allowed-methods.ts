import type { FastifyInstance } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'

/**
 * The methods that answer a path (HEAD included where it is routed), so that a request with the
 * wrong one gets 405 and `Allow` (lock is POST, unlock is PUT: an easy mix-up) instead of a bare
 * 404. A second router mirrors every route; it is only consulted when no route matched, so it is
 * built then, not at every start.
 */
export function trackAllowedMethods (app: FastifyInstance, options: { maxParamLength: number }): (path: string) => string[] {
  const routes: Array<{ method: HTTPMethod; url: string }> = []
  let router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> | undefined
  app.addHook('onRoute', route => {
    for (const method of [route.method].flat()) {
      // OPTIONS is CORS' catch-all: it tells the caller nothing. HEAD is kept to tell a route that
      // found nothing (404) from one that is not there; callers leave it out of `Allow`.
      if (method !== 'OPTIONS') routes.push({ method: method as HTTPMethod, url: route.url })
    }
    router = undefined
  })
  const build = (): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> => {
    const built = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: options.maxParamLength })
    for (const { method, url } of routes) {
      if (built.find(method, url) === null) built.on(method, url, () => {})
    }
    return built
  }
  return path => {
    router ??= build()
    const found = router
    return [...new Set(routes.map(route => route.method))].filter(method => found.find(method, path) !== null)
  }
}
