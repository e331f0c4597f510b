import type { Config } from './config.js'
import { OPERATIONS } from './operations.js'
import { resolveRoutes } from './route-config.js'

/** `baas-mock env`: the configuration names as a .env pointing at a mock (default: this config's address). */
export function printEnv (config: Config, options: { baseUrl?: string | undefined; prefix?: string | undefined; format?: string | undefined }): string {
  const routes = resolveRoutes(OPERATIONS, config.routes)
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  const baseUrl = options.baseUrl ?? config.publicUrl ?? `http://${host}:${config.port}`
  const seen = new Set<string>()
  const lines: string[] = []
  for (const route of routes) {
    const name = `${options.prefix ?? ''}${route.operation.configName}`
    if (seen.has(name)) continue
    seen.add(name)
    lines.push(`${name}=${baseUrl.replace(/\/+$/, '')}${route.envPath}`)
  }
  if (options.format === 'json') return JSON.stringify(Object.fromEntries(lines.map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])), null, 2)
  return lines.join('\n')
}
