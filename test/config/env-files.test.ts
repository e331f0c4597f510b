import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadConfig } from '../../src/config/config-loader.js'
import { runCli } from '../helpers/spawn.js'

// A Vite app keeps its API base in .env and its routes in .env.local (or .env.development.local):
// the mock reads the files as Vite's loadEnv does, merged in order and expanded as one.

const base = { flags: {}, env: {}, cwd: process.cwd(), isTTY: false }

function viteApp (): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-vite-env-'))
  writeFileSync(join(dir, '.env'), 'VITE_API_BASE=http://localhost:4010/api\nVITE_API_BAAS_CUSTOMER=${VITE_API_BASE}/v1/customer\nMOCK_SEED=1\n')
  writeFileSync(join(dir, '.env.local'), 'VITE_API_BAAS_CUSTOMER_CARD_LOCK=${VITE_API_BASE}/cards/$CARD_ID/freeze\nMOCK_SEED=2\n')
  writeFileSync(join(dir, '.env.development'), 'VITE_API_BAAS_CUSTOMER=${VITE_API_BASE}/v2/customer\n')
  writeFileSync(join(dir, '.env.development.local'), 'MOCK_SEED=3\n')
  return dir
}

t.test('several --env-file are merged in order: a base in the first is seen by a route in the second, and a later value wins', async t => {
  const dir = viteApp()
  const config = loadConfig({ ...base, cwd: dir, flags: { 'env-file': ['.env', '.env.local'] } })
  t.same(config.routes, {
    API_BAAS_CUSTOMER: 'http://localhost:4010/api/v1/customer',
    API_BAAS_CUSTOMER_CARD_LOCK: 'http://localhost:4010/api/cards/$CARD_ID/freeze'
  }, 'the second file\'s route is composed from the first file\'s base, not read as empty')
  t.equal(config.seed, 2, '.env.local wins over .env')
  t.equal(config.routeSources.API_BAAS_CUSTOMER_CARD_LOCK, `VITE_API_BAAS_CUSTOMER_CARD_LOCK in ${join(dir, '.env.local')}`, 'each name is traced to its own file')
  t.same(config.startupWarnings, [], 'no base reads as empty')
})

t.test('--mode reads .env, .env.local, .env.[mode] and .env.[mode].local, the more specific winning, as Vite does', async t => {
  const dir = viteApp()
  const config = loadConfig({ ...base, cwd: dir, flags: { mode: 'development' } })
  t.equal(config.routes.API_BAAS_CUSTOMER, 'http://localhost:4010/api/v2/customer', '.env.development wins over .env')
  t.equal(config.routes.API_BAAS_CUSTOMER_CARD_LOCK, 'http://localhost:4010/api/cards/$CARD_ID/freeze')
  t.equal(config.seed, 3, '.env.development.local wins over everything')
  const elsewhere = loadConfig({ ...base, flags: { mode: 'production', 'env-dir': dir } })
  t.equal(elsewhere.routes.API_BAAS_CUSTOMER, 'http://localhost:4010/api/v1/customer', 'a mode without its files reads .env and .env.local; --env-dir says where')
  const options = loadConfig({ ...base, cwd: dir, options: { mode: 'development', envDir: '.' } })
  t.equal(options.seed, 3, 'createMock takes mode and envDir too')
  t.throws(() => loadConfig({ ...base, cwd: dir, flags: { mode: '../x' } }), { message: /--mode: a mode is a name such as development/ })
})

t.test('MOCK_ENV_FILE and envFile take several files too', async t => {
  const dir = viteApp()
  t.equal(loadConfig({ ...base, cwd: dir, env: { MOCK_ENV_FILE: '.env, .env.local' } }).seed, 2)
  t.equal(loadConfig({ ...base, cwd: dir, options: { envFile: ['.env', '.env.local'] } }).routes.API_BAAS_CUSTOMER_CARD_LOCK, 'http://localhost:4010/api/cards/$CARD_ID/freeze')
})

t.test('a team\'s own spelling around a configuration name is named in one warning, never silently ignored or guessed', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-vite-env-'))
  writeFileSync(join(dir, '.env'), [
    'VITE_API_BAAS_REISSUE_CARD=/cards/$CARD_ID/reissue',
    'MYAPP_BAAS_REISSUE=/cards/$CARD_ID/reissue',
    'VITE_API_BAAS_CUSTOMER_CARD_LOCK=/cards/$CARD_ID/lock',
    'VITE_API_KEY=abc'
  ].join('\n'))
  const config = loadConfig({ ...base, cwd: dir, flags: { 'env-file': '.env' } })
  const file = join(dir, '.env')
  t.same(config.startupWarnings, [
    `VITE_API_BAAS_REISSUE_CARD in ${file} is not a configuration name and is ignored; did you mean VITE_API_BAAS_REISSUE?`,
    `MYAPP_BAAS_REISSUE in ${file} is not a configuration name and is ignored; did you mean API_BAAS_REISSUE?`
  ], 'the lock route, a real name, and the app\'s own API key raise nothing')
  t.same(config.routes, { API_BAAS_CUSTOMER_CARD_LOCK: '/cards/$CARD_ID/lock' })
})

t.test('the CLI takes --env-file more than once', async t => {
  const dir = viteApp()
  const result = await runCli(['env', '--env-file', join(dir, '.env'), '--env-file', join(dir, '.env.local'), '--format', 'json'])
  t.equal(result.code, 0, result.stderr)
  const routes = JSON.parse(result.stdout) as Record<string, string>
  t.match(JSON.stringify(routes), /\/api\/cards\/.*\/freeze/, 'the second file moved the lock route, with the first file\'s base')
  t.match(JSON.stringify(routes), /\/api\/v1\/customer/, 'and the first file\'s own route stays')
})
