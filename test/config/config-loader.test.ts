import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { loadConfig } from '../../src/config/config-loader.js'
import { SETTINGS, shownDefault } from '../../src/config/settings.js'

const base = { flags: {}, env: {}, cwd: process.cwd(), isTTY: false }
const tempDir = () => mkdtempSync(join(tmpdir(), 'baas-mock-config-'))

t.test('defaults: 127.0.0.1:4010, bundled fixtures, open auth', async t => {
  const config = loadConfig(base)
  t.equal(config.port, 4010)
  t.equal(config.host, '127.0.0.1')
  t.equal(config.auth, 'open')
  t.match(config.fixturesDir, /fixtures$/)
  t.same(config.routes, {})
})

t.test('request log lines: every request on a terminal, the 4xx and 5xx otherwise, and as set', async t => {
  t.equal(loadConfig({ ...base, isTTY: true }).logRequests, 'all', 'a terminal: someone is watching')
  t.equal(loadConfig(base).logRequests, 'errors', 'a pipe or a file: a container or a CI job')
  t.equal(loadConfig({ ...base, isTTY: true, env: { MOCK_LOG_REQUESTS: 'none' } }).logRequests, 'none')
  t.equal(loadConfig({ ...base, flags: { 'log-requests': 'all' } }).logRequests, 'all')
  t.throws(() => loadConfig({ ...base, env: { MOCK_LOG_REQUESTS: 'some' } }), /MOCK_LOG_REQUESTS.*all, errors, none/)
})

t.test('precedence: flag > environment > env file > config file', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, 'mock.yaml'), 'port: 5001\nhost: 0.0.0.0\nseed: 3\njournalCap: 10\n')
  writeFileSync(join(dir, '.env'), 'PORT=5002\nMOCK_SEED=4\n')
  const config = loadConfig({ ...base, cwd: dir, flags: { config: 'mock.yaml', 'env-file': '.env', port: '5004' }, env: { PORT: '5003' } })
  t.equal(config.port, 5004, 'flag wins')
  t.equal(config.seed, 4, 'env file beats the config file')
  t.equal(config.host, '0.0.0.0', 'config file beats the default')
  t.equal(config.journalCap, 10)
  const noFlag = loadConfig({ ...base, cwd: dir, flags: { config: 'mock.yaml', 'env-file': '.env' }, env: { PORT: '5003' } })
  t.equal(noFlag.port, 5003, 'environment beats the env file')
})

t.test('a frontend .env moves routes unchanged (bundler prefixes and escaped $ included); the config file and --route do too', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, '.env.local'), [
    'VITE_SOMETHING=else',
    'API_BAAS_CUSTOMER=https://bank.example.com/v2/customers',
    'API_BAAS_CUSTOMER_CARD_LOCK=https://bank.example.com/v2/cards/$CARD_ID/lock',
    'VITE_API_BAAS_CUSTOMER_CARD_UNLOCK=https://bank.example.com/v2/cards/\\$CARD_ID/unlock',
    'NEXT_PUBLIC_API_BAAS_STATEMENT_BY_EMAIL=/v2/statements/{statementId}/email'
  ].join('\n'))
  writeFileSync(join(dir, 'c.json'), JSON.stringify({ routes: { API_BAAS_REISSUE: '/cards/{cardId}/reissue' } }))
  const config = loadConfig({ ...base, cwd: dir, flags: { 'env-file': '.env.local', config: 'c.json', route: ['API_BAAS_SET_PIN=/pin/:cardId'] } })
  t.same(config.routes, {
    API_BAAS_CUSTOMER: 'https://bank.example.com/v2/customers',
    API_BAAS_CUSTOMER_CARD_LOCK: 'https://bank.example.com/v2/cards/$CARD_ID/lock',
    API_BAAS_CUSTOMER_CARD_UNLOCK: 'https://bank.example.com/v2/cards/$CARD_ID/unlock',
    API_BAAS_STATEMENT_BY_EMAIL: '/v2/statements/{statementId}/email',
    API_BAAS_REISSUE: '/cards/{cardId}/reissue',
    API_BAAS_SET_PIN: '/pin/:cardId'
  })
})

t.test('settings are validated with messages that name them', async t => {
  t.throws(() => loadConfig({ ...base, flags: { port: 'abc' } }), { message: /--port: must be a whole number from 0 to 65535, got "abc"/ })
  t.throws(() => loadConfig({ ...base, env: { PORT: '70000' } }), { message: /^PORT: must be a whole number/ })
  t.throws(() => loadConfig({ ...base, flags: { auth: 'maybe' } }), { message: /--auth: must be one of open, strict/ })
  t.throws(() => loadConfig({ ...base, env: { MOCK_NOW: 'yesterday' } }), { message: /MOCK_NOW: must be an RFC 3339 instant/ })
  t.throws(() => loadConfig({ ...base, env: { MOCK_CORS: 'perhaps' } }), { message: /MOCK_CORS: must be true or false/ })
  t.throws(() => loadConfig({ ...base, flags: { 'fixed-code': 'abc' } }), { message: '--fixed-code: must be 4 to 10 digits, as /mfa/verify accepts, got "abc".' })
  t.throws(() => loadConfig({ ...base, env: { MOCK_FIXED_CODE: '12' } }), { message: /^MOCK_FIXED_CODE: must be 4 to 10 digits/ })
  t.equal(loadConfig({ ...base, flags: { 'fixed-code': '0000' } }).settings.verification.fixedCode, '0000')
  t.throws(() => loadConfig({ ...base, flags: { 'public-url': 'mock.example.com' } }), { message: /^--public-url: must be an http\(s\) URL/ })
  t.throws(() => loadConfig({ ...base, flags: { config: 'missing.yaml' } }), { message: /--config .*missing.yaml: no such file/ })
  t.throws(() => loadConfig({ ...base, flags: { 'env-file': 'missing.env' } }), { message: /--env-file .*missing.env: no such file/ })
  t.throws(() => loadConfig({ ...base, flags: { route: ['NOPE=/x'] } }), { message: /--route NOPE: not a configuration name/ })
  t.throws(() => loadConfig({ ...base, flags: { route: ['no-equals'] } }), { message: /--route no-equals: write NAME=VALUE/ })
  const dir = tempDir()
  writeFileSync(join(dir, 'bad.yaml'), 'prot: 1\n')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { config: 'bad.yaml' } }), { message: /unknown key prot/ })
  writeFileSync(join(dir, 'broken.json'), '{')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { config: 'broken.json' } }), { message: /cannot be parsed/ })
  writeFileSync(join(dir, 'routes.yaml'), 'routes:\n  API_NOPE: /x\n')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { config: 'routes.yaml' } }), { message: /routes.API_NOPE .*not a configuration name/ })
})

t.test('typed settings land where the app reads them', async t => {
  const config = loadConfig({ ...base, flags: { now: '2027-01-04T09:00:00Z', 'fixed-code': '123456', 'code-ttl-seconds': '60', cors: 'false', 'admin-token': 's3cret', 'max-transfer-amount': '100' } })
  t.equal(config.now?.toISOString(), '2027-01-04T09:00:00.000Z')
  t.equal(config.settings.verification.fixedCode, '123456')
  t.equal(config.settings.verification.ttlSeconds, 60)
  t.equal(config.cors, false)
  t.equal(config.adminToken, 's3cret')
  t.equal(config.settings.maxTransferAmount, 100)
})

t.test('an empty admin token stops the start, naming where it was set: it used to leave the control plane open in silence', async t => {
  const rule = 'must not be empty (give a token, or none to leave /__mock open), got'
  t.throws(() => loadConfig({ ...base, env: { MOCK_ADMIN_TOKEN: '' } }), { message: `MOCK_ADMIN_TOKEN: ${rule} "".` })
  t.throws(() => loadConfig({ ...base, flags: { 'admin-token': '' } }), { message: `--admin-token: ${rule} "".` })
  t.throws(() => loadConfig({ ...base, env: { MOCK_ADMIN_TOKEN: '  ' } }), { message: `MOCK_ADMIN_TOKEN: ${rule} "  ".` })
  const dir = tempDir()
  writeFileSync(join(dir, 'mock.yaml'), 'adminToken: ""\n')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { config: 'mock.yaml' } }), { message: `adminToken in mock.yaml: ${rule} "".` })
  t.equal(loadConfig({ ...base, env: { MOCK_ADMIN_TOKEN: 'none' } }).adminToken, 'none', 'none is the way to say open, on any host')
})

t.test('control origins: loopback by default, a comma-separated list, empty for none; anything else stops the start', async t => {
  t.same(loadConfig(base).controlOrigins, ['http://localhost:*', 'https://localhost:*', 'http://127.0.0.1:*', 'https://127.0.0.1:*', 'http://[::1]:*', 'https://[::1]:*'])
  t.same(loadConfig({ ...base, env: { MOCK_CONTROL_ORIGINS: 'https://tools.example.com, http://devbox.lan:*,http://[::1]:4010' } }).controlOrigins,
    ['https://tools.example.com', 'http://devbox.lan:*', 'http://[::1]:4010'])
  t.same(loadConfig({ ...base, flags: { 'control-origins': '' } }).controlOrigins, [], 'empty: no page at all')
  for (const bad of ['localhost:5173', 'http://localhost:5173/', 'https://*.example.com', 'ftp://x', 'http://a b']) {
    t.throws(() => loadConfig({ ...base, env: { MOCK_CONTROL_ORIGINS: bad } }), { message: /MOCK_CONTROL_ORIGINS: must be origins such as/ }, bad)
  }
})

t.test('a fixtures path in the config file is relative to that file', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, 'mock.yaml'), 'fixtures: ./my-fixtures\n')
  const config = loadConfig({ ...base, cwd: '/', flags: { config: join(dir, 'mock.yaml') } })
  t.equal(config.fixturesDir, join(dir, 'my-fixtures'))
})

t.test('every setting given by its environment variable changes its own value and no other (what --help shows as its default)', async t => {
  const sample = (s: (typeof SETTINGS)[number]): string => s.type === 'integer' ? String(s.max === undefined ? 7 : Math.min(s.max, Math.max(s.min ?? 0, 7))) : s.type === 'boolean' ? String(s.read(loadConfig(base)) !== true) : s.type === 'enum' ? (s.values ?? []).at(-1) ?? '' : s.type === 'instant' ? '2027-01-04T10:00:00.000Z' : s.key === 'publicUrl' ? 'https://mock.example.com' : s.key === 'controlOrigins' ? 'https://tools.example.com' : s.key === 'fixedCode' ? '424242' : s.key === 'fixtures' ? '.' : s.key === 'webhookUrl' ? 'https://backend.example/hooks' : s.key === 'webhookSecret' ? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' : s.key === 'webhookRetrySchedule' ? '0,1s' : s.key === 'store' ? 'redis://127.0.0.1:6379/1' : 'sample'
  const defaults = loadConfig(base)
  for (const setting of SETTINGS) {
    const config = loadConfig({ ...base, env: { [setting.env]: sample(setting) } })
    t.not(JSON.stringify(setting.read(config)), JSON.stringify(setting.read(defaults)), `${setting.env} changes ${setting.key}`)
    for (const other of SETTINGS.filter(o => o !== setting)) {
      t.same(other.read(config), other.read(defaults), `${setting.env} leaves ${other.key} alone`)
    }
  }
  t.equal(shownDefault(SETTINGS.find(s => s.key === 'port')!, defaults), '4010')
  t.equal(shownDefault(SETTINGS.find(s => s.key === 'seed')!, defaults), 'random', 'an unset setting says what unset means')
})

t.test('a frontend .env: references expand as its bundler expands them, route parameters stay, its PORT and HOST stay its own', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, '.env'), [
    'PORT=3000',
    'HOST=0.0.0.0',
    'MOCK_JOURNAL_CAP=12',
    'VITE_API_BASE=https://api.example.com/v2',
    'VITE_API_PHONE_VERFICATION_SEND_CODE=${VITE_API_BASE}/otp/send',
    'VITE_API_BAAS_CUSTOMER_CARD_LOCK=$VITE_API_BASE/cards/$CARD_ID/lock',
    'API_BAAS_REISSUE=${ORIGIN}/cards/{cardId}/reissue'
  ].join('\n'))
  const config = loadConfig({ ...base, cwd: dir, flags: { 'env-file': '.env' }, env: { ORIGIN: 'http://localhost:9999' } })
  t.equal(config.port, 4010, 'the frontend dev server keeps PORT=3000')
  t.equal(config.host, '127.0.0.1')
  t.equal(config.journalCap, 12, 'MOCK_ settings are read from it')
  t.same(config.routes, {
    API_PHONE_VERFICATION_SEND_CODE: 'https://api.example.com/v2/otp/send',
    API_BAAS_CUSTOMER_CARD_LOCK: 'https://api.example.com/v2/cards/$CARD_ID/lock',
    API_BAAS_REISSUE: 'http://localhost:9999/cards/{cardId}/reissue'
  })
})

t.test('a missing env file is named the way it was given; a number where text is due asks for quotes', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, 'mock.yaml'), 'envFile: nope.env\n')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { config: 'mock.yaml' } }), { name: 'ConfigError', message: `envFile in mock.yaml ${join(dir, 'nope.env')}: no such file.` })
  t.throws(() => loadConfig({ ...base, cwd: dir, env: { MOCK_ENV_FILE: 'gone.env' } }), { message: `MOCK_ENV_FILE ${join(dir, 'gone.env')}: no such file.` })
  writeFileSync(join(dir, 'code.yaml'), 'fixedCode: 012345\n')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { config: 'code.yaml' } }), {
    message: 'fixedCode in code.yaml: must be text; YAML read a number, so write the value in quotes exactly as you mean it, e.g. fixedCode: "012345".'
  }, 'the hint never echoes the digits YAML changed')
})

t.test('env file expansion keeps route parameters through composition, braces and escapes; a later definition is not seen', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, '.env'), [
    'CARDS=/cards/$CARD_ID',
    'API_BAAS_CUSTOMER_CARD_LOCK=http://x${CARDS}/lock',
    'API_BAAS_CUSTOMER_CARD_UNLOCK=/cards/${CARD_ID}/unlock',
    'ESCAPED=/cards/\\$CARD_ID',
    'API_BAAS_REISSUE=${ESCAPED}/reissue',
    'API_BAAS_SET_PIN=$LATER/cards/$CARD_ID/pin',
    'API_BAAS_STATEMENT_BY_EMAIL=POST ${LATER}/statements/$STATEMENT_ID',
    'API_BAAS_SCHEDULED_TRANSFER=/v1${LATER}/t/$TRANSFER_ID',
    'VITE_TITLE=$APP_NAME banking',
    'LATER=/v9'
  ].join('\n'))
  const env = loadConfig({ ...base, cwd: dir, flags: { 'env-file': '.env' } })
  t.equal(env.routes.API_BAAS_CUSTOMER_CARD_LOCK, 'http://x/cards/$CARD_ID/lock', 'a placeholder survives being composed into another value')
  t.equal(env.routes.API_BAAS_CUSTOMER_CARD_UNLOCK, '/cards/${CARD_ID}/unlock', 'a braced reference to nothing stays as written')
  t.equal(env.routes.API_BAAS_REISSUE, '/cards/$CARD_ID/reissue', 'an escaped $ is literal, composed or not')
  t.equal(env.routes.API_BAAS_SET_PIN, '/cards/$CARD_ID/pin', 'as in Vite, a base defined further down is not seen: it reads as empty')
  t.equal(env.routes.API_BAAS_STATEMENT_BY_EMAIL, 'POST /statements/$STATEMENT_ID', 'after a method too')
  t.equal(env.routes.API_BAAS_SCHEDULED_TRANSFER, '/v1${LATER}/t/$TRANSFER_ID', 'within a path it could be a parameter, so it stays and the route error shows it')
  t.same(env.startupWarnings, [
    `API_BAAS_SET_PIN (and 1 more) in ${join(dir, '.env')}: \${LATER} is set neither above it, nor in an env file read before it, nor in the environment; as in Vite, it reads as empty, so the route is the path after it.`
  ], 'said once for the variable, and only for routes')
})

t.test('MOCK_ settings from an env file are named with the file, and a relative fixtures path starts at the file', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, '.env'), 'MOCK_FIXTURES=./team-fixtures\n')
  const config = loadConfig({ ...base, cwd: tmpdir(), flags: { 'env-file': join(dir, '.env') } })
  t.equal(config.fixturesDir, join(dir, 'team-fixtures'))
  writeFileSync(join(dir, 'bad.env'), 'MOCK_JOURNAL_CAP=abc\n')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { 'env-file': 'bad.env' } }), { message: `MOCK_JOURNAL_CAP in ${join(dir, 'bad.env')}: must be a whole number from 1 to 1000000, got "abc".` })
})

t.test('a route that cannot be used says where it was set, as the user wrote its name', async t => {
  const dir = tempDir()
  writeFileSync(join(dir, 'app.env'), 'VITE_API_BAAS_REISSUE=GET /x/$CARD_ID/reissue\n')
  const fromFile = loadConfig({ ...base, cwd: dir, flags: { 'env-file': 'app.env' } })
  t.equal(fromFile.routeSources.API_BAAS_REISSUE, `VITE_API_BAAS_REISSUE in ${join(dir, 'app.env')}`)
  await t.rejects(buildApp({ ...fromFile, logLevel: 'silent' }, { logger: false }), {
    name: 'RouteConfigError',
    message: `API_BAAS_REISSUE=GET /x/$CARD_ID/reissue: reissueCard takes a JSON body, which a GET request cannot carry; use POST, PUT, PATCH or DELETE. (set by VITE_API_BAAS_REISSUE in ${join(dir, 'app.env')})`
  })
  const clash = loadConfig({ ...base, cwd: dir, flags: { route: ['API_BAAS_REISSUE=/same/$CARD_ID'] }, env: { API_BAAS_SET_PIN: 'POST /same/{cardId}' } })
  await t.rejects(buildApp({ ...clash, logLevel: 'silent' }, { logger: false }), { message: /both answer POST \/same\/:cardId; move one of them\. \(set by --route API_BAAS_REISSUE; API_BAAS_SET_PIN in the environment\)$/ })
})

t.test('--store takes a Redis URL, TLS and a password included, and never prints the password back', async t => {
  for (const url of ['redis://127.0.0.1:6379/0', 'rediss://:p%40ss@cache.internal:6380/2', 'redis://app:secret@[::1]:6379', 'redis://redis']) {
    t.equal(loadConfig({ ...base, env: { MOCK_STORE: url } }).store, url, url.replace(/:[^:@/]*@/, ':***@'))
  }
  for (const bad of ['http://:hunter2@cache:6379/0', 'redis://:hunter2@cache:6379/0?tls=true', 'redis://:hunter2@cache:6379/db', 'redis://:hunter2@:6379', 'hunter2']) {
    const error = t.throws(() => loadConfig({ ...base, env: { MOCK_STORE: bad } })) as Error
    t.match(error.message, /^--store \(MOCK_STORE, store\): must be a Redis URL/, bad.replace('hunter2', '***'))
    t.notMatch(error.message, 'hunter2', 'the password is not in the message')
  }
})
