import { EXPANDING_PREFIXES } from './env-export.js'
import { nearestName, ROUTE_NAME_REACH } from './nearest-name.js'
import { acceptedConfigurationNames } from '../core/operations.js'
import { SETTINGS } from './settings.js'

/** The part of a setting's name after MOCK_, where a typo can be. */
const SETTING_NAMES = [...SETTINGS.map(s => s.env), 'MOCK_CONFIG', 'MOCK_ENV_FILE', 'MOCK_MODE', 'MOCK_ENV_DIR'].filter(n => n.startsWith('MOCK_')).map(n => n.slice('MOCK_'.length))
const SETTING_NAME_REACH = 3

/**
 * Names a typo or two away from one the mock reads. A misspelt MOCK_ADMIN_TOKEN leaves the control
 * plane open, a misspelt route name leaves the route where it was, both in silence. Only near
 * misses are named: CI, an app's .env or Kubernetes (MOCK_SERVICE_HOST for a service named mock)
 * hold MOCK_ and API_ names of their own. `where` says where the names were found.
 */
export function unreadNameWarnings (names: Iterable<string>, where: string): string[] {
  const routeNames = acceptedConfigurationNames()
  const warnings: string[] = []
  for (const name of names) {
    if (name.startsWith('MOCK_')) {
      const rest = name.slice('MOCK_'.length)
      const meant = SETTING_NAMES.includes(rest) ? undefined : nearestName(rest, SETTING_NAMES, SETTING_NAME_REACH)
      if (meant !== undefined) warnings.push(`${name} ${where} is not a baas-mock setting and is ignored; did you mean MOCK_${meant}?`)
      continue
    }
    const prefix = EXPANDING_PREFIXES.find(p => name.startsWith(p)) ?? ''
    const bare = name.slice(prefix.length)
    if (routeNames.includes(bare)) continue
    const meant = (bare.startsWith('API_') ? nearestName(bare, routeNames, ROUTE_NAME_REACH) : undefined) ?? containedRouteName(bare, routeNames)
    if (meant !== undefined) warnings.push(`${name} ${where} is not a configuration name and is ignored; did you mean ${prefix}${meant}?`)
  }
  return warnings
}

/**
 * A team's own spelling around a configuration name (`API_BAAS_REISSUE_CARD`, `MYAPP_BAAS_REISSUE`):
 * the longest configuration name whose words after API_ stand in it as whole words. Matching it
 * silently could move the wrong route; naming it costs one line.
 */
function containedRouteName (bare: string, routeNames: readonly string[]): string | undefined {
  const padded = `_${bare}_`
  let best: string | undefined
  for (const routeName of routeNames) {
    const core = routeName.replace(/^API_/, '')
    if (padded.includes(`_${core}_`) && (best === undefined || routeName.length > best.length)) best = routeName
  }
  return best
}
