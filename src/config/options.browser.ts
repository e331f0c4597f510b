import { defaultConfig, type Config } from './config.js'
import { ConfigError } from './config-error.js'
import { OPERATIONS } from '../core/operations.js'
import { checkRoutes, RouteConfigError, withSources } from './route-config.js'
import { routesFrom } from './route-sources.js'
import { SETTINGS } from './settings.js'
import { asRecord, checkedKeys, parseSetting, unknownRouteNames, type Raw } from './setting-values.js'
import { fixtureFolderOf } from '../fixtures/memory-files.js'
import type { MockOptions } from './options.js'

// options.ts for the browser: the options alone make the configuration, checked as in Node, with
// no file read (no config file, no .env, no fixtures folder: the files come as data).

export type { MockOptions } from './options.js'

export function configFromOptions (options: MockOptions, defaults: { logLevel: Config['logLevel'] }): Config {
  const { now, fixtures, envFile, mode, envDir, routes, ...rest } = options
  if (typeof fixtures === 'string') throw new ConfigError(`fixtures in the options: ${fixtures} is a folder, which a browser cannot read; pass the files as an object ({ 'customers.yaml': text, ... }).`)
  if (envFile !== undefined || mode !== undefined || envDir !== undefined) throw new ConfigError(`${envFile !== undefined ? `envFile in the options: ${String(envFile)} is a file` : 'mode and envDir in the options read files'}, which a browser cannot read; pass the routes as routes: { NAME: 'METHOD /path' }.`)
  const given = checkedKeys({ logLevel: defaults.logLevel, ...rest, ...(now === undefined ? {} : { now: now instanceof Date ? now.toISOString() : now }) }, 'options')
  const config = defaultConfig({ prettyLogs: false, logRequests: 'errors' })
  for (const setting of SETTINGS) {
    const raw = given[setting.key] as Raw | undefined
    if (raw !== undefined) setting.apply(config, parseSetting(setting, raw, `${setting.key} in the options`))
  }
  if (fixtures !== undefined) config.fixturesDir = fixtureFolderOf(fixtures)
  const givenRoutes = routes === undefined ? {} : asRecord(routes, 'routes in the options')
  const unknownNames = unknownRouteNames(givenRoutes, name => `routes.${name} in the options`)
  const resolved = routesFrom([{ values: givenRoutes, dotenv: false, where: name => `routes.${name} in the options` }])
  if (unknownNames.length > 0) throw new RouteConfigError([...unknownNames, ...withSources(checkRoutes(OPERATIONS, resolved.routes).problems, resolved.routeSources)])
  config.routes = resolved.routes
  config.routeSources = resolved.routeSources
  config.startupWarnings = resolved.warnings
  return config
}
