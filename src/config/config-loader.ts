import { existsSync, readFileSync } from 'node:fs'
import { dirname, extname, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { parse as parseDotenv } from 'dotenv'
import { expand } from 'dotenv-expand'
import { defaultConfig, type Config } from './config.js'
import { ConfigError } from './config-error.js'
import { configurationNameOf, OPERATIONS } from '../core/operations.js'
import { checkRoutes, RouteConfigError, withSources } from './route-config.js'
import { routesFrom } from './route-sources.js'
import { SETTINGS } from './settings.js'
import { asRecord, checkedKeys, parseSetting, unknownRouteNames, type Raw } from './setting-values.js'
import { fixtureFolderOf, type FixtureFiles } from '../fixtures/memory-files.js'
import { unreadNameWarnings } from './unread-names.js'
import { EXPANDING_PREFIXES } from './env-export.js'

export interface ConfigSources {
  /** Parsed CLI flags, by flag name (`admin-token`). */
  flags: Record<string, string | boolean | string[] | undefined>
  env: Record<string, string | undefined>
  cwd: string
  isTTY: boolean
  /** createMock's and startServer's options: read as a config file's keys are, in its place. */
  options?: Record<string, unknown>
}

/** Precedence: flag > environment > env file > config file > default. */
export function loadConfig (sources: ConfigSources): Config {
  // A person at a terminal watches every request go by; logs read later (a container, a CI job)
  // get the requests that went wrong, and the journal keeps them all.
  const config = defaultConfig({ prettyLogs: sources.isTTY, logRequests: sources.isTTY ? 'all' : 'errors' })
  const configPath = stringFlag(sources.flags.config) ?? sources.env.MOCK_CONFIG
  const file = sources.options !== undefined ? checkedKeys(sources.options, 'options') : configPath === undefined ? {} : readConfigFile(resolve(sources.cwd, configPath))
  const fileLabel = sources.options !== undefined ? 'the options' : configPath ?? 'the config file'
  const fileDir = configPath === undefined ? sources.cwd : dirname(resolve(sources.cwd, configPath))
  const envFiles = envFilesOf(sources, file, fileDir, configPath)
  const { values: fileEnv, fileOf, unsetBases } = readEnvFiles(envFiles, sources.env)
  const inFile = (name: string): string => `${name} in ${fileOf.get(name) ?? 'an env file'}`
  // A frontend's .env has its own PORT, HOST or LOG_LEVEL (a CRA dev server's PORT=3000): from
  // that file the mock takes configuration names and its own MOCK_ settings only.
  const env = { ...sources.env }
  for (const [name, value] of Object.entries(fileEnv)) {
    if (env[name] === undefined && (name.startsWith('MOCK_') || !SETTINGS.some(s => s.env === name))) env[name] = value
  }

  for (const setting of SETTINGS) {
    const flag = sources.flags[setting.flag]
    const fromFlag = Array.isArray(flag) ? flag.at(-1) : flag
    // Where the value came from: named in errors, and the folder a relative fixtures path starts in.
    const [raw, where, baseDir]: [Raw | undefined, string, string] = fromFlag !== undefined
      ? [fromFlag, `--${setting.flag}`, sources.cwd]
      : sources.env[setting.env] !== undefined
        ? [sources.env[setting.env] as string, setting.env, sources.cwd]
        : fileEnv[setting.env] !== undefined && env[setting.env] !== undefined
          ? [env[setting.env] as string, inFile(setting.env), dirname(fileOf.get(setting.env) ?? sources.cwd)]
          : [file[setting.key] as Raw | undefined, `${setting.key} in ${fileLabel}`, fileDir]
    if (raw === undefined) continue
    // createMock's fixtures may be the files themselves (memory-files.ts) rather than a folder.
    if (setting.key === 'fixtures' && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      config.fixturesDir = fixtureFolderOf(raw as FixtureFiles)
      continue
    }
    setting.apply(config, parseSetting(setting, raw, where))
    if (setting.key === 'fixtures' && typeof raw === 'string') config.fixturesDir = resolve(baseDir, raw)
    if (setting.key === 'stateDir' && typeof raw === 'string') config.stateDir = resolve(baseDir, raw)
  }

  const fileRoutes = file.routes === undefined ? {} : asRecord(file.routes, `routes in ${fileLabel}`)
  const flagRoutes = parseRouteFlags(sources.flags.route)
  const unknownNames = [
    ...unknownRouteNames(flagRoutes, name => `--route ${name}`),
    ...unknownRouteNames(fileRoutes, name => `routes.${name} in ${fileLabel}`)
  ]
  // In precedence order; where each route was set goes with it, so a route error sends the user to the right line.
  const routes = routesFrom([
    { values: flagRoutes, dotenv: false, where: name => `--route ${name}` },
    { values: sources.env, dotenv: true, where: name => `${name} in the environment` },
    { values: fileEnv, dotenv: true, where: inFile },
    { values: fileRoutes, dotenv: false, where: name => `routes.${name} in ${fileLabel}` }
  ])
  if (unknownNames.length > 0) {
    // With what is wrong with the names it knows, so that one run shows every route problem.
    throw new RouteConfigError([...unknownNames, ...withSources(checkRoutes(OPERATIONS, routes.routes).problems, routes.routeSources)])
  }
  config.routes = routes.routes
  config.routeSources = routes.routeSources
  config.startupWarnings = [
    ...unreadNameWarnings(Object.keys(sources.env), 'in the environment'),
    ...Object.keys(fileEnv).flatMap(name => unreadNameWarnings([name], `in ${fileOf.get(name) ?? 'an env file'}`)),
    ...unsetBaseWarnings(unsetBases, fileOf),
    ...routes.warnings
  ]
  return config
}

function readConfigFile (path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new ConfigError(`--config ${path}: no such file.`)
  let data: unknown
  try {
    const text = readFileSync(path, 'utf8')
    data = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    throw new ConfigError(`--config ${path}: cannot be parsed: ${(error as Error).message.split('\n')[0]?.replace(/:$/, '')}`)
  }
  return checkedKeys(asRecord(data ?? {}, path), path)
}

interface EnvFile { path: string; where: string }

/**
 * The env files, in the order they are read (a later file's value wins, as Vite's `.env.local` wins
 * over `.env`): every `--env-file` given (or MOCK_ENV_FILE's comma-separated list, or `envFile` in the
 * config file or options: one path or a list), then with a mode, Vite's own four in Vite's order.
 */
function envFilesOf (sources: ConfigSources, file: Record<string, unknown>, fileDir: string, configPath: string | undefined): EnvFile[] {
  const flags = stringsOf(sources.flags['env-file'])
  const fromEnv = (sources.env.MOCK_ENV_FILE ?? '').split(',').map(p => p.trim()).filter(p => p !== '')
  const fromFile = stringsOf(file.envFile as string | string[] | undefined)
  const given = flags.length > 0
    ? flags.map(f => ({ path: resolve(sources.cwd, f), where: '--env-file' }))
    : fromEnv.length > 0
      ? fromEnv.map(f => ({ path: resolve(sources.cwd, f), where: 'MOCK_ENV_FILE' }))
      : fromFile.map(f => ({ path: resolve(fileDir, f), where: `envFile in ${configPath ?? 'the config file'}` }))
  const mode = stringFlag(sources.flags.mode) ?? sources.env.MOCK_MODE ?? (typeof file.mode === 'string' ? file.mode : undefined)
  if (mode === undefined || mode === '') return given
  if (!/^[A-Za-z0-9._-]+$/.test(mode)) throw new ConfigError(`--mode: a mode is a name such as development or test, got ${JSON.stringify(mode)}.`)
  const dirFlag = stringFlag(sources.flags['env-dir']) ?? sources.env.MOCK_ENV_DIR
  const dir = dirFlag !== undefined ? resolve(sources.cwd, dirFlag) : typeof file.envDir === 'string' ? resolve(fileDir, file.envDir) : sources.cwd
  // Vite's loadEnv: the files that exist of these four, the more specific winning; given files come first, so these win.
  const vite = ['.env', '.env.local', `.env.${mode}`, `.env.${mode}.local`].map(name => resolve(dir, name)).filter(path => existsSync(path))
  return [...given, ...vite.map(path => ({ path, where: `--mode ${mode}` }))]
}

function stringsOf (value: string | boolean | string[] | undefined): string[] {
  if (Array.isArray(value)) return value
  return typeof value === 'string' && value !== '' ? [value] : []
}

/** `$NAME` or `${NAME}`, escaped (`\\$NAME`) or not; `${NAME:-default}` forms are dotenv-expand's alone. */
const REFERENCE = /(\\?)\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g
/** Stands in for a kept reference during expansion: it has no `$`, so no substitution can touch it. */
const KEPT = /\uE000(\d+)\uE001/g

interface EnvFileValues {
  values: Record<string, string>
  /** Name → the file whose value is in effect (the last that sets it). */
  fileOf: Map<string, string>
  /** A variable a value starts with that is set nowhere the file can see → the names whose values start with it. */
  unsetBases: Map<string, string[]>
}

/**
 * Reads a .env as the frontend's bundler does (dotenv and dotenv-expand, as Vite uses): a reference
 * to a variable defined above or in the environment expands (`${VITE_API_BASE}/otp`). A reference
 * to nothing is a route parameter (`$CARD_ID`), and an escaped one (`\\$CARD_ID`) is literal: both
 * stay as written, where dotenv-expand would make the first empty, even inside a composed value.
 * At the start of a value (after a method, if any) a reference can be no parameter, only a base
 * such as `${VITE_API_BASE}` set in another of the app's files: as in Vite, it reads as empty.
 */
function readEnvFiles (files: readonly EnvFile[], processEnv: Record<string, string | undefined>): EnvFileValues {
  // As Vite's loadEnv: every file parsed and merged in order (a later file's value wins, the name keeps
  // its first place), then expanded as one, so a base in .env is seen by a route in .env.local.
  const parsed: Record<string, string> = {}
  const fileOf = new Map<string, string>()
  for (const { path, where } of files) {
    if (!existsSync(path)) throw new ConfigError(`${where} ${path}: no such file.`)
    for (const [name, value] of Object.entries(parseDotenv(readFileSync(path, 'utf8')))) {
      parsed[name] = value
      fileOf.set(name, path)
    }
  }
  const kept: string[] = []
  const above = new Set<string>()
  const unsetBases = new Map<string, string[]>()
  for (const [name, value] of Object.entries(parsed)) {
    parsed[name] = value.replace(REFERENCE, (ref: string, escape: string, braced: string | undefined, bare: string | undefined, offset: number) => {
      const variable = braced ?? bare ?? ''
      if (escape === '' && (above.has(variable) || processEnv[variable] !== undefined)) return ref
      if (escape === '' && LEADING.test(value.slice(0, offset))) {
        unsetBases.set(variable, [...unsetBases.get(variable) ?? [], name])
        return ''
      }
      kept.push(ref.slice(escape.length))
      return `\uE000${kept.length - 1}\uE001`
    })
    above.add(name)
  }
  const known = Object.fromEntries(Object.entries(processEnv).filter((entry): entry is [string, string] => entry[1] !== undefined))
  const expanded = expand({ parsed, processEnv: known }).parsed ?? parsed
  const values = Object.fromEntries(Object.entries(expanded).map(([name, value]) => [name, value.replace(KEPT, (_m, i: string) => kept[Number(i)] ?? '')]))
  return { values, fileOf, unsetBases }
}

/** What may precede a base reference in a route value: nothing, or a method. */
const LEADING = /^\s*(?:[A-Za-z]+\s+)?$/

/** A base read as empty moves a route to its path alone: said once per variable, for the routes it concerns. */
function unsetBaseWarnings (unsetBases: ReadonlyMap<string, readonly string[]>, fileOf: ReadonlyMap<string, string>): string[] {
  const warnings: string[] = []
  for (const [variable, names] of unsetBases) {
    const routes = names.filter(name => configurationNameOf(name.slice((EXPANDING_PREFIXES.find(p => name.startsWith(p)) ?? '').length)) !== undefined)
    const [first, ...others] = routes
    if (first === undefined) continue
    warnings.push(`${first}${others.length > 0 ? ` (and ${others.length} more)` : ''} in ${fileOf.get(first) ?? 'an env file'}: \${${variable}} is set neither above it, nor in an env file read before it, nor in the environment; as in Vite, it reads as empty, so the route is the path after it.`)
  }
  return warnings
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
