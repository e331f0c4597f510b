import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { Writable } from 'node:stream'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildApp, startupOrigin } from '../../src/transports/fastify/app.js'
import { defaultConfig, type Config } from '../../src/config/config.js'
import { loggerOptions } from '../../src/transports/fastify/logger.js'
import { ADMIN_TOKEN_FILE } from '../../src/world/stores/sqlite.js'
import { keptPrivateText } from '../../src/world/stores/private-files.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { redisMissing, startRedis } from '../helpers/redis-server.js'

/**
 * A token made up for a mock on a network address lives as long as its sessions: kept in the state
 * folder or in Redis, the same after a restart and on every replica; one given is the token, and is
 * never written anywhere.
 */

interface Started { close: () => Promise<void>; base: string; raw: () => string; token: string | undefined }

async function start (t: Test, overrides: Partial<Config>): Promise<Started> {
  const chunks: string[] = []
  const stream = new Writable({ write (chunk: Buffer, _encoding, done) { chunks.push(chunk.toString()); done() } })
  const config = defaultConfig({ now: TEST_NOW, seed: 7, host: '0.0.0.0', ...overrides })
  const app = await buildApp(config, { logger: loggerOptions(config, stream) })
  let closed = false
  const close = async (): Promise<void> => { if (!closed) await app.close(); closed = true }
  t.teardown(close)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const raw = (): string => chunks.join('')
  return { close, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, raw, token: /\?token=(\S+)/.exec(raw())?.[1] }
}

function folder (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-kept-token-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const opens = async (base: string, token: string | undefined): Promise<number> =>
  (await fetch(`${base}/__mock/state`, { headers: { 'x-mock-admin-token': token ?? '' } })).status

t.test('--state-dir: the token made at the first start is kept (0600, beside the store) and is the token after a restart', async t => {
  const dir = folder(t)
  const first = await start(t, { stateDir: dir })
  t.ok(first.token !== undefined && first.token.length >= 32, 'a long random token, printed once')
  const file = join(dir, ADMIN_TOKEN_FILE)
  t.match(first.raw(), `the one kept in ${file} (the same after a restart)`, 'the log says where it is kept')
  t.equal(statSync(file).mode & 0o777, 0o600, 'a private file')
  t.equal(readFileSync(file, 'utf8').trim(), first.token)
  await first.close()

  const second = await start(t, { stateDir: dir })
  t.equal(second.token, first.token, 'the same token after the restart')
  t.equal(await opens(second.base, first.token), 200, 'the first link still opens the control plane')
  t.equal(await opens(second.base, 'another'), 401)
  t.equal(second.raw().split(first.token ?? '').length, 2, 'written once in this run\'s log, in the start-up notice')
})

t.test('a token given wins over the kept one, and is never written', async t => {
  const dir = folder(t)
  const given = await start(t, { stateDir: dir, adminToken: 'given-token' })
  t.equal(await opens(given.base, 'given-token'), 200)
  t.notOk(existsSync(join(dir, ADMIN_TOKEN_FILE)), 'nothing kept')
  await given.close()

  writeFileSync(join(dir, ADMIN_TOKEN_FILE), 'tok-kept-by-hand\n', { mode: 0o600 })
  const again = await start(t, { stateDir: dir, adminToken: 'given-token' })
  t.equal(await opens(again.base, 'given-token'), 200, 'the given token opens it')
  t.equal(await opens(again.base, 'tok-kept-by-hand'), 401, 'the kept one does not')
  t.equal(readFileSync(join(dir, ADMIN_TOKEN_FILE), 'utf8'), 'tok-kept-by-hand\n', 'the kept file is left as it was')
  t.notMatch(again.raw(), /given-token|tok-kept-by-hand/, 'neither is logged')
})

t.test('an empty token file (made by hand) keeps nothing: the run makes its own', async t => {
  const file = join(folder(t), ADMIN_TOKEN_FILE)
  writeFileSync(file, '')
  t.equal(keptPrivateText(file, 'made-1'), 'made-1')
  t.equal(readFileSync(file, 'utf8'), '', 'the file is left to its owner')
})

t.test('--store redis://: the token is kept in Redis, shared by every replica and kept across restarts', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const first = await start(t, { store: redis.url })
  const second = await start(t, { store: redis.url })
  t.ok(first.token !== undefined && first.token.length >= 32)
  t.equal(second.token, first.token, 'the second replica has the first one\'s token')
  t.match(first.raw(), 'key baas-mock:admin-token', 'the log names the key, not the token alone')
  t.equal(await opens(second.base, first.token), 200)
  await first.close()
  await second.close()
  const restarted = await start(t, { store: redis.url })
  t.equal(restarted.token, first.token, 'the same token after a restart')
  // A full Redis refuses SET even when the key exists: a replica restarted then still reads the kept token.
  const client = new Redis(redis.url, { lazyConnect: true })
  await client.connect()
  t.teardown(() => client.quit())
  await client.config('SET', 'maxmemory-policy', 'noeviction')
  await client.config('SET', 'maxmemory', '1')
  const whileFull = await start(t, { store: redis.url })
  await client.config('SET', 'maxmemory', '0')
  t.equal(whileFull.token, first.token, 'a replica started on a full Redis has the others\' token')
  const given = await start(t, { store: redis.url, adminToken: 'given-token' })
  t.equal(await opens(given.base, first.token), 401, 'a token given wins')
  t.equal(await opens(given.base, 'given-token'), 200)
})

t.test('Redis unreachable at start: this run keeps a token of its own, and says so', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  await redis.stop()
  const started = await start(t, { store: redis.url })
  t.ok(started.token !== undefined && started.token.length >= 32, 'a token all the same')
  t.match(started.raw(), /the admin token could not be kept in the state store .*set MOCK_ADMIN_TOKEN/)
  t.match(started.raw(), 'this run\'s is in')
})

t.test('a PIN link names the address the request came to, not the one the mock listens on', async t => {
  const started = await start(t, { host: '127.0.0.1' })
  // fetch sets Host itself: a published port (docker -p 8080:4010) is what a client's Host says.
  const url = await new Promise<string>((resolve, reject) => {
    const req = request(`${started.base}/baas/debit-cards/card_maya_virtual/set-pin-url`, {
      method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}`, host: 'localhost:8080' }
    }, res => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.on('end', () => resolve((JSON.parse(body) as { url: string }).url))
    })
    req.on('error', reject)
    req.end()
  })
  t.match(url, /^http:\/\/localhost:8080\/__mock\/pin\//, 'the published port the client used')
})

t.test('the start-up lines cannot know a published port: on every address they say so, or use --public-url', async t => {
  t.same(startupOrigin(undefined, 'http://0.0.0.0:4010'), { origin: 'http://localhost:4010', published: ' (in a container: at the port you published; --public-url names it)' })
  t.same(startupOrigin(undefined, 'http://[::]:4010').origin, 'http://localhost:4010')
  t.same(startupOrigin(undefined, 'http://127.0.0.1:4010'), { origin: 'http://127.0.0.1:4010', published: '' }, 'on loopback the port is the one')
  t.same(startupOrigin('https://bank-demo.example.com/', 'http://0.0.0.0:4010'), { origin: 'https://bank-demo.example.com', published: '' }, 'a public URL is the address')
})
