import { EXPANDING_PREFIXES } from './env-export.js'
import { acceptedConfigurationNames } from './operations.js'
import { nearestName } from './nearest-name.js'
import { SETTINGS } from './settings.js'

/** MOCK_ names the loader reads besides the settings. */
const LOADER_NAMES = ['MOCK_CONFIG', 'MOCK_ENV_FILE']

/** How far a misspelt name may be from the one it was meant as: a typo or two, not another word. */
const MOCK_NAME_REACH = 3
export const ROUTE_NAME_REACH = 2

/**
 * Names that look meant for the mock but that it does not read. A misspelt MOCK_ADMIN_TOKEN leaves
 * the control plane open, a misspelt route name leaves the route where it was, both in silence.
 * They are warned about, not refused: CI or an app's own .env may hold MOCK_ or API_ names of its
 * own. `where` says where a name was found (`in the environment`, `in ../app/.env`).
 */
export function unreadNameWarnings (names: Iterable<string>, where: string): string[] {
  const settingNames = [...SETTINGS.map(s => s.env).filter(n => n.startsWith('MOCK_')), ...LOADER_NAMES]
  const routeNames = acceptedConfigurationNames()
  const warnings: string[] = []
  for (const name of names) {
    if (name.startsWith('MOCK_')) {
      if (settingNames.includes(name)) continue
      warnings.push(`${name} ${where} is not a baas-mock setting and is ignored; ${suggestion(name, settingNames, MOCK_NAME_REACH) ?? 'see baas-mock --help for the settings.'}`)
      continue
    }
    const prefix = EXPANDING_PREFIXES.find(p => name.startsWith(p)) ?? ''
    const bare = name.slice(prefix.length)
    if (!bare.startsWith('API_') || routeNames.includes(bare)) continue
    const meant = suggestion(bare, routeNames, ROUTE_NAME_REACH, prefix)
    if (meant !== undefined) warnings.push(`${name} ${where} is not a configuration name and is ignored; ${meant}`)
  }
  return warnings
}

/** `did you mean X?` for the nearest known name within reach, else undefined. */
export function suggestion (name: string, known: readonly string[], reach: number, prefix = ''): string | undefined {
  const nearest = nearestName(name, known, reach)
  return nearest === undefined ? undefined : `did you mean ${prefix}${nearest}?`
}
