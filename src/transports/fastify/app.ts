import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Config } from '../../config/config.js'
import { adminAccess } from '../../config/network-token.js'
import { targetGuard } from '../../webhooks/target-guard.js'
import { loadCore } from '../../core/build.js'
import type { Sleep } from '../../core/delay.js'
import { announceCreatedSession, logDroppedSessions } from './session-notices.js'
import { adminTokenGuard, documentAdminToken } from './admin-auth.js'
import { controlOriginGuard, installCors } from './cors.js'
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './errors.js'
import { SERVER_LIMITS, WEBHOOK_LIMITS, type ServerLimits } from '../../config/limits.js'
import { installGracefulClose } from './graceful-close.js'
import { installJournal } from './journal-hook.js'
import { installFinishedRequests } from './finished-requests.js'
import { installJsonBodyParser } from './json-body.js'
import { installOpenApi } from './openapi.js'
import { installOptionalBodies } from './optional-body.js'
import { registerOperations } from '../../../routes/operations.js'
import { SERIALIZED_AS, SHARED_SCHEMAS } from '../../core/schemas/index.js'
import { MockServices } from './services.js'
import { createValidatorCompiler } from '../../core/validation.js'
import { lazySerializerFactory } from '../../core/serializers.js'
import { releaseAfterSweep } from './memory.js'
import { openStore } from '../../world/stores/open-store.js'
import { WriteOutage } from '../../world/stores/write-outage.js'
import type { WorldStore } from '../../world/stores/store.js'
import { installRequestLog, loggerOptions } from './logger.js'
import { VERSION } from '../../config/version.js'
import { CONTROL_ROUTES } from '../../control/routes.js'
import { controlDefinitions } from '../../control/route.js'
import { registerDefinitions } from './register-routes.js'
import { healthRoutes } from '../../../routes/health.js'
import { bundledAssets } from '../../control/ui.js'
import { closeEventFeed } from '../../control/events.js'
import { dialectHooks } from '../../dialect/routes.js'
import { refusals, type Refusals } from '../../dialect/refusals.js'
import { shapeContract } from '../../dialect/contract.js'

export interface BuildOptions {
  /** Fastify logger settings; tests pass false. */
  logger?: FastifyServerOptions['logger']
  /** Shorter time-outs, so that tests can watch them fire. */
  limits?: Partial<ServerLimits>
  /** How delays wait (`Prefer: delay`, faults); tests pass one they resolve themselves, so no test waits on a timer. */
  sleep?: Sleep
  /** The session store, opened by the caller (tests: one that fails on demand); otherwise the one the config names. */
  store?: WorldStore
}

/**
 * Calls `ready` once the store's readiness check passes (at once for a store in this process),
 * and `waiting` first when it does not yet; asks again every second, on a timer that never holds
 * the process open, until it passes or the store closes.
 */
export function announceWhenReady (store: Pick<WorldStore, 'check'>, ready: () => void, waiting: () => void, everyMs = 1000): { stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  let said = false
  const ask = (): void => {
    if (store.check === undefined) return ready()
    store.check().then(() => { if (!stopped) ready() }, () => {
      if (stopped) return
      if (!said) waiting()
      said = true
      timer = setTimeout(ask, everyMs)
      timer.unref()
    })
  }
  ask()
  return { stop: () => { stopped = true; clearTimeout(timer) } }
}

const ANY_ADDRESS = /\/\/(?:0\.0\.0\.0|\[::\])(?=:)/

/**
 * Where the start-up lines send a person: the public URL, or the listening origin with localhost
 * for 0.0.0.0; and, listening on every address without a public URL, a remark that a container's
 * published port (-p 8080:4010) is the one to use, which this process cannot know.
 */
export function startupOrigin (publicUrl: string | undefined, listening: string): { origin: string; published: string } {
  if (publicUrl !== undefined) return { origin: publicUrl.replace(/\/+$/, ''), published: '' }
  const anyAddress = ANY_ADDRESS.test(listening)
  return { origin: listening.replace(ANY_ADDRESS, '//localhost'), published: anyAddress ? ' (in a container: at the port you published; --public-url names it)' : '' }
}

/**
 * The generated token as the store keeps it (see WorldStore.keptAdminToken), or undefined when it
 * keeps none (memory) or cannot now (Redis unreachable or full, a folder it cannot write): then this
 * run's own, said in `warn` once.
 */
async function keptToken (store: WorldStore, made: string, warn: (line: string) => void): Promise<{ token: string; where: string } | undefined> {
  if (store.keptAdminToken === undefined) return undefined
  try {
    return await store.keptAdminToken(made)
  } catch (error) {
    warn(`the admin token could not be kept in the state store (${(error as Error).message}): this run's own holds until it stops, and another replica has its own; set MOCK_ADMIN_TOKEN to have one that lasts`)
    return undefined
  }
}

/** Builds the whole mock from a config. Loading fixtures or routes that are wrong throws here. */
export async function buildApp (configured: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  let access = adminAccess(configured.adminToken, configured.host)
  // The token in effect from here on, for every guard: the one given, one generated, or none.
  const config: Config = { ...configured, adminToken: access.token }
  const limits: ServerLimits = { ...SERVER_LIMITS, ...options.limits }
  const routerOptions = { ignoreTrailingSlash: true, maxParamLength: limits.maxParamLength }
  // Set once the core is loaded: the dialect in effect is known after Fastify is made.
  const late: { refusals?: Refusals } = {}
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: the lines that concern a request name its reqId themselves.
    childLoggerFactory: logger => logger,
    bodyLimit: config.bodyLimit,
    routerOptions,
    frameworkErrors: (error, request, reply) => frameworkErrorHandler(error, request, reply, late.refusals),
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
  if ((config.stateDir !== undefined || config.store !== undefined) && config.webhookUrl !== undefined && config.webhookSecret === undefined) {
    // Kept sessions keep the secret they were made with; sessions made after a restart would get a new one.
    app.log.warn('webhooks: --webhook-url without --webhook-secret and with kept state: each start generates a new secret for new sessions, while kept ones sign with theirs; set --webhook-secret so one receiver verifies them all')
  }
  if (access.openToNetwork) app.log.warn(`admin token none: the control plane (/__mock: every MFA code, resets, faults) is open to anyone who can reach ${config.host}`)
  const opened = options.store === undefined ? await openStore(config, (level, line) => app.log[level](line)) : { store: options.store, notice: undefined }
  const { notice } = opened
  // A store that cannot write is an outage with a start and an end in the log, and a reason in /readyz.
  const store = opened.store.persistent ? new WriteOutage((level, line) => app.log[level](line)).watch(opened.store) : opened.store
  // A token made up is kept where the sessions are: a restart (or another replica) keeps the dashboard link working.
  const kept = access.generated ? await keptToken(store, access.token as string, line => app.log.warn(line)) : undefined
  if (kept !== undefined) {
    access = { ...access, token: kept.token }
    config.adminToken = kept.token
  }
  let services: MockServices
  try {
    services = loadCore(config, MockServices, {
      sleep: options.sleep,
      onDropped: report => logDroppedSessions(app, report, config.maxSessions),
      // Open to a network, the control plane must not be a way to probe it through webhooks.
      webhookTargets: access.openToNetwork && !config.webhookAllowPrivate ? targetGuard({ trusted: config.webhookUrl }) : undefined,
      onDeliveriesRefused: (session, count) => app.log.warn(`webhooks: ${count} deliveries of session ${session} refused, its share of the queue (${WEBHOOK_LIMITS.maxPendingDeliveriesPerSession} waiting) or the whole queue (${WEBHOOK_LIMITS.maxPendingDeliveries}) was full (receiver down or slow?)`),
      store,
      onStoreError: (error, what) => app.log.error({ err: error }, `state store: ${what} failed`),
      onFixtures: description => app.log.info(description),
      onWarning: line => app.log.warn(line),
      dialect: dialectHooks
    })
    for (const w of services.dialects.warnings) app.log.warn(`dialect: ${w.file} at ${w.pointer === '' ? '/' : w.pointer}: ${w.rule}`)
    const restored = await services.sessions.restore()
    // A shared store's sessions are loaded as requests come, on whichever replica they land.
    if (notice !== undefined) app.log.info(store.shared ? notice : `${notice}: ${restored} session(s) restored`)
  } catch (error) {
    // Let go of the file, so that a corrected start (or --state-reset) can take it.
    await store.close()
    throw error
  }
  const { sessions, routes, scenarios } = services
  sessions.startSweeping(sessions.sweepIntervalMs, releaseAfterSweep)
  // preClose: a delivery hanging on a receiver that never answers must not hold a shutdown up.
  app.addHook('preClose', async () => sessions.webhooks.queue.close())
  // After the last request is answered (onClose): what the store was still doing is finished, then it closes.
  app.addHook('onClose', async () => sessions.close())
  app.decorateRequest('mockSession', null)
  app.decorateRequest('mockSessionCreated', false)
  app.decorateRequest('mockPersona', null)
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
  late.refusals = refusals(services)
  installErrorHandling(app, late.refusals)
  installRequestLog(app, config.logRequests)
  installGracefulClose(app, limits.shutdownGraceMs)
  if (config.cors) installCors(app, config)
  // The contract in the dialect of the scenario new sessions start from (one document for all: a client is generated once).
  const dialect = services.dialects.for(config.scenario)
  await installOpenApi(app, VERSION, routerOptions, config.publicUrl, dialect === undefined ? undefined : document => shapeContract(document, dialect))
  installJournal(app, services)
  installFinishedRequests(app, services)

  registerOperations(app, services)
  let announcing: { stop: () => void } | undefined
  app.addHook('onClose', async () => announcing?.stop())
  app.addHook('onListen', function (done) {
    // Where to go next, at addresses a person can open: the public URL, or localhost for 0.0.0.0;
    // and the customer route in effect, moved or not.
    const { origin, published } = startupOrigin(config.publicUrl, this.listeningOrigin)
    const customer = routes.find(route => route.operation.id === 'getCustomer')?.url ?? ''
    const where = `API ${origin}${customer}, contract ${origin}/docs, dashboard ${origin}/__mock/ui${published}`
    // "ready" only when /readyz says so: a replica whose Redis cannot be reached yet says it is
    // listening, and says ready once the store answers (the store's own line says when it does).
    announcing = announceWhenReady(store, () => this.log.info(`baas-mock ready: ${where}`), () => this.log.info(`baas-mock listening, not ready until the session store can be reached: ${where}`))
    // Said once, here: request logs mask ?token=, and the dashboard trades it for a cookie at its first load.
    if (access.generated) {
      const whose = kept === undefined ? 'this run\'s is in' : `the one kept in ${kept.where} (the same after a restart) is in`
      this.log.warn(`the control plane (/__mock) needs an admin token, as ${config.host} can be reached from a network; ${whose} ` +
        `${origin}/__mock/ui?token=${access.token ?? ''}${published} (scripts send it as x-mock-admin-token; MOCK_ADMIN_TOKEN sets your own, none leaves /__mock open)`)
    }
    done()
  })
  await app.register(healthRoutes, { scenarios: scenarios.size, checkStore: store.check === undefined ? undefined : async () => { await store.check?.() } })
  const dashboard = await bundledAssets()
  if (dashboard instanceof Error) app.log.warn(dashboard.message)
  // preClose, not onClose: Fastify closes the HTTP server first among the onClose hooks, and the
  // server waits for open responses, so an open event stream would hold SIGTERM up.
  app.addHook('preClose', async () => closeEventFeed(services))
  const controlPlane = controlDefinitions(services, CONTROL_ROUTES)
  // The PIN page is opened by end users, and the dashboard's page holds no data, so they stay outside the admin token.
  registerDefinitions(app, controlPlane.filter(route => !route.adminOnly), services)
  await app.register(async control => {
    control.addHook('onRequest', controlOriginGuard(config))
    control.addHook('onRequest', adminTokenGuard(config.adminToken))
    control.addHook('onRoute', documentAdminToken(config.adminToken))
    control.addHook('onSend', announceCreatedSession)
    registerDefinitions(control, controlPlane.filter(route => route.adminOnly), services)
  })
  return app
}
