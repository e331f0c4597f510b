import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import cors from '@fastify/cors'
import type { Config } from '../../config/config.js'
import { loadCore } from '../../core/build.js'
import { adminTokenGuard } from './admin-auth.js'
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './errors.js'
import { SERVER_LIMITS } from '../../config/limits.js'
import { installJournal } from './journal-hook.js'
import { installJsonBodyParser } from './json-body.js'
import { installOpenApi } from './openapi.js'
import { registerOperations } from '../../../routes/operations.js'
import { SHARED_SCHEMAS } from '../../core/schemas/index.js'
import { MockServices } from './services.js'
import { createValidatorCompiler } from '../../core/validation.js'
import { lazySerializerFactory } from './lazy-compilers.js'
import { releaseAfterSweep } from './memory.js'
import { installRequestLog, loggerOptions } from './logger.js'
import { VERSION } from '../../config/version.js'
import { CONTROL_ROUTES } from '../../control/routes.js'
import { controlDefinitions } from '../../control/route.js'
import { registerDefinitions } from './register-routes.js'
import { clockRoutes } from '../../control/clock.js'
import { journalRoutes } from '../../control/journal.js'
import { outboxRoutes } from '../../control/outbox.js'
import { faultRoutes } from '../../control/faults.js'
import { sessionRoutes } from '../../control/sessions.js'
import { healthRoutes } from '../../../routes/health.js'
import { uiRoutes } from '../../../routes/mock/ui.js'

export interface BuildOptions {
  /** Fastify logger settings; tests pass false. */
  logger?: FastifyServerOptions['logger']
}

/** Builds the whole mock from a config. Loading fixtures or routes that are wrong throws here. */
export async function buildApp (config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const routerOptions = { ignoreTrailingSlash: true, maxParamLength: SERVER_LIMITS.maxParamLength }
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
    http: { maxHeaderSize: SERVER_LIMITS.maxHeaderBytes, headersTimeout: SERVER_LIMITS.headersTimeoutMs },
    requestTimeout: SERVER_LIMITS.requestTimeoutMs,
    connectionTimeout: SERVER_LIMITS.connectionTimeoutMs,
    keepAliveTimeout: SERVER_LIMITS.keepAliveTimeoutMs,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } }
  })
  // Before anything is loaded: a misspelt name may be why loading fails (a route left at its default clashing with a moved one).
  for (const warning of config.startupWarnings) app.log.warn(warning)
  const services = loadCore(config, MockServices)
  const { sessions, routes, scenarios } = services
  sessions.startSweeping(sessions.sweepIntervalMs, releaseAfterSweep)
  app.addHook('onClose', async () => sessions.stopSweeping())
  app.decorateRequest('mockSession', null)
  // JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain')
  installJsonBodyParser(app)

  const validation = createValidatorCompiler()
  for (const schema of SHARED_SCHEMAS) {
    app.addSchema(schema)
    validation.addSchema(schema)
  }
  app.setValidatorCompiler(validation.compiler)
  installErrorHandling(app)
  installRequestLog(app, config.logRequests)
  if (config.cors) {
    // Any origin is reflected; a request without Origin (curl, a test runner) is no CORS request
    // and gets no CORS headers, which saves most of the plugin's work per request.
    await app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined),
      // Named: @fastify/cors 11 allows only GET, HEAD and POST unless told.
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      credentials: true,
      exposedHeaders: ['Retry-After', 'Location', 'X-Mock-Source', 'X-Mock-Fault', 'Preference-Applied'],
      maxAge: 600
    })
  }
  await installOpenApi(app, VERSION, routerOptions)
  installJournal(app, services)

  registerOperations(app, services)
  app.addHook('onListen', function (done) {
    // Where to go next, at addresses a person can open: the public URL, or localhost for 0.0.0.0;
    // and the customer route in effect, moved or not.
    const origin = config.publicUrl?.replace(/\/+$/, '') ?? this.listeningOrigin.replace(/\/\/(?:0\.0\.0\.0|\[::\])(?=:)/, '//localhost')
    const customer = routes.find(route => route.operation.id === 'getCustomer')?.url ?? ''
    this.log.info(`baas-mock ready: API ${origin}${customer}, contract ${origin}/docs, dashboard ${origin}/__mock/ui`)
    done()
  })
  await app.register(healthRoutes, { scenarios: scenarios.size })
  // The dashboard's page is public too (it holds no data); its event stream is guarded inside.
  await app.register(uiRoutes, { prefix: '/__mock', services })
  const controlPlane = controlDefinitions(services, CONTROL_ROUTES)
  // The PIN page is opened by end users, so it stays outside the admin token.
  registerDefinitions(app, controlPlane.filter(route => !route.adminOnly), services)
  await app.register(async control => {
    control.addHook('onRequest', adminTokenGuard(config.adminToken))
    registerDefinitions(control, controlPlane.filter(route => route.adminOnly), services)
    for (const plugin of [clockRoutes, sessionRoutes, journalRoutes, outboxRoutes, faultRoutes]) {
      await control.register(plugin, { services, prefix: '/__mock' })
    }
  })
  return app
}
