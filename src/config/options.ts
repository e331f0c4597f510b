import type { Config } from './config.js'
import { loadConfig } from './config-loader.js'
import type { FixtureFiles } from '../fixtures/memory-files.js'

/**
 * The settings of `baas-mock --help`, each flag in camelCase (`--max-sends` → `maxSends`), as
 * createMock and startServer take them, plus `routes` (the `--route` flags): the same names a config
 * file uses, checked the same way (an unknown one is refused, with the name meant).
 */
export interface MockOptions {
  port?: number
  host?: string
  /**
   * A team's own world: a folder of fixture files (Node), or the files themselves, by path inside
   * such a folder (`{ 'customers.yaml': text, 'scenarios/travel/cards.yaml': [...] }`); the bundled fixtures when unset.
   */
  fixtures?: string | FixtureFiles
  scenario?: string
  logLevel?: Config['logLevel']
  logRequests?: Config['logRequests']
  auth?: 'open' | 'strict'
  adminToken?: string
  seed?: number
  /** Start instant of every clock; freezes time until advanced. */
  now?: string | Date
  fixedCode?: string
  publicUrl?: string
  cors?: boolean
  /** Origins whose pages may use /__mock/* (comma-separated). */
  controlOrigins?: string
  maxSessions?: number
  sessionIdleSeconds?: number
  journalCap?: number
  journalMaxBytes?: number
  outboxCap?: number
  eventCap?: number
  /** Every session starts with a webhook endpoint at this URL. */
  webhookUrl?: string
  /** Its signing secret, `whsec_` + base64; generated when unset. */
  webhookSecret?: string
  webhookTimeoutMs?: number
  /** `0,5s,5m,30m,2h,5h,10h`: the delays of a delivery's attempts. */
  webhookRetrySchedule?: string
  /** Webhooks to private addresses although the control plane is open to a network (`--admin-token none` off loopback). */
  webhookAllowPrivate?: boolean
  bodyLimit?: number
  /** Proxies in front whose X-Forwarded-For to believe (per-client caps). */
  trustProxyHops?: number
  codeLength?: number
  codeTtlSeconds?: number
  maxCodeChecks?: number
  resendCooldownSeconds?: number
  maxSends?: number
  /** The older name of maxSends. */
  maxSendsPerWindow?: number
  sendWindowSeconds?: number
  maxVerifications?: number
  pinLinkTtlSeconds?: number
  maxPinLinks?: number
  maxCards?: number
  /** The older name of maxCards. */
  maxCardsPerCustomer?: number
  maxTransferAmount?: number
  /** Configuration name → route (`{ API_BAAS_CUSTOMER_CARD_LOCK: 'POST /v2/cards/:id/freeze' }`). */
  routes?: Record<string, string>
  /** A frontend's .env (or several, read in order as Vite merges them) whose configuration names move routes. */
  envFile?: string | string[]
  /** Read the app's `.env`, `.env.local`, `.env.[mode]` and `.env.[mode].local` as Vite's loadEnv does. */
  mode?: string
  /** Where those files are (default: the working folder). */
  envDir?: string
  /** Keep every session in this folder across restarts (Node; startServer and createMock, not createHandlers). */
  stateDir?: string
  /** Keep every session in this Redis (`redis://host:port/db`), shared with other mocks on it (Node; startServer and createMock). */
  store?: string
  /** Prefix of the Redis store's keys (`baas-mock:`). */
  storePrefix?: string
}

/** The configuration the options describe; nothing is read from the environment of the process. */
export function configFromOptions (options: MockOptions, defaults: { logLevel: Config['logLevel'] }): Config {
  const { now, ...rest } = options
  const given: Record<string, unknown> = { logLevel: defaults.logLevel, ...rest }
  if (now !== undefined) given.now = now instanceof Date ? now.toISOString() : now
  return loadConfig({ flags: {}, env: {}, cwd: process.cwd(), isTTY: false, options: given })
}
