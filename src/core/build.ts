import type { Config } from '../config/config.js'
import { ConfigError } from '../config/config-error.js'
import { loadScenarios } from '../fixtures/loader.js'
import { loadResponseOverrides } from '../fixtures/responses.js'
import { OPERATIONS } from './operations.js'
import { resolveConfiguredRoutes } from '../config/route-config.js'
import { SessionStore, type SessionStoreOptions } from '../world/sessions.js'
import type { World } from '../world/world.js'
import type { WorldStore } from '../world/stores/store.js'
import { customerHandlers } from './handlers/customers.js'
import { debitCardHandlers } from './handlers/debit-cards.js'
import { statementHandlers } from './handlers/statements.js'
import { phoneVerificationHandlers } from './handlers/phone-verification.js'
import { scheduledTransferHandlers } from './handlers/scheduled-transfers.js'
import type { OperationHandlers } from './pipeline.js'
import type { Sleep } from './delay.js'
import type { CoreServices } from './services.js'

/** Every operation's handler, by operation id. */
export const OPERATION_HANDLERS: OperationHandlers = {
  ...customerHandlers, ...debitCardHandlers, ...statementHandlers, ...phoneVerificationHandlers, ...scheduledTransferHandlers
}

/**
 * Loads what a configuration names (fixtures, scenarios, response examples, routes) and makes the
 * session store. Every transport starts from here; loading what is wrong throws here.
 */
export function loadCore<S extends CoreServices> (
  config: Config, make: new (...args: ConstructorParameters<typeof CoreServices>) => S,
  options: { sleep?: Sleep | undefined; onDropped?: SessionStoreOptions['onDropped']; store?: WorldStore | undefined; onStoreError?: SessionStoreOptions['onStoreError'] } = {}
): S {
  const scenarios = loadScenarios(config.fixturesDir)
  const routes = resolveConfiguredRoutes(OPERATIONS, config.routes, config.routeSources)
  const overrides = loadResponseOverrides(config.fixturesDir, scenarios.keys())
  if (!scenarios.has(config.scenario)) throw new ConfigError(`--scenario ${config.scenario} does not exist; known: ${[...scenarios.keys()].join(', ')}`)
  const sessions: SessionStore = new SessionStore((id, scenario): World => services.buildWorld(id, scenario), {
    maxSessions: config.maxSessions,
    idleTimeoutMs: config.sessionIdleSeconds * 1000,
    journalCap: config.journalCap,
    journalMaxBytes: config.journalMaxBytes,
    seed: config.seed,
    ...(options.onDropped === undefined ? {} : { onDropped: options.onDropped }),
    store: options.store,
    restoreWorld: (id, data): World => services.restoreWorld(id, data),
    onStoreError: options.onStoreError
  })
  const services: S = new make(config, scenarios, routes, sessions, overrides, options.sleep)
  return services
}
