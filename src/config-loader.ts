import { existsSync, readFileSync } from 'node:fs'
import { dirname, extname, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { parse as parseDotenv } from 'dotenv'
import { expand } from 'dotenv-expand'
import { defaultConfig, type Config } from './config.js'
import { EXPANDING_PREFIXES } from './env-export.js'
import { configurationNames } from './operations.js'
import { SETTINGS, type Setting } from './settings.js'

/** A setting that cannot be used; the message names it the way the user wrote it. */
export class ConfigError extends Error {
  constructor (message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'ConfigError'
  }
}

export interface ConfigSources {
  /** Parsed CLI flags, by flag name (`admin-token`). */
  flags: Record<string, string | boolean | string[] | undefined>
  env: Record<string, string | undefined>
  cwd: string
  isTTY: boolean
}

type Raw = string | number | boolean

/** Precedence: flag > environment > env file > config file > default. */
export function loadConfig (sources: ConfigSources): Config {
  const config = defaultConfig({ prettyLogs: sources.isTTY })
  const configPath = stringFlag(sources.flags.config) ?? sources.env.MOCK_CONFIG
  const file = configPath === undefined ? {} : readConfigFile(resolve(sources.cwd, configPath))
  const fileDir = configPath === undefined ? sources.cwd : dirname(resolve(sources.cwd, configPath))
  const envFile = envFileOf(sources, file, fileDir, configPath)
  const fileEnv = envFile === undefined ? {} : readEnvFile(envFile.path, envFile.where, sources.env)
  // A frontend's .env has its own PORT, HOST or LOG_LEVEL (a CRA dev server's PORT=3000): from
  // that file the mock takes configuration names and its own MOCK_ settings only.
  const env = { ...sources.env }
  for (const [name, value] of Object.entries(fileEnv)) {
    if (env[name] === undefined && (name.startsWith('MOCK_') || !SETTINGS.some(s => s.env === name))) env[name] = value
  }

  for (const setting of SETTINGS) {
    const flag = sources.flags[setting.flag]
    const fromFlag = Array.isArray(flag) ? flag.at(-1) : flag
    const [raw, where]: [Raw | undefined, string] = fromFlag !== undefined
      ? [fromFlag, `--${setting.flag}`]
      : env[setting.env] !== undefined
        ? [env[setting.env] as string, setting.env]
        : [file[setting.key] as Raw | undefined, `${setting.key} in ${configPath ?? 'the config file'}`]
    if (raw === undefined) continue
    setting.apply(config, parseSetting(setting, raw, where))
    if (setting.key === 'fixtures' && typeof raw === 'string') {
      config.fixturesDir = resolve(where.startsWith('fixtures in') ? fileDir : sources.cwd, raw)
    }
  }

  const fileRoutes = file.routes === undefined ? {} : asRecord(file.routes, `routes in ${configPath ?? ''}`)
  const flagRoutes = parseRouteFlags(sources.flags.route)
  for (const name of configurationNames()) {
    const value = flagRoutes[name] ?? routeFromEnv(env, name) ?? (fileRoutes[name] as string | undefined)
    if (value !== undefined) config.routes[name] = String(value)
  }
  const unknownFlagRoutes = Object.keys(flagRoutes).filter(n => !configurationNames().includes(n))
  if (unknownFlagRoutes.length > 0) throw new ConfigError(`--route ${unknownFlagRoutes[0]}: not a configuration name (see baas-mock env).`)
  const unknownFileRoutes = Object.keys(fileRoutes).filter(n => !configurationNames().includes(n))
  if (unknownFileRoutes.length > 0) throw new ConfigError(`routes.${unknownFileRoutes[0]} in ${configPath}: not a configuration name.`)
  return config
}

function parseSetting (setting: Setting, raw: Raw, where: string): string | number | boolean | Date {
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
      // YAML reads `fixedCode: 012345` as a number and drops the 0: ask for quotes, never guess.
      if (typeof raw !== 'string') throw new ConfigError(`${where}: must be text, got ${JSON.stringify(raw)}; quote it: ${setting.key}: "${String(raw)}".`)
      if (setting.pattern !== undefined && !setting.pattern.regex.test(raw)) throw new ConfigError(`${where}: ${setting.pattern.rule}, got ${JSON.stringify(raw)}.`)
      return raw
  }
}

function readConfigFile (path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new ConfigError(`--config ${path}: no such file.`)
  let data: unknown
  try {
    const text = readFileSync(path, 'utf8')
    data = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    throw new ConfigError(`--config ${path}: cannot be parsed: ${(error as Error).message.split('\n')[0]}`)
  }
  const record = asRecord(data ?? {}, path)
  const known = new Set([...SETTINGS.map(s => s.key), 'routes', 'envFile'])
  const unknown = Object.keys(record).filter(k => !known.has(k))
  if (unknown.length > 0) throw new ConfigError(`${path}: unknown key ${unknown[0]} (known: ${[...known].join(', ')}).`)
  return record
}

/**
 * A frontend's own `.env` names routes with its bundler's prefix (`VITE_API_BAAS_CUSTOMER`) and
 * escapes `$` so dotenv-expand keeps `$CARD_ID`, as `baas-mock env` writes it: both are understood.
 */
function routeFromEnv (env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name] ?? EXPANDING_PREFIXES.map(prefix => env[prefix + name]).find(v => v !== undefined)
  return value?.replaceAll('\\$', '$')
}

interface EnvFile { path: string; where: string }

function envFileOf (sources: ConfigSources, file: Record<string, unknown>, fileDir: string, configPath: string | undefined): EnvFile | undefined {
  const flag = stringFlag(sources.flags['env-file'])
  if (flag !== undefined) return { path: resolve(sources.cwd, flag), where: '--env-file' }
  const fromEnv = sources.env.MOCK_ENV_FILE
  if (fromEnv !== undefined && fromEnv !== '') return { path: resolve(sources.cwd, fromEnv), where: 'MOCK_ENV_FILE' }
  if (typeof file.envFile === 'string') return { path: resolve(fileDir, file.envFile), where: `envFile in ${configPath ?? 'the config file'}` }
  return undefined
}

/**
 * Reads a .env as the frontend's bundler does: `${VITE_API_BASE}/otp` and `$VITE_API_BASE` expand
 * (dotenv and dotenv-expand, as Vite, Next.js and CRA use). A `$NAME` that names no variable is a route
 * parameter (`$CARD_ID`) and stays as written, where dotenv-expand would make it empty.
 */
function readEnvFile (path: string, where: string, processEnv: Record<string, string | undefined>): Record<string, string> {
  if (!existsSync(path)) throw new ConfigError(`${where} ${path}: no such file.`)
  // dotenv's parser, as the bundlers use: it keeps the file's order, which expansion follows.
  const parsed = parseDotenv(readFileSync(path, 'utf8'))
  const defined = (name: string): boolean => name in parsed || processEnv[name] !== undefined
  for (const [name, value] of Object.entries(parsed)) {
    parsed[name] = value.replace(/(?<!\\)\$([A-Za-z_][A-Za-z0-9_]*)/g, (ref, variable: string) => defined(variable) ? ref : `\\${ref}`)
  }
  const known = Object.fromEntries(Object.entries(processEnv).filter((entry): entry is [string, string] => entry[1] !== undefined))
  return expand({ parsed, processEnv: known }).parsed ?? parsed
}

function asRecord (value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where}: must be a mapping of keys to values.`)
  return value as Record<string, unknown>
}

function stringFlag (value: string | boolean | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.at(-1)
  return typeof value === 'string' ? value : undefined
}

function parseRouteFlags (value: string | boolean | string[] | undefined): Record<string, string> {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : []
  const out: Record<string, string> = {}
  for (const item of items) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new ConfigError(`--route ${item}: write NAME=VALUE, e.g. --route "API_BAAS_CUSTOMER=/v2/customers".`)
    out[item.slice(0, eq)] = item.slice(eq + 1)
  }
  return out
}
