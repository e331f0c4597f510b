import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { createMock, type MockOptions } from '../../src/index.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { configFromOptions } from '../../src/config/options.js'
import { OPTION_NAMES } from '../../src/config/setting-values.js'
import { SETTINGS, type Setting } from '../../src/config/settings.js'

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())

/** A valid value unlike the default, by what the setting takes. */
function sample (s: Setting, dir: string): unknown {
  if (s.type === 'integer') return Math.min(s.max ?? 7, Math.max(s.min ?? 0, 7))
  if (s.type === 'boolean') return s.read(configFromOptions({}, { logLevel: 'silent' })) !== true
  if (s.type === 'enum') return s.key === 'logLevel' ? 'error' : (s.values ?? []).at(-1)
  if (s.type === 'instant') return '2027-01-04T10:00:00.000Z'
  const text: Record<string, string> = {
    fixtures: join(dir, 'world'), scenario: 'new-customer', publicUrl: 'https://mock.example.com', controlOrigins: 'https://tools.example.com',
    fixedCode: '424242', webhookUrl: 'https://backend.example/hooks', webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    webhookRetrySchedule: '0,1s', store: 'redis://127.0.0.1:6379/1', stateDir: join(dir, 'state')
  }
  return text[s.key] ?? 'sample'
}

t.test('createMock takes every flag by its camelCase name, and each changes its setting', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-options-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(BUNDLED_FIXTURES, join(dir, 'world'), { recursive: true })
  const defaults = configFromOptions({}, { logLevel: 'silent' })
  for (const setting of SETTINGS) {
    const name = camel(setting.flag)
    t.equal(setting.key, name, `--${setting.flag} is ${name} in code`)
    const options = { [name]: sample(setting, dir) } as MockOptions
    const config = configFromOptions(options, { logLevel: 'silent' })
    t.not(JSON.stringify(setting.read(config)), JSON.stringify(setting.read(defaults)), `${name} sets --${setting.flag}`)
    // A Redis store needs a Redis to open: the name is checked above, as createMock checks it.
    if (name === 'store') continue
    const mock = await createMock(options)
    t.ok(typeof mock.fetch === 'function', `createMock({ ${name} }) makes a mock`)
    await mock.close()
  }
})

t.test('maxSends (--max-sends) is the limit the API enforces; maxSendsPerWindow is its older name', async t => {
  const sends = async (options: MockOptions): Promise<number[]> => {
    const mock = await createMock(options)
    t.teardown(() => mock.close())
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await mock.fetch('/mfa/send-code', { method: 'POST', headers: { authorization: 'Bearer tok_jordan', 'content-type': 'application/json' }, body: '{}' })
      statuses.push(res.status)
    }
    return statuses
  }
  t.same(await sends({ maxSends: 1, resendCooldownSeconds: 0 }), [202, 429, 429])
  t.same(await sends({ maxSendsPerWindow: 2, resendCooldownSeconds: 0 }), [202, 202, 429])
  t.equal(configFromOptions({ maxCardsPerCustomer: 3 }, { logLevel: 'silent' }).settings.maxCardsPerCustomer, 3)
  await t.rejects(createMock({ maxSends: 1, maxSendsPerWindow: 2 }), { message: /maxSends and maxSendsPerWindow are one setting/ })
})

t.test('an unknown option is refused with the name meant', async t => {
  await t.rejects(createMock({ maxSend: 3 } as MockOptions), { message: 'options: unknown key maxSend; did you mean maxSends?' })
  await t.rejects(createMock({ route: { API_BAAS_CUSTOMER: '/v2/customers' } } as MockOptions), { message: /unknown key route; did you mean routes\?/ })
  await t.rejects(createMock({ colourScheme: 'dark' } as MockOptions), { message: /unknown key colourScheme; known: port, host, .*envDir\.$/ })
})

// Every name MockOptions types: a missing or extra one here fails the type check.
const TYPED: Record<keyof MockOptions, true> = {
  port: true, host: true, fixtures: true, scenario: true, logLevel: true, logRequests: true, auth: true, adminToken: true, seed: true, now: true,
  fixedCode: true, publicUrl: true, cors: true, controlOrigins: true, maxSessions: true, sessionIdleSeconds: true, journalCap: true, journalMaxBytes: true,
  outboxCap: true, eventCap: true, webhookUrl: true, webhookSecret: true, webhookTimeoutMs: true, webhookRetrySchedule: true, webhookAllowPrivate: true,
  bodyLimit: true, trustProxyHops: true, codeLength: true, codeTtlSeconds: true, maxCodeChecks: true, resendCooldownSeconds: true, maxSends: true,
  maxSendsPerWindow: true, sendWindowSeconds: true, maxVerifications: true, pinLinkTtlSeconds: true, maxPinLinks: true, maxCards: true,
  maxCardsPerCustomer: true, maxTransferAmount: true, routes: true, envFile: true, mode: true, envDir: true, stateDir: true, store: true, storePrefix: true
}

t.test('no option documented but refused, none accepted but undocumented', async t => {
  t.same([...Object.keys(TYPED)].sort(), [...OPTION_NAMES].sort(), 'MockOptions types exactly the names accepted')
  const doc = readFileSync(new URL('../../docs/reference/configuration.md', import.meta.url), 'utf8')
  const table = doc.slice(doc.indexOf('<!-- settings:start'), doc.indexOf('<!-- settings:end'))
  const documented = new Set<string>()
  for (const row of table.split('\n').filter(line => line.startsWith('| `--'))) {
    for (const [, name] of (row.split(' | ')[2] ?? '').matchAll(/`([A-Za-z]+)`/g)) documented.add(name as string)
  }
  for (const name of ['routes', 'envFile', 'mode', 'envDir']) t.match(doc, `\`${name}\``, `${name} is in the text`)
  for (const name of ['routes', 'envFile', 'mode', 'envDir']) documented.add(name)
  t.same([...documented].sort(), [...OPTION_NAMES].sort(), 'the table (and its text) lists exactly the names accepted')
})
