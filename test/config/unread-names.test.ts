import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadConfig } from '../../src/config/config-loader.js'
import { runCli, startCli } from '../helpers/spawn.js'

const base = { flags: {}, env: {}, cwd: process.cwd(), isTTY: false }

t.test('a misspelt MOCK_ name is ignored with a warning that names the setting meant, never its value', async t => {
  const config = loadConfig({ ...base, env: { MOCK_ADMIN_TOKN: 's3cret', MOCK_SEED: '4', MOCK_max_sessions: '9' } })
  t.equal(config.adminToken, undefined, 'the control plane is open: the reason for the warning')
  t.equal(config.seed, 4)
  t.same(config.startupWarnings, [
    'MOCK_ADMIN_TOKN in the environment is not a baas-mock setting and is ignored; did you mean MOCK_ADMIN_TOKEN?',
    'MOCK_max_sessions in the environment is not a baas-mock setting and is ignored; did you mean MOCK_MAX_SESSIONS?'
  ])
  t.notMatch(config.startupWarnings.join('\n'), /s3cret/)
})

t.test('MOCK_ names that are no near miss stay silent: Kubernetes sets MOCK_SERVICE_HOST and MOCK_PORT for a service named mock', async t => {
  const config = loadConfig({
    ...base,
    env: { MOCK_SERVICE_HOST: '10.0.0.7', MOCK_SERVICE_PORT: '4010', MOCK_PORT: 'tcp://10.0.0.7:4010', MOCK_PORT_4010_TCP_ADDR: '10.0.0.7', MOCK_CONFIG_DIR: 'x' }
  })
  t.same(config.startupWarnings, [], 'MOCK_PORT is no typo of MOCK_CORS')
})

t.test('names the mock reads, and names that are plainly the app\'s own, raise no warning', async t => {
  const config = loadConfig({
    ...base,
    env: { MOCK_ENV_FILE: '', MOCK_CONFIG: undefined, API_KEY: 'k', VITE_API_BASE: '/api', API_BAAS_CUSTOMER: '/v2/customers', PATH: '/usr/bin', CI: 'true' }
  })
  t.same(config.startupWarnings, [])
  t.equal(config.routes.API_BAAS_CUSTOMER, '/v2/customers')
})

t.test('a route name a typo or two away from a configuration name is warned about, with the bundler prefix kept', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-names-'))
  writeFileSync(join(dir, '.env.local'), [
    'VITE_API_BASE=http://localhost:4010',
    'VITE_API_BAAS_CUSTOMER_CARD_LOKC=${VITE_API_BASE}/cards/\\$CARD_ID/lock',
    'MOCK_JOURNAL_CAPP=10',
    'API_BAAS_REISSUE=/cards/$CARD_ID/reissue'
  ].join('\n'))
  const config = loadConfig({ ...base, cwd: dir, flags: { 'env-file': '.env.local' } })
  const file = join(dir, '.env.local')
  t.same(config.startupWarnings, [
    `VITE_API_BAAS_CUSTOMER_CARD_LOKC in ${file} is not a configuration name and is ignored; did you mean VITE_API_BAAS_CUSTOMER_CARD_LOCK?`,
    `MOCK_JOURNAL_CAPP in ${file} is not a baas-mock setting and is ignored; did you mean MOCK_JOURNAL_CAP?`
  ])
  t.same(config.routes, { API_BAAS_REISSUE: '/cards/$CARD_ID/reissue' }, 'the misspelt route stays where it was')
  t.equal(config.journalCap, 500)
})

t.test('API_PHONE_VERIFICATION_SEND_CODE, spelt correctly, moves the send-code route as the API\'s own spelling does', async t => {
  const fromEnv = loadConfig({ ...base, env: { API_PHONE_VERIFICATION_SEND_CODE: '/otp/send' } })
  t.same(fromEnv.routes, { API_PHONE_VERFICATION_SEND_CODE: '/otp/send' })
  t.equal(fromEnv.routeSources.API_PHONE_VERFICATION_SEND_CODE, 'API_PHONE_VERIFICATION_SEND_CODE in the environment', 'named as written')
  t.same(fromEnv.startupWarnings, [])
  const prefixed = loadConfig({ ...base, env: { NEXT_PUBLIC_API_PHONE_VERIFICATION_SEND_CODE: '/otp/send' } })
  t.same(prefixed.routes, { API_PHONE_VERFICATION_SEND_CODE: '/otp/send' })
  const flag = loadConfig({ ...base, flags: { route: ['API_PHONE_VERIFICATION_SEND_CODE=/otp'] } })
  t.same(flag.routes, { API_PHONE_VERFICATION_SEND_CODE: '/otp' })
  t.equal(flag.routeSources.API_PHONE_VERFICATION_SEND_CODE, '--route API_PHONE_VERIFICATION_SEND_CODE')
})

t.test('both spellings: the source with precedence wins whatever it spells; within one source the API\'s spelling, with a warning', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-names-'))
  writeFileSync(join(dir, '.env'), 'API_PHONE_VERFICATION_SEND_CODE=/from-file\n')
  const envOverFile = loadConfig({ ...base, cwd: dir, flags: { 'env-file': '.env' }, env: { API_PHONE_VERIFICATION_SEND_CODE: '/from-environment' } })
  t.equal(envOverFile.routes.API_PHONE_VERFICATION_SEND_CODE, '/from-environment', 'environment > env file, whichever the spelling')
  t.same(envOverFile.startupWarnings, [])

  const both = loadConfig({ ...base, env: { API_PHONE_VERIFICATION_SEND_CODE: '/other', API_PHONE_VERFICATION_SEND_CODE: '/api-spelling' } })
  t.equal(both.routes.API_PHONE_VERFICATION_SEND_CODE, '/api-spelling')
  t.same(both.startupWarnings, ['API_PHONE_VERIFICATION_SEND_CODE in the environment is ignored: API_PHONE_VERFICATION_SEND_CODE in the environment sets the same route.'])
  t.same(loadConfig({ ...base, env: { API_PHONE_VERIFICATION_SEND_CODE: '/same', API_PHONE_VERFICATION_SEND_CODE: '/same' } }).startupWarnings, [], 'the same value twice is no conflict')

  writeFileSync(join(dir, 'mock.yaml'), 'routes:\n  API_PHONE_VERIFICATION_SEND_CODE: /written-last\n  API_PHONE_VERFICATION_SEND_CODE: /api-spelling\n')
  const file = loadConfig({ ...base, cwd: dir, flags: { config: 'mock.yaml' } })
  t.equal(file.routes.API_PHONE_VERFICATION_SEND_CODE, '/api-spelling', 'not whichever was written last')
  t.match(file.startupWarnings, [/^routes\.API_PHONE_VERIFICATION_SEND_CODE in mock\.yaml is ignored: routes\.API_PHONE_VERFICATION_SEND_CODE in mock\.yaml sets the same route\.$/])
  const flags = loadConfig({ ...base, flags: { route: ['API_PHONE_VERFICATION_SEND_CODE=/a', 'API_PHONE_VERIFICATION_SEND_CODE=/b'] } })
  t.equal(flags.routes.API_PHONE_VERFICATION_SEND_CODE, '/a')
})

t.test('an unknown route name in --route or the config file is refused with the nearest name', async t => {
  t.throws(() => loadConfig({ ...base, flags: { route: ['API_BAAS_REISUE=/x/$CARD_ID'] } }), { message: '--route API_BAAS_REISUE: not a configuration name; did you mean API_BAAS_REISSUE?' })
  t.throws(() => loadConfig({ ...base, flags: { route: ['NOPE=/x'] } }), { message: '--route NOPE: not a configuration name; baas-mock env lists them.' })
})

t.test('the server logs the warning at start-up; the env command prints it on stderr and still answers', async t => {
  const server = await startCli([], { MOCK_ADMIN_TOKN: 's3cret' })
  t.teardown(() => server.child.kill('SIGTERM'))
  const state = await fetch(`${server.baseUrl}/__mock/state`)
  t.equal(state.status, 200, 'the misspelt token protects nothing')
  const warning = server.output().split('\n').find(line => line.includes('MOCK_ADMIN_TOKN'))
  t.ok(warning, 'a log line names the variable')
  t.match(JSON.parse(warning ?? '{}'), { level: 40, msg: /did you mean MOCK_ADMIN_TOKEN\?/ })
  t.notMatch(server.output(), /s3cret/)

  const env = await runCli(['env', '--format', 'json'], { API_BAAS_CUSTOMER_CARD_LOKC: '/x/$CARD_ID/lock' })
  t.equal(env.code, 0)
  t.equal(env.stderr, `baas-mock: warning: API_BAAS_CUSTOMER_CARD_LOKC in the environment is not a configuration name and is ignored; did you mean API_BAAS_CUSTOMER_CARD_LOCK?\n`)
  t.equal(JSON.parse(env.stdout).API_BAAS_CUSTOMER_CARD_LOCK, 'http://127.0.0.1:4010/baas/debit-cards/$CARD_ID/lock')
})
