import { ConfigError } from './config-error.js'
import { acceptedConfigurationNames, configurationNameOf } from '../core/operations.js'
import { nearestName, ROUTE_NAME_REACH } from './nearest-name.js'
import { SETTINGS, type Setting } from './settings.js'

// Reading settings' values, wherever they come from (flags, environment, files, options): no I/O here.

export type Raw = string | number | boolean

export function parseSetting (setting: Setting, raw: Raw, where: string): string | number | boolean | Date {
  const text = String(raw).trim()
  switch (setting.type) {
    case 'integer': {
      const n = typeof raw === 'number' ? raw : /^-?\d+$/.test(text) ? Number(text) : Number.NaN
      if (!Number.isSafeInteger(n) || n < (setting.min ?? -Infinity) || n > (setting.max ?? Infinity)) {
        throw new ConfigError(`${where}: must be a whole number from ${setting.min} to ${setting.max}, got ${JSON.stringify(raw)}.`)
      }
      return n
    }
    case 'boolean':
      if (raw === true || ['true', '1', 'yes', 'on'].includes(text.toLowerCase())) return true
      if (raw === false || ['false', '0', 'no', 'off'].includes(text.toLowerCase())) return false
      throw new ConfigError(`${where}: must be true or false, got ${JSON.stringify(raw)}.`)
    case 'enum':
      if (!(setting.values ?? []).includes(text)) throw new ConfigError(`${where}: must be one of ${(setting.values ?? []).join(', ')}, got ${JSON.stringify(raw)}.`)
      return text
    case 'instant': {
      const date = new Date(text)
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) || Number.isNaN(date.getTime())) {
        throw new ConfigError(`${where}: must be an RFC 3339 instant such as 2026-11-23T15:00:00Z, got ${JSON.stringify(raw)}.`)
      }
      return date
    }
    default:
      // YAML reads `fixedCode: 012345` as the number 12345: ask for quotes, never guess the digits.
      if (typeof raw === 'number') throw new ConfigError(`${where}: must be text; YAML read a number, so write the value in quotes exactly as you mean it, e.g. ${setting.key}: "012345".`)
      if (typeof raw !== 'string') throw new ConfigError(`${where}: must be text, got ${JSON.stringify(raw)}.`)
      if (setting.pattern !== undefined && !setting.pattern.regex.test(raw)) throw new ConfigError(`${where}: ${setting.pattern.rule}, got ${JSON.stringify(raw)}.`)
      return raw
  }
}

/** What a config file or createMock's options may name besides the settings (each a flag of its own: --route, --env-file, --mode, --env-dir). */
const FILE_KEYS = ['routes', 'envFile', 'mode', 'envDir'] as const

/** Every name a config file and createMock's options take: each setting's flag in camelCase, its older names, and FILE_KEYS. */
export const OPTION_NAMES: readonly string[] = [...SETTINGS.flatMap(s => [s.key, ...(s.aliases ?? [])]), ...FILE_KEYS]

/** How far a misspelt option may be from the one meant (`maxSend`, `route`). */
const OPTION_REACH = 2

/** The record with every name checked (an unknown one refused, with the name meant) and older names read as the setting's own. */
export function checkedKeys (record: Record<string, unknown>, where: string): Record<string, unknown> {
  const unknown = Object.keys(record).find(k => !OPTION_NAMES.includes(k) && record[k] !== undefined)
  if (unknown !== undefined) {
    const meant = nearestName(unknown, OPTION_NAMES, OPTION_REACH)
    throw new ConfigError(`${where}: unknown key ${unknown}; ${meant === undefined ? `known: ${OPTION_NAMES.join(', ')}.` : `did you mean ${meant}?`}`)
  }
  const checked = { ...record }
  for (const setting of SETTINGS) {
    for (const alias of setting.aliases ?? []) {
      if (checked[alias] === undefined) continue
      if (checked[setting.key] !== undefined) throw new ConfigError(`${where}: ${setting.key} and ${alias} are one setting (${alias} is its older name); give one.`)
      checked[setting.key] = checked[alias]
      delete checked[alias]
    }
  }
  return checked
}

/** A route name that is no configuration name would move nothing: each is a problem, with the nearest name. */
export function unknownRouteNames (routes: Record<string, unknown>, where: (name: string) => string): string[] {
  return Object.keys(routes).filter(name => configurationNameOf(name) === undefined).map(unknown => {
    const meant = nearestName(unknown, acceptedConfigurationNames(), ROUTE_NAME_REACH)
    return `${where(unknown)}: not a configuration name; ${meant === undefined ? 'baas-mock env lists them.' : `did you mean ${meant}?`}`
  })
}

export function asRecord (value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where}: must be a mapping of keys to values.`)
  return value as Record<string, unknown>
}
