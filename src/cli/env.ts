import type { Config } from '../config/config.js'
import { renderEnv, type EnvFormat } from '../config/env-export.js'
import { OPERATIONS } from '../core/operations.js'
import { resolveConfiguredRoutes } from '../config/route-config.js'
import { ConfigError } from '../config/config-error.js'

/** `baas-mock env`: the same export as `GET /__mock/env`, for a mock at this config's address. */
export function printEnv (config: Config, options: { baseUrl?: string | undefined; prefix?: string | undefined; format?: string | undefined }): string {
  if (options.format !== undefined && options.format !== 'dotenv' && options.format !== 'json') {
    throw new ConfigError(`--format: must be dotenv or json, got ${JSON.stringify(options.format)}.`)
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  const baseUrl = options.baseUrl ?? config.publicUrl ?? `http://${host}:${config.port}`
  return renderEnv(resolveConfiguredRoutes(OPERATIONS, config.routes, config.routeSources), baseUrl, { prefix: options.prefix, format: options.format as EnvFormat | undefined })
}
