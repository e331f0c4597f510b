import type { FastifyInstance } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'

/**
 * The methods that answer a path, so that a request with the wrong one gets 405 and `Allow` (lock is
 * POST, unlock is PUT: an easy mix-up) instead of a bare 404. A second router mirrors every route
 * as it is added; it is only consulted when no route matched.
 */
export function trackAllowedMethods (app: FastifyInstance, options: { maxParamLength: number }): (path: string) => string[] {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: options.maxParamLength })
  const methods = new Set<string>()
  app.addHook('onRoute', route => {
    for (const method of [route.method].flat()) {
      // OPTIONS is CORS' catch-all and HEAD follows GET: neither tells the caller anything.
      if (method === 'OPTIONS' || method === 'HEAD') continue
      if (router.find(method as HTTPMethod, route.url) === null) router.on(method as HTTPMethod, route.url, () => {})
      methods.add(method)
    }
  })
  return path => [...methods].filter(method => router.find(method as HTTPMethod, path) !== null)
}
