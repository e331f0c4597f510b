import type { Config } from './config.js'

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
  apply: (config: Config, value: string | number | boolean | Date) => void
}

const int = (key: string, flag: string, env: string, description: string, min: number, max: number, apply: (c: Config, v: number) => void): Setting =>
  ({ key, flag, env, type: 'integer', description, min, max, apply: (c, v) => apply(c, v as number) })
const str = (key: string, flag: string, env: string, description: string, apply: (c: Config, v: string) => void, pattern?: Setting['pattern']): Setting =>
  ({ key, flag, env, type: 'string', description, ...(pattern === undefined ? {} : { pattern }), apply: (c, v) => apply(c, v as string) })

export const SETTINGS: readonly Setting[] = [
  int('port', 'port', 'PORT', 'Port to listen on', 0, 65535, (c, v) => { c.port = v }),
  str('host', 'host', 'HOST', 'Interface to listen on (0.0.0.0 in containers)', (c, v) => { c.host = v }),
  str('fixtures', 'fixtures', 'MOCK_FIXTURES', 'Folder of fixture files (a team\'s own world)', (c, v) => { c.fixturesDir = v }),
  str('scenario', 'scenario', 'MOCK_SCENARIO', 'Scenario new sessions start from', (c, v) => { c.scenario = v }),
  { key: 'logLevel', flag: 'log-level', env: 'LOG_LEVEL', type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], description: 'Log level', apply: (c, v) => { c.logLevel = v as Config['logLevel'] } },
  { key: 'auth', flag: 'auth', env: 'MOCK_AUTH', type: 'enum', values: ['open', 'strict'], description: 'open: unknown or missing tokens get the default persona; strict: 401', apply: (c, v) => { c.auth = v as Config['auth'] } },
  str('adminToken', 'admin-token', 'MOCK_ADMIN_TOKEN', 'Protects /__mock/* (send x-mock-admin-token or Authorization: Bearer)', (c, v) => { c.adminToken = v === '' ? undefined : v }),
  int('seed', 'seed', 'MOCK_SEED', 'Reproducible ids and codes, run to run', 0, 2 ** 31 - 1, (c, v) => { c.seed = v }),
  { key: 'now', flag: 'now', env: 'MOCK_NOW', type: 'instant', description: 'Start instant of every clock (RFC 3339); freezes time until advanced', apply: (c, v) => { c.now = v as Date } },
  str('fixedCode', 'fixed-code', 'MOCK_FIXED_CODE', 'Every verification code is this value', (c, v) => { c.settings.verification.fixedCode = v }, { regex: /^\d{4,10}$/, rule: 'must be 4 to 10 digits, as /mfa/verify accepts' }),
  str('publicUrl', 'public-url', 'MOCK_PUBLIC_URL', 'Base URL in links the mock hands out, when behind a proxy', (c, v) => { c.publicUrl = v }, { regex: /^https?:\/\/[^\s?#]+$/, rule: 'must be an http(s) URL without query or fragment' }),
  { key: 'cors', flag: 'cors', env: 'MOCK_CORS', type: 'boolean', description: 'Answer CORS (any origin, credentials)', apply: (c, v) => { c.cors = v as boolean } },
  int('maxSessions', 'max-sessions', 'MOCK_MAX_SESSIONS', 'Most sessions kept (least recently used go first)', 1, 1_000_000, (c, v) => { c.maxSessions = v }),
  int('sessionIdleSeconds', 'session-idle-seconds', 'MOCK_SESSION_IDLE_SECONDS', 'Idle time after which a session is dropped', 1, 31_536_000, (c, v) => { c.sessionIdleSeconds = v }),
  int('journalCap', 'journal-cap', 'MOCK_JOURNAL_CAP', 'Requests kept per session journal', 1, 1_000_000, (c, v) => { c.journalCap = v }),
  int('outboxCap', 'outbox-cap', 'MOCK_OUTBOX_CAP', 'Messages kept per session outbox', 1, 1_000_000, (c, v) => { c.outboxCap = v }),
  int('bodyLimit', 'body-limit', 'MOCK_BODY_LIMIT', 'Largest request body, bytes', 1024, 10 * 1024 * 1024, (c, v) => { c.bodyLimit = v }),
  int('codeLength', 'code-length', 'MOCK_CODE_LENGTH', 'Digits of a verification code', 4, 10, (c, v) => { c.settings.verification.codeLength = v }),
  int('codeTtlSeconds', 'code-ttl-seconds', 'MOCK_CODE_TTL_SECONDS', 'Validity of a verification code', 1, 86_400, (c, v) => { c.settings.verification.ttlSeconds = v }),
  int('maxCodeChecks', 'max-code-checks', 'MOCK_MAX_CODE_CHECKS', 'Checks allowed per verification', 1, 100, (c, v) => { c.settings.verification.maxChecks = v }),
  int('resendCooldownSeconds', 'resend-cooldown-seconds', 'MOCK_RESEND_COOLDOWN_SECONDS', 'Wait between two sends to one number', 0, 3600, (c, v) => { c.settings.verification.resendCooldownSeconds = v }),
  int('maxSendsPerWindow', 'max-sends', 'MOCK_MAX_SENDS', 'Sends per number per window', 1, 1000, (c, v) => { c.settings.verification.maxSendsPerWindow = v }),
  int('sendWindowSeconds', 'send-window-seconds', 'MOCK_SEND_WINDOW_SECONDS', 'The send-limit window', 1, 86_400, (c, v) => { c.settings.verification.sendWindowSeconds = v }),
  int('pinLinkTtlSeconds', 'pin-link-ttl-seconds', 'MOCK_PIN_LINK_TTL_SECONDS', 'Validity of a set-PIN link', 1, 86_400, (c, v) => { c.settings.pinLinkTtlSeconds = v }),
  int('maxTransferAmount', 'max-transfer-amount', 'MOCK_MAX_TRANSFER_AMOUNT', 'Largest transfer amount, minor units', 1, Number.MAX_SAFE_INTEGER, (c, v) => { c.settings.maxTransferAmount = v })
]
