import { configFromOptions, type MockOptions } from '../../config/options.js'
import { resolveConfiguredRoutes } from '../../config/route-config.js'
import { OPERATIONS } from '../../core/operations.js'
import { problem } from '../../core/problem.js'
import { inMemoryConfig } from '../fetch/in-memory-config.js'
import { loadMockModule } from '../fetch/load-mock-module.js'
import type { Mock } from '../fetch/mock.js'
import type { HandlerTarget } from './handlers.js'

// handler-target.ts for the browser: the options and routes are checked now (a mistake throws from
// createHandlers as in Node); the mock itself is built from its chunks when they have loaded, and
// the first request waits for it. A mock that cannot be built (a fixture it refuses) answers every
// request with a 500 that says why, and says it once on the console; chunks that did not load are
// asked for again by the next request (its fetch rejects: MSW makes that a network error).

/** `load` is the chunks' loader; a test gives one that fails. */
export function handlerTarget (options: MockOptions, load: typeof loadMockModule = loadMockModule): HandlerTarget {
  const config = inMemoryConfig(configFromOptions(options, { logLevel: 'silent' }))
  const routes = resolveConfiguredRoutes(OPERATIONS, config.routes, config.routeSources).map(route => ({ method: route.method, path: route.url }))
  let building: Promise<Mock | Error> | undefined
  const build = (): Promise<Mock | Error> => load().then(module => {
    try {
      return module.mockFromConfig(config)
    } catch (error) {
      console.error('baas-mock: the mock could not be built:', error)
      return error instanceof Error ? error : new Error(String(error))
    }
  }, (error: unknown) => {
    // A chunk that did not load (the dev server restarting, the network): the next request tries again.
    building = undefined
    throw error
  })
  building = build()
  building.catch(() => {})
  return {
    routes: () => routes,
    fetch: async (input, init) => {
      const mock = await (building ??= build())
      return mock instanceof Error ? notBuilt(mock) : await mock.fetch(input, init)
    }
  }
}

function notBuilt (error: Error): Response {
  return new Response(JSON.stringify(problem(500, 'mock_not_built', error.message)), { status: 500, headers: { 'content-type': 'application/problem+json' } })
}
