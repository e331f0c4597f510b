import { BUNDLED_FIXTURES, type Config } from '../config/config.js'
import { ConfigError } from '../config/config-error.js'
import { loadScenarios } from '../fixtures/loader.js'
import { describeLayers, fixtureLayers } from '../fixtures/layers.js'
import { loadResponseOverrides } from '../fixtures/responses.js'
import { loadEventOverrides } from '../fixtures/events.js'
import { loadDialects, type Dialects } from '../fixtures/dialect.js'
import type { DialectHooks } from './dialect-hooks.js'
import { WEBHOOK_LIMITS } from '../config/limits.js'
import { JournalBudget } from '../world/journal-budget.js'
import { createEventPresentation } from './event-presentation.js'
import { EVENT_TYPES } from '../domain/events.js'
import { WebhookDispatcher } from '../webhooks/dispatcher.js'
import { generateSecret } from '../webhooks/signing.js'
import { OPERATIONS } from './operations.js'
import { resolveConfiguredRoutes } from '../config/route-config.js'
import { SessionStore, type SessionStoreOptions } from '../world/sessions.js'
import { createIdSource } from '../world/ids.js'
import { deliveryLedger } from './delivery-ledger.js'
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
  options: {
    sleep?: Sleep | undefined
    onDropped?: SessionStoreOptions['onDropped']
    /** Told how many webhook deliveries of a session its full share of the queue refused (a line per session per burst, not one per delivery). */
    onDeliveriesRefused?: ((session: string, count: number) => void) | undefined
    /**
     * Where webhooks may not go (private addresses, the control plane open to a network): `literal`
     * checks a URL as an endpoint is added, `check` before each attempt, its name resolved.
     */
    webhookTargets?: { literal: (url: string) => string | undefined; check: (url: string) => Promise<string | undefined>; send: typeof fetch } | undefined
    store?: WorldStore | undefined
    onStoreError?: SessionStoreOptions['onStoreError']
    /** Told where the world came from (the bundled world, a team's folder over it): one block, for the startup log. */
    onFixtures?: ((description: string) => void) | undefined
    /** Where warnings about a request go (an unknown persona token, once per token); stderr without. */
    onWarning?: ((line: string) => void) | undefined
    /** How a team's dialect shows events and the state (src/dialect), made from the dialects loaded; without, the mock's own. */
    dialect?: ((dialects: Dialects) => DialectHooks) | undefined
  } = {}
): S {
  // A team's folder lies over the bundled world unless its fixtures.yaml says `extends: none`.
  const layers = fixtureLayers(config.fixturesDir, BUNDLED_FIXTURES)
  const report: string[] = []
  const scenarios = loadScenarios(layers, report)
  const routes = resolveConfiguredRoutes(OPERATIONS, config.routes, config.routeSources)
  const overrides = loadResponseOverrides(layers, scenarios.keys(), OPERATIONS, report)
  const eventOverrides = loadEventOverrides(layers, scenarios.keys(), report)
  // The bundled world has no dialect: the top folder's is the one in effect.
  const dialects = loadDialects(layers.at(-1)?.dir ?? config.fixturesDir, scenarios.keys())
  const hooks = dialects.any ? options.dialect?.(dialects) : undefined
  options.onFixtures?.(describeLayers(layers, BUNDLED_FIXTURES, report))
  if (!scenarios.has(config.scenario)) throw new ConfigError(`--scenario ${config.scenario} does not exist; known: ${[...scenarios.keys()].join(', ')}`)
  // Names this process among the replicas sharing a store (claims, feed notices); random whatever --seed says.
  const replica = createIdSource().token(12)
  const shared = options.store?.shared === true
  const sessions: SessionStore = new SessionStore((id, scenario, onEvents): World => services.buildWorld(id, scenario, onEvents), {
    maxSessions: config.maxSessions,
    idleTimeoutMs: config.sessionIdleSeconds * 1000,
    journalCap: config.journalCap,
    journalMaxBytes: config.journalMaxBytes,
    seed: config.seed,
    ...(options.onDropped === undefined ? {} : { onDropped: options.onDropped }),
    webhooks: {
      presentation: createEventPresentation(eventOverrides, hooks?.events),
      eventCap: config.eventCap,
      eventBudget: new JournalBudget(WEBHOOK_LIMITS.eventsMaxBytes),
      seed: config.seed,
      queue: new WebhookDispatcher({
        retrySchedule: config.webhookRetrySchedule,
        timeoutMs: config.webhookTimeoutMs,
        maxPending: WEBHOOK_LIMITS.maxPendingDeliveries,
        maxPendingPerSession: WEBHOOK_LIMITS.maxPendingDeliveriesPerSession,
        maxInFlight: WEBHOOK_LIMITS.maxDeliveriesInFlight,
        maxInFlightPerSession: WEBHOOK_LIMITS.maxDeliveriesInFlightPerSession,
        onRefused: options.onDeliveriesRefused,
        checkTarget: options.webhookTargets?.check,
        fetch: options.webhookTargets?.send
      }),
      // One secret for the starting endpoint of every session, so one receiver verifies them all.
      initialEndpoint: config.webhookUrl === undefined ? undefined : { url: config.webhookUrl, secret: config.webhookSecret ?? generateSecret() },
      maxEndpoints: WEBHOOK_LIMITS.endpointsPerSession,
      deliveryCap: WEBHOOK_LIMITS.deliveriesPerSession,
      realNow: Date.now,
      knownEventTypes: new Set([...EVENT_TYPES, ...eventOverrides.renamedTypes()]),
      targetRefusal: options.webhookTargets?.literal,
      ledger: shared ? deliveryLedger(() => sessions, replica, config.webhookTimeoutMs, options.onStoreError) : undefined
    },
    replica,
    store: options.store,
    restoreWorld: (id, data, onEvents): World => services.restoreWorld(id, data, onEvents),
    onStoreError: options.onStoreError
  })
  const services: S = new make(config, scenarios, routes, sessions, overrides, options.sleep)
  services.dialects = dialects
  if (options.onWarning !== undefined) services.personaNotices.warn = options.onWarning
  if (hooks !== undefined) {
    services.stateView = hooks.state
    services.secretView = hooks.secrets
  }
  return services
}
