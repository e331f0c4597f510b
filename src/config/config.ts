import { DEFAULT_SETTINGS, type DomainSettings } from '../domain/context.js'
import type { AuthMode } from '../core/persona.js'
import { LOOPBACK_ORIGINS } from './origins.js'
import { BUNDLED_FIXTURES } from './package-root.js'
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../webhooks/retry-schedule.js'

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
  /** Events kept per session (GET /__mock/webhooks/events). */
  eventCap: number
  /** The webhook endpoint every session starts with; none when unset. */
  webhookUrl: string | undefined
  /** Its signing secret (whsec_…); generated at start when unset. Never logged. */
  webhookSecret: string | undefined
  /** How long one delivery attempt may take. */
  webhookTimeoutMs: number
  /** Delays of a delivery's attempts, milliseconds: before the first, then after each failure. */
  webhookRetrySchedule: number[]
  /**
   * Webhooks may go to loopback, private and link-local addresses even when the control plane is
   * open to a network (`--admin-token none` off loopback), where they are refused otherwise.
   */
  webhookAllowPrivate: boolean
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
  /** Proxies in front whose X-Forwarded-For is believed (0: none, the socket's address is the client's). */
  trustProxyHops: number
  /** Folder of the durable session store (--state-dir); sessions live in memory only when unset. */
  stateDir: string | undefined
  /** Start afresh: the store's files in stateDir are moved aside first (the CLI's --state-reset). */
  stateReset: boolean
  /** A Redis URL (--store redis://host:port/db, rediss:// too) that every replica shares; may carry a password, never logged. */
  store: string | undefined
  /** Prepended to every key the Redis store writes, so several mocks (or other apps) can share one Redis. */
  storePrefix: string
  settings: DomainSettings
  /** What the loader noticed but need not stop for (a misspelt variable name), logged at start-up. */
  startupWarnings: string[]
}

export { BUNDLED_FIXTURES, PACKAGE_ROOT } from './package-root.js'

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
    eventCap: 500,
    webhookUrl: undefined,
    webhookSecret: undefined,
    webhookTimeoutMs: 5000,
    webhookRetrySchedule: parseRetrySchedule(DEFAULT_RETRY_SCHEDULE),
    webhookAllowPrivate: false,
    bodyLimit: 64 * 1024,
    cors: true,
    controlOrigins: [...LOOPBACK_ORIGINS],
    routes: {},
    routeSources: {},
    publicUrl: undefined,
    trustProxyHops: 0,
    stateDir: undefined,
    stateReset: false,
    store: undefined,
    storePrefix: 'baas-mock:',
    settings: structuredClone(DEFAULT_SETTINGS),
    startupWarnings: [],
    ...overrides
  }
}
