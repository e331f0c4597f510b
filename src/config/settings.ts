import type { Config } from './config.js'
import { ORIGIN_LIST, parseOriginList } from './origins.js'
import { ConfigError } from './config-error.js'
import { formatRetrySchedule, parseRetrySchedule, RETRY_SCHEDULE_PATTERN } from '../webhooks/retry-schedule.js'
import { SECRET_PATTERN, SECRET_RULE } from '../webhooks/signing.js'
import { checkedStoreUrl } from './store-url.js'
import { hasCredentials, redactedUrl } from '../world/url-credentials.js'

/**
 * Every setting of the mock, once: its flag, environment variable and config-file key, how to
 * read it, and where it lands in Config. The CLI, `--help`, the loader and the README use this.
 */
export type SettingType = 'string' | 'integer' | 'boolean' | 'instant' | 'enum'

export interface Setting {
  key: string
  flag: string
  env: string
  type: SettingType
  description: string
  values?: readonly string[]
  min?: number
  max?: number
  /** For text: what the value must look like, and that rule in words for the error. */
  pattern?: { regex: RegExp; rule: string }
  /** What an unset setting means, where its default value says nothing (or differs per machine). */
  unset?: string
  /** Older config keys (and options) still read as this one; `key` is always the flag in camelCase. */
  aliases?: readonly string[]
  apply: (config: Config, value: string | number | boolean | Date) => void
  /** The value in a config, so --help and the README show the defaults the code really has. */
  read: (config: Config) => unknown
}

type Access = Pick<Setting, 'apply' | 'read'>

/** Read and write one field of the config, typed once for both directions. */
function field<T extends object, K extends keyof T> (select: (c: Config) => T, key: K): Access {
  return { read: c => select(c)[key], apply: (c, v) => { select(c)[key] = v as T[K] } }
}
type Verification = Config['settings']['verification']
const top = (key: keyof Config): Access => field<Config, keyof Config>(c => c, key)
const verification = (key: keyof Verification): Access => field<Verification, keyof Verification>(c => c.settings.verification, key)
const domain = (key: 'pinLinkTtlSeconds' | 'maxPinLinks' | 'maxCardsPerCustomer' | 'maxTransferAmount'): Access => field<Config['settings'], typeof key>(c => c.settings, key)

const int = (key: string, flag: string, env: string, description: string, min: number, max: number, at: Access, extra: Pick<Setting, 'unset' | 'aliases'> = {}): Setting =>
  ({ key, flag, env, type: 'integer', description, min, max, ...extra, ...at })
const str = (key: string, flag: string, env: string, description: string, at: Access, extra: Pick<Setting, 'pattern' | 'unset'> = {}): Setting =>
  ({ key, flag, env, type: 'string', description, ...extra, ...at })

export const SETTINGS: readonly Setting[] = [
  int('port', 'port', 'PORT', 'Port to listen on', 0, 65535, top('port')),
  str('host', 'host', 'HOST', 'Interface to listen on (0.0.0.0 in containers)', top('host')),
  str('fixtures', 'fixtures', 'MOCK_FIXTURES', 'Folder of fixture files (a team\'s own world)', top('fixturesDir'), { unset: 'the bundled fixtures/' }),
  str('scenario', 'scenario', 'MOCK_SCENARIO', 'Scenario new sessions start from', top('scenario')),
  { key: 'logLevel', flag: 'log-level', env: 'LOG_LEVEL', type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], description: 'Log level', ...top('logLevel') },
  {
    key: 'logRequests', flag: 'log-requests', env: 'MOCK_LOG_REQUESTS', type: 'enum', values: ['all', 'errors', 'none'],
    description: 'Which requests get a log line: all; errors (4xx and 5xx answers, and control-plane writes); or none',
    ...top('logRequests'), unset: 'all on a terminal, errors otherwise'
  },
  { key: 'auth', flag: 'auth', env: 'MOCK_AUTH', type: 'enum', values: ['open', 'strict'], description: 'open: unknown or missing tokens get the default persona; strict: 401', ...top('auth') },
  str('adminToken', 'admin-token', 'MOCK_ADMIN_TOKEN', 'Protects /__mock/* (send x-mock-admin-token or Authorization: Bearer); none leaves it open on any host', top('adminToken'), {
    // Empty is a mistake (an unset shell variable in `-e MOCK_ADMIN_TOKEN=$TOKEN`), not a way to open the control plane.
    pattern: { regex: /\S/, rule: 'must not be empty (give a token, or none to leave /__mock open)' },
    unset: 'open on loopback (127.0.0.1, ::1, localhost); on any other host, a token generated and printed at start-up'
  }),
  int('seed', 'seed', 'MOCK_SEED', 'Reproducible ids and codes, run to run', 0, 2 ** 31 - 1, top('seed'), { unset: 'random' }),
  { key: 'now', flag: 'now', env: 'MOCK_NOW', type: 'instant', description: 'Start instant of every clock (RFC 3339); freezes time until advanced', ...top('now'), unset: 'the real time, running' },
  str('fixedCode', 'fixed-code', 'MOCK_FIXED_CODE', 'Every verification code is this value', verification('fixedCode'), { pattern: { regex: /^\d{4,10}$/, rule: 'must be 4 to 10 digits, as /mfa/verify accepts' }, unset: 'random codes' }),
  str('publicUrl', 'public-url', 'MOCK_PUBLIC_URL', 'Base URL in links the mock hands out, when behind a proxy', top('publicUrl'), { pattern: { regex: /^https?:\/\/[^\s?#]+$/, rule: 'must be an http(s) URL without query or fragment' }, unset: 'taken from each request' }),
  int('trustProxyHops', 'trust-proxy-hops', 'MOCK_TRUST_PROXY_HOPS', 'Proxies in front of the mock whose X-Forwarded-For to believe (nginx alone: 1): per-client caps (the dashboard\'s event streams) count the client\'s address, not the proxy\'s', 0, 10, top('trustProxyHops'), { unset: '0: the connecting socket is the client; X-Forwarded-For, which anyone can send, is not read' }),
  { key: 'cors', flag: 'cors', env: 'MOCK_CORS', type: 'boolean', description: 'Answer CORS: the API to any origin, with credentials; /__mock/* to --control-origins only', ...top('cors') },
  str('controlOrigins', 'control-origins', 'MOCK_CONTROL_ORIGINS', 'Origins whose pages may use /__mock/* (CORS without credentials; other pages are refused, 403): comma-separated, a port may be *, empty for none',
    { read: c => c.controlOrigins.join(','), apply: (c, v) => { c.controlOrigins = parseOriginList(v as string) } },
    { pattern: { regex: ORIGIN_LIST, rule: 'must be origins such as http://localhost:*,https://app.example.com, separated by commas' }, unset: 'loopback: http(s)://localhost, 127.0.0.1 and [::1], any port' }),
  str('stateDir', 'state-dir', 'MOCK_STATE_DIR', 'Keep every session (world, clock, journal, outbox, faults) in this folder across restarts; --state-reset starts afresh, keeping the old files aside', top('stateDir'), {
    pattern: { regex: /\S/, rule: 'must be a folder path' },
    unset: 'sessions live in memory and go with the process'
  }),
  // Checked by checkedStoreUrl rather than a pattern: a pattern's error would print the value, password and all.
  str('store', 'store', 'MOCK_STORE', 'Keep every session in Redis, shared by every replica on it: redis://host:port/db, rediss:// for TLS, a password as redis://:password@host (never logged)',
    { read: c => c.store, apply: (c, v) => { c.store = checkedStoreUrl(v as string) } }, { unset: 'sessions live in this process (or in --state-dir)' }),
  str('storePrefix', 'store-prefix', 'MOCK_STORE_PREFIX', 'Prefix of every key the Redis store writes, so several mocks can share one Redis', top('storePrefix'), {
    pattern: { regex: /^[A-Za-z0-9:._-]{1,64}$/, rule: 'must be 1 to 64 letters, digits, colons, dots, underscores or dashes' }
  }),
  int('maxSessions', 'max-sessions', 'MOCK_MAX_SESSIONS', 'Most sessions kept (least recently used go first)', 1, 1_000_000, top('maxSessions')),
  int('sessionIdleSeconds', 'session-idle-seconds', 'MOCK_SESSION_IDLE_SECONDS', 'Idle time after which a session is dropped', 1, 31_536_000, top('sessionIdleSeconds')),
  int('journalCap', 'journal-cap', 'MOCK_JOURNAL_CAP', 'Requests kept per session journal', 1, 1_000_000, top('journalCap')),
  int('journalMaxBytes', 'journal-max-bytes', 'MOCK_JOURNAL_MAX_BYTES', 'Bytes the journals of all sessions hold together (oldest entries go first)', 1024 * 1024, 16 * 1024 ** 3, top('journalMaxBytes')),
  int('outboxCap', 'outbox-cap', 'MOCK_OUTBOX_CAP', 'Messages kept per session outbox', 1, 1_000_000, top('outboxCap')),
  int('eventCap', 'event-cap', 'MOCK_EVENT_CAP', 'Events kept per session (GET /__mock/webhooks/events)', 1, 1_000_000, top('eventCap')),
  // Checked by checkedWebhookUrl rather than a pattern: a pattern's error would print the value, a password in it too.
  str('webhookUrl', 'webhook-url', 'MOCK_WEBHOOK_URL', 'Every session starts with a webhook endpoint at this URL, sent every event',
    { read: c => c.webhookUrl, apply: (c, v) => { c.webhookUrl = checkedWebhookUrl(v as string) } }, { unset: 'none (add endpoints per session: POST /__mock/webhooks/endpoints)' }),
  str('webhookSecret', 'webhook-secret', 'MOCK_WEBHOOK_SECRET', 'The signing secret of that endpoint (never logged)', top('webhookSecret'), {
    pattern: { regex: SECRET_PATTERN, rule: SECRET_RULE }, unset: 'generated at start-up; GET /__mock/webhooks/endpoints shows it'
  }),
  int('webhookTimeoutMs', 'webhook-timeout-ms', 'MOCK_WEBHOOK_TIMEOUT_MS', 'How long one webhook delivery attempt may take, answer included', 1, 60_000, top('webhookTimeoutMs')),
  str('webhookRetrySchedule', 'webhook-retry-schedule', 'MOCK_WEBHOOK_RETRY_SCHEDULE', 'Delays of a delivery\'s attempts (real time): before the first, then after each failure; ms, s, m or h, comma-separated',
    { read: c => formatRetrySchedule(c.webhookRetrySchedule), apply: (c, v) => { c.webhookRetrySchedule = retrySchedule(v as string) } },
    { pattern: { regex: RETRY_SCHEDULE_PATTERN, rule: 'must be 1 to 20 durations such as 0,5s,5m,30m,2h (each at most 24h), comma-separated' } }),
  {
    key: 'webhookAllowPrivate', flag: 'webhook-allow-private', env: 'MOCK_WEBHOOK_ALLOW_PRIVATE', type: 'boolean',
    description: 'Let webhooks go to loopback, private and link-local addresses although the control plane is open to a network (--admin-token none off loopback), for receivers on that network',
    ...top('webhookAllowPrivate')
  },
  int('bodyLimit', 'body-limit', 'MOCK_BODY_LIMIT', 'Largest request body, bytes', 1024, 10 * 1024 * 1024, top('bodyLimit')),
  int('codeLength', 'code-length', 'MOCK_CODE_LENGTH', 'Digits of a verification code', 4, 10, verification('codeLength')),
  int('codeTtlSeconds', 'code-ttl-seconds', 'MOCK_CODE_TTL_SECONDS', 'Validity of a verification code', 1, 86_400, verification('ttlSeconds')),
  int('maxCodeChecks', 'max-code-checks', 'MOCK_MAX_CODE_CHECKS', 'Checks allowed per verification', 1, 100, verification('maxChecks')),
  int('resendCooldownSeconds', 'resend-cooldown-seconds', 'MOCK_RESEND_COOLDOWN_SECONDS', 'Wait between two sends to one number', 0, 3600, verification('resendCooldownSeconds')),
  int('maxSends', 'max-sends', 'MOCK_MAX_SENDS', 'Sends per number per window', 1, 1000, verification('maxSendsPerWindow'), { aliases: ['maxSendsPerWindow'] }),
  int('sendWindowSeconds', 'send-window-seconds', 'MOCK_SEND_WINDOW_SECONDS', 'The send-limit window', 1, 86_400, verification('sendWindowSeconds')),
  int('maxVerifications', 'max-verifications', 'MOCK_MAX_VERIFICATIONS', 'Phone numbers a session keeps codes or send counts for (a new number past it: 429 too_many_verifications)', 1, 10_000, verification('maxVerifications')),
  int('pinLinkTtlSeconds', 'pin-link-ttl-seconds', 'MOCK_PIN_LINK_TTL_SECONDS', 'Validity of a set-PIN link', 1, 86_400, domain('pinLinkTtlSeconds')),
  int('maxPinLinks', 'max-pin-links', 'MOCK_MAX_PIN_LINKS', 'Set-PIN links a session keeps, live, used or expired (past it: 409 too_many_pin_links)', 1, 10_000, domain('maxPinLinks')),
  int('maxCards', 'max-cards', 'MOCK_MAX_CARDS', 'Cards one customer may hold, closed ones included (past it: 409 too_many_cards)', 1, 10_000, domain('maxCardsPerCustomer'), { aliases: ['maxCardsPerCustomer'] }),
  int('maxTransferAmount', 'max-transfer-amount', 'MOCK_MAX_TRANSFER_AMOUNT', 'Largest transfer amount, minor units', 1, Number.MAX_SAFE_INTEGER, domain('maxTransferAmount'))
]

/** A --webhook-url: http(s), no credentials; the error shows the URL with its password taken out. */
function checkedWebhookUrl (text: string): string {
  const where = '--webhook-url (MOCK_WEBHOOK_URL, webhookUrl)'
  // Text that is no URL shows as such: a typo around a password must not print the password.
  if (!URL.canParse(text)) throw new ConfigError(`${where}: must be an http: or https: URL, got (not a URL).`)
  if (!/^https?:\/\/\S+$/.test(text)) throw new ConfigError(`${where}: must be an http: or https: URL, got ${redactedUrl(text)}.`)
  if (hasCredentials(text)) throw new ConfigError(`${where}: must not carry credentials (user:password@), the mock sends none; got ${redactedUrl(text)}.`)
  return text
}

function retrySchedule (text: string): number[] {
  try {
    return parseRetrySchedule(text)
  } catch (error) {
    throw new ConfigError(`--webhook-retry-schedule (MOCK_WEBHOOK_RETRY_SCHEDULE, webhookRetrySchedule): ${(error as Error).message}.`)
  }
}

/** The values a setting accepts, as a person reads them: `0–65535`, `open`, `strict`; none for free text. */
export function acceptedValues (setting: Setting): string[] {
  if (setting.type === 'enum') return [...(setting.values ?? [])]
  if (setting.type === 'integer') return [`${setting.min}–${setting.max}`]
  return setting.type === 'boolean' ? ['true', 'false'] : []
}

/** The default of a setting as a person reads it: `4010`, `false`, or what leaving it unset means. */
export function shownDefault (setting: Setting, defaults: Config): string {
  if (setting.unset !== undefined) return setting.unset
  const value = setting.read(defaults)
  return value === undefined ? 'none' : String(value)
}
