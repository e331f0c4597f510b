import { DEFAULT_SETTINGS, type DomainSettings } from '../domain/context.js'
import type { AuthMode } from '../core/persona.js'
import { LOOPBACK_ORIGINS } from './origins.js'
import { fileURLToPath } from 'node:url'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export type LogRequests = 'all' | 'errors' | 'none'

/** Everything buildApp needs. CLI flags, environment and config file all end up here. */
export interface Config {
  port: number
  host: string
  fixturesDir: string
  scenario: string
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Pretty logs (a terminal) or JSON lines. */
  prettyLogs: boolean
  /** Which requests get a log line; the journal keeps every one of them whatever this says. */
  logRequests: LogRequests
  auth: AuthMode
  /** As set: a token; `none`, open on purpose; or undefined: open on loopback, generated on any other host (see admin-token.ts). */
  adminToken: string | undefined
  seed: number | undefined
  /** Frozen start instant of every world's clock. */
  now: Date | undefined
  maxSessions: number
  sessionIdleSeconds: number
  journalCap: number
  /** What the journals of all sessions may hold together, in accounted bytes (see JOURNAL_ACCOUNTING). */
  journalMaxBytes: number
  outboxCap: number
  /** Largest request body, bytes. */
  bodyLimit: number
  cors: boolean
  /** Origin patterns whose pages may use /__mock/* (CORS without credentials); see src/http/origins.ts. */
  controlOrigins: string[]
  /** Configuration name → route override (`API_BAAS_CUSTOMER=/v2/customers`). */
  routes: Record<string, string>
  /** Where each route override was set (`VITE_API_BAAS_REISSUE in ../app/.env`), for error messages. */
  routeSources: Record<string, string>
  /** Public base URL for links the mock hands out (PIN page), when behind a proxy. */
  publicUrl: string | undefined
  settings: DomainSettings
  /** What the loader noticed but need not stop for (a misspelt variable name), logged at start-up. */
  startupWarnings: string[]
}

/** The folder holding package.json, fixtures/ and openapi.yaml, from sources, dist/ or the bundle. */
export const PACKAGE_ROOT = findPackageRoot(fileURLToPath(new URL('.', import.meta.url)))

function findPackageRoot (from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'baas-mock') return dir
    if (dirname(dir) === dir) throw new Error(`baas-mock: cannot find its package.json above ${from}`)
  }
}
export const BUNDLED_FIXTURES = join(PACKAGE_ROOT, 'fixtures')

export function defaultConfig (overrides: Partial<Config> = {}): Config {
  return {
    port: 4010,
    host: '127.0.0.1',
    fixturesDir: BUNDLED_FIXTURES,
    scenario: 'default',
    logLevel: 'info',
    prettyLogs: false,
    logRequests: 'errors',
    auth: 'open',
    adminToken: undefined,
    seed: undefined,
    now: undefined,
    maxSessions: 1000,
    sessionIdleSeconds: 3600,
    journalCap: 500,
    journalMaxBytes: 64 * 1024 * 1024,
    outboxCap: 200,
    bodyLimit: 64 * 1024,
    cors: true,
    controlOrigins: [...LOOPBACK_ORIGINS],
    routes: {},
    routeSources: {},
    publicUrl: undefined,
    settings: structuredClone(DEFAULT_SETTINGS),
    startupWarnings: [],
    ...overrides
  }
}
