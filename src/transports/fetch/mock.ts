import { loadCore, OPERATION_HANDLERS } from '../../core/build.js'
import { operationRoutes } from '../../core/route-definition.js'
import { CoreServices } from '../../core/services.js'
import { controlDefinitions } from '../../control/route.js'
import { CONTROL_ROUTES } from '../../control/routes.js'
import { closeEventFeed } from '../../control/events.js'
import { configFromOptions, type MockOptions } from '../../config/options.js'
import type { Config } from '../../config/config.js'
import { inMemoryConfig } from './in-memory-config.js'
import { MemoryStore } from '../../world/stores/memory.js'
import { openStore } from '../../world/stores/open-store.js'
import type { WorldStore } from '../../world/stores/store.js'
import { createFetchHandler } from './handler.js'
import { dialectHooks, shapedRoutes } from '../../dialect/routes.js'
import { SessionHandle } from './session-handle.js'

/** The mock in this process: the HTTP server's answers without a socket. */
export interface Mock {
  /** A Fetch API request in, the Response the HTTP server would send out; a path alone is enough (`/baas/customers`). */
  fetch (input: Request | string | URL, init?: RequestInit): Promise<Response>
  /** The routes the mock answers, in find-my-way syntax (`/baas/debit-cards/:cardId/lock`). */
  routes (): Array<{ method: string; path: string }>
  /** The world that `x-mock-session: <id>` selects (`default` without an id), and its control plane. */
  session (id?: string): SessionHandle
  /** Stops the idle-session sweeper and webhook deliveries; the mock answers nothing after. */
  close (): Promise<void>
}

/** Where mock.fetch resolves a bare path; any origin answers the same. */
const IN_PROCESS_ORIGIN = 'http://localhost'

/**
 * Builds the mock in this process from the CLI's settings (camelCase): fixtures, scenarios and
 * routes are loaded and checked now. Asynchronous, because a session store may be remote.
 */
export async function createMock (options: MockOptions = {}): Promise<Mock> {
  const config = configFromOptions(options, { logLevel: 'silent' })
  const { store } = await openStore(config)
  try {
    const mock = mockOf(config, store)
    await mock.services.sessions.restore()
    return mock.mock
  } catch (error) {
    await store.close()
    throw error
  }
}

/** createMock's work, for MSW's handlers, which must know the routes when they are made: sessions in memory. */
export function buildMock (options: MockOptions = {}): Mock {
  return mockFromConfig(inMemoryConfig(configFromOptions(options, { logLevel: 'silent' })))
}

/** The mock of a configuration already checked by inMemoryConfig, its sessions in memory. */
export function mockFromConfig (config: Config): Mock {
  return mockOf(config, new MemoryStore()).mock
}

function mockOf (config: Config, store: WorldStore): { mock: Mock; services: CoreServices } {
  const services = loadCore(config, CoreServices, {
    store,
    // No logger in process: stderr, as the Fetch handler does for a failure it cannot answer.
    onStoreError: (error, what) => console.error(`baas-mock: state store: ${what} failed:`, error),
    dialect: dialectHooks
  })
  const definitions = [...shapedRoutes(services, operationRoutes(services, OPERATION_HANDLERS)), ...controlDefinitions(services, CONTROL_ROUTES)]
  const handle = createFetchHandler(services, definitions)
  services.sessions.startSweeping()
  let closed = false
  const mock: Mock = {
    fetch: async (input, init) => {
      if (closed) throw new TypeError('fetch failed: the mock is closed')
      return await handle(new Request(typeof input === 'string' && input.startsWith('/') ? new URL(input, IN_PROCESS_ORIGIN) : input, init))
    },
    routes: () => definitions.map(({ method, url }) => ({ method, path: url })),
    session: id => new SessionHandle(mock.fetch, id),
    close: async () => {
      closed = true
      await closeEventFeed(services)
      // Webhook deliveries stop too: requests in flight are aborted, no retry follows.
      await services.sessions.webhooks.queue.close()
      await services.sessions.close()
    }
  }
  return { mock, services }
}
