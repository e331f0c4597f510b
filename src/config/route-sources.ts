import { EXPANDING_PREFIXES } from './env-export.js'
import { configurationNames, namesOfRoute } from '../core/operations.js'

/** One place routes can be set: `--route`, the environment, an env file or the config file. */
export interface RouteSource {
  values: Record<string, unknown>
  /**
   * A .env or an environment: names may carry a bundler's prefix (`VITE_API_BAAS_CUSTOMER`) and
   * `$` may be escaped (`\$CARD_ID`) for its dotenv-expand, as `baas-mock env` writes them.
   */
  dotenv: boolean
  /** Where a name was written, as the user would look for it: `VITE_API_BAAS_REISSUE in ../app/.env`. */
  where: (name: string) => string
}

export interface RoutesSet {
  /** Configuration name → route value. */
  routes: Record<string, string>
  /** Configuration name → where the value in effect was written, under the name written there. */
  routeSources: Record<string, string>
  /** Names ignored because another name sets the same route in the same place. */
  warnings: string[]
}

/**
 * Each route from the first source that sets it (sources come in precedence order). Within one
 * source the configuration name as the API spells it comes first, then bundler-prefixed names,
 * then aliases; a name that loses to another with a different value is warned about.
 */
export function routesFrom (sources: readonly RouteSource[]): RoutesSet {
  const set: RoutesSet = { routes: {}, routeSources: {}, warnings: [] }
  for (const configName of configurationNames()) {
    const source = sources.find(s => namesIn(s, configName).length > 0)
    if (source === undefined) continue
    const [chosen, ...ignored] = namesIn(source, configName)
    if (chosen === undefined) continue
    set.routes[configName] = chosen.value
    set.routeSources[configName] = source.where(chosen.name)
    for (const other of ignored.filter(o => o.value !== chosen.value)) {
      set.warnings.push(`${source.where(other.name)} is ignored: ${source.where(chosen.name)} sets the same route.`)
    }
  }
  return set
}

function namesIn (source: RouteSource, configName: string): { name: string; value: string }[] {
  const names = namesOfRoute(configName).flatMap(n => source.dotenv ? [n, ...EXPANDING_PREFIXES.map(prefix => prefix + n)] : [n])
  return names.filter(name => source.values[name] !== undefined).map(name => {
    const value = String(source.values[name])
    return { name, value: source.dotenv ? value.replaceAll('\\$', '$') : value }
  })
}
