import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'
import { ConfigError } from './config-error.js'
import { adminAccess } from './admin-token.js'
import { loadScenarios } from './fixtures/loader.js'
import { loadResponseOverrides } from './fixtures/responses.js'
import { OPERATIONS } from './operations.js'
import { resolveConfiguredRoutes } from './route-config.js'
import { SessionStore } from './state/sessions.js'
import { announceCreatedSession, logDroppedSessions } from './http/session-notices.js'
import type { Sleep } from './http/delay.js'
import type { World } from './state/world.js'
import { adminTokenGuard, documentAdminToken } from './http/admin-auth.js'
import { controlOriginGuard, installCors } from './http/cors.js'
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './http/errors.js'
import { SERVER_LIMITS, type ServerLimits } from './http/limits.js'
import { installGracefulClose } from './http/graceful-close.js'
import { installJournal } from './http/journal-hook.js'
import { installJsonBodyParser } from './http/json-body.js'
import { installOpenApi } from './http/openapi.js'
import { installOptionalBodies } from './http/optional-body.js'
import { registerOperations } from './http/register-operations.js'
import { SERIALIZED_AS, SHARED_SCHEMAS } from './http/schemas/index.js'
import { MockServices } from './http/services.js'
import { createValidatorCompiler } from './http/validation.js'
import { lazySerializerFactory } from './http/lazy-compilers.js'
import { releaseAfterSweep } from './memory.js'
import { installRequestLog, loggerOptions } from './logger.js'
import { VERSION } from './version.js'
import { customerHandlers } from '../routes/customers.js'
import { debitCardHandlers } from '../routes/debit-cards.js'
import { statementHandlers } from '../routes/statements.js'
import { phoneVerificationHandlers } from '../routes/phone-verification.js'
import { scheduledTransferHandlers } from '../routes/scheduled-transfers.js'
import { stateRoutes } from '../routes/mock/state.js'
import { clockRoutes } from '../routes/mock/clock.js'
import { pinRoutes } from '../routes/mock/pin.js'
import { journalRoutes } from '../routes/mock/journal.js'
import { outboxRoutes } from '../routes/mock/outbox.js'
import { faultRoutes } from '../routes/mock/faults.js'
import { scenarioRoutes } from '../routes/mock/scenarios.js'
import { sessionRoutes } from '../routes/mock/sessions.js'
import { envRoutes } from '../routes/mock/env.js'
import { simulationRoutes } from '../routes/mock/simulations.js'
import { healthRoutes } from '../routes/health.js'
import { uiRoutes } from '../routes/mock/ui.js'

export interface BuildOptions {
  /** Fastify logger settings; tests pass false. */
  logger?: FastifyServerOptions['logger']
  /** Shorter time-outs, so that tests can watch them fire. */
  limits?: Partial<ServerLimits>
  /** How delays wait (`Prefer: delay`, faults); tests pass one they resolve themselves, so no test waits on a timer. */
  sleep?: Sleep
}

/** Builds the whole mock from a config. Loading fixtures or routes that are wrong throws here. */
export async function buildApp (configured: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const access = adminAccess(configured.adminToken, configured.host)
  // The token in effect from here on, for every guard: the one given, one generated, or none.
  const config: Config = { ...configured, adminToken: access.token }
  const limits: ServerLimits = { ...SERVER_LIMITS, ...options.limits }
  const routerOptions = { ignoreTrailingSlash: true, maxParamLength: limits.maxParamLength }
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: the lines that concern a request name its reqId themselves.
    childLoggerFactory: logger => logger,
    bodyLimit: config.bodyLimit,
    routerOptions,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    trustProxy: true,
    http: { maxHeaderSize: limits.maxHeaderBytes, headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.connectionsCheckingIntervalMs },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory(SERIALIZED_AS) } }
  })
  // Before anything is loaded: a misspelt name may be why loading fails (a route left at its default clashing with a moved one).
  for (const warning of config.startupWarnings) app.log.warn(warning)
  if (access.openToNetwork) app.log.warn(`admin token none: the control plane (/__mock: every MFA code, resets, faults) is open to anyone who can reach ${config.host}`)
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
    onDropped: report => logDroppedSessions(app, report, config.maxSessions)
  })
  const services: MockServices = new MockServices(config, scenarios, routes, sessions, overrides, options.sleep)
  sessions.startSweeping(sessions.sweepIntervalMs, releaseAfterSweep)
  app.addHook('onClose', async () => sessions.stopSweeping())
  app.decorateRequest('mockSession', null)
  app.decorateRequest('mockSessionCreated', false)
  // JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain')
  installJsonBodyParser(app)

  const validation = createValidatorCompiler()
  for (const schema of SHARED_SCHEMAS) {
    app.addSchema(schema)
    validation.addSchema(schema)
  }
  app.setValidatorCompiler(validation.compiler)
  installOptionalBodies(app, SHARED_SCHEMAS)
  installErrorHandling(app)
  installRequestLog(app, config.logRequests)
  installGracefulClose(app, limits.shutdownGraceMs)
  if (config.cors) await installCors(app, config)
  await installOpenApi(app, VERSION, routerOptions, config.publicUrl)
  installJournal(app, services)

  registerOperations(app, services, {
    ...customerHandlers, ...debitCardHandlers, ...statementHandlers, ...phoneVerificationHandlers, ...scheduledTransferHandlers
  })
  app.addHook('onListen', function (done) {
    // Where to go next, at addresses a person can open: the public URL, or localhost for 0.0.0.0;
    // and the customer route in effect, moved or not.
    const origin = config.publicUrl?.replace(/\/+$/, '') ?? this.listeningOrigin.replace(/\/\/(?:0\.0\.0\.0|\[::\])(?=:)/, '//localhost')
    const customer = routes.find(route => route.operation.id === 'getCustomer')?.url ?? ''
    this.log.info(`baas-mock ready: API ${origin}${customer}, contract ${origin}/docs, dashboard ${origin}/__mock/ui`)
    // Said once, here: request logs mask ?token=, and the dashboard moves it out of its address bar.
    if (access.generated) {
      this.log.warn(`the control plane (/__mock) needs an admin token, as ${config.host} can be reached from a network; this run's is in ` +
        `${origin}/__mock/ui/?token=${access.token ?? ''} (scripts send it as x-mock-admin-token; MOCK_ADMIN_TOKEN sets your own, none leaves /__mock open)`)
    }
    done()
  })
  await app.register(healthRoutes, { scenarios: scenarios.size })
  // The PIN page is opened by end users, so it stays outside the admin token.
  await app.register(pinRoutes, { prefix: '/__mock', services })
  // The dashboard's page is public too (it holds no data); its event stream is guarded inside.
  await app.register(uiRoutes, { prefix: '/__mock', services })
  await app.register(async control => {
    control.addHook('onRequest', controlOriginGuard(config))
    control.addHook('onRequest', adminTokenGuard(config.adminToken))
    control.addHook('onRoute', documentAdminToken(config.adminToken))
    control.addHook('onSend', announceCreatedSession)
    for (const plugin of [stateRoutes, clockRoutes, scenarioRoutes, sessionRoutes, journalRoutes, outboxRoutes, faultRoutes, envRoutes, simulationRoutes]) {
      await control.register(plugin, { services })
    }
  }, { prefix: '/__mock' })
  return app
}
