import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/transports/fastify/app.js'
import { BUNDLED_FIXTURES, defaultConfig, type Config } from '../../src/config/config.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { CORPUS } from '../transports/corpus.js'

/**
 * --state-dir in process: a server is built, used, closed (as SIGTERM closes it) and built again on
 * the same folder, and must answer what it answered before, byte for byte.
 */

const SESSIONS = ['default', 't1', 'hooks', 'ci-a', 'ci-b'] as const

function stateDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-state-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

interface Server {
  app: FastifyInstance
  call: (method: string, url: string, options?: { body?: unknown; session?: string; token?: string; headers?: Record<string, string> }) => Promise<{ status: number; text: string; body: any; headers: Record<string, unknown> }> // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function start (t: Test, dir: string, overrides: Partial<Config> = {}): Promise<Server> {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent', stateDir: dir, ...overrides }), { logger: false })
  let closed = false
  t.teardown(async () => { if (!closed) await app.close() })
  app.addHook('onClose', async () => { closed = true })
  return {
    app,
    call: async (method, url, options = {}) => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.session !== undefined) headers['x-mock-session'] = options.session
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
      if (options.body !== undefined) headers['content-type'] = 'application/json'
      const res = await app.inject({ method: method as 'GET', url, headers, ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }) })
      return { status: res.statusCode, text: res.body, body: res.body === '' ? undefined : JSON.parse(res.body), headers: res.headers }
    }
  }
}

/** What a client can see of a session: every entity, the journal, the faults, the outbox, the clock. */
async function everything (server: Server, session: string): Promise<Record<string, string>> {
  const read = async (url: string): Promise<string> => (await server.call('GET', url, { session })).text
  return {
    state: await read('/__mock/state'),
    journal: await read('/__mock/requests?order=asc'),
    faults: await read('/__mock/faults'),
    outbox: await read('/__mock/outbox'),
    clock: await read('/__mock/clock'),
    events: await read('/__mock/webhooks/events?order=asc'),
    endpoints: await read('/__mock/webhooks/endpoints')
  }
}

/** State in several sessions: the whole transports corpus in `default`, and a flow of its own in each other session. */
async function makeState (server: Server): Promise<void> {
  for (const request of CORPUS) {
    const headers = { ...request.headers }
    if (request.raw !== undefined) headers['content-type'] = request.raw.contentType
    else if (request.body !== undefined) headers['content-type'] = 'application/json'
    await server.app.inject({ method: request.method as 'GET', url: request.path, headers, ...(request.raw !== undefined ? { payload: request.raw.text } : request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}) })
  }
  for (const session of ['ci-a', 'ci-b']) {
    t.equal((await server.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { session, token: TOKENS.maya })).status, 200)
    const transfer = await server.call('POST', '/baas/scheduled-transfers/internal', {
      session, token: TOKENS.maya, body: { amount: 2500, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'WEEKLY', startDate: '2026-11-25' }
    })
    t.equal(transfer.status, 201)
    t.equal((await server.call('POST', '/mfa/send-code', { session, token: TOKENS.jordan, body: {} })).status, 202)
    t.equal((await server.call('POST', '/__mock/faults', { session, body: { operation: 'getCustomer', status: 500, probability: 0.5 } })).status, 201)
    t.equal((await server.call('POST', '/__mock/clock/advance', { session, body: { by: 'P10D' } })).status, 200)
    await server.call('GET', '/baas/customers', { session, token: TOKENS.maya })
  }
  t.equal((await server.call('POST', '/__mock/sessions/ci-b/pin')).status, 200)
}

t.test('closed and built again on the same folder, every session answers the same bytes: state, journal, faults, outbox, clock', async t => {
  const dir = stateDir(t)
  const first = await start(t, dir)
  await makeState(first)
  const before: Record<string, Record<string, string>> = {}
  for (const session of SESSIONS) before[session] = await everything(first, session)
  const sessionsBefore = (await first.call('GET', '/__mock/sessions')).body.sessions.map((s: { id: string; pinned: boolean }) => [s.id, s.pinned])
  await first.app.close()

  const second = await start(t, dir)
  for (const session of SESSIONS) t.same(await everything(second, session), before[session], `session ${session} is as it was`)
  const sessionsAfter = (await second.call('GET', '/__mock/sessions')).body.sessions.map((s: { id: string; pinned: boolean }) => [s.id, s.pinned])
  t.same(sessionsAfter, sessionsBefore, 'the same sessions, in the same order, pinned as they were')
  t.match(before['ci-b']?.state, /"status":"LOCKED"/, 'the flow made state worth keeping')
})

t.test('a seeded session goes on where it was: a transfer made after the restart gets a new id, and ids repeat run to run', async t => {
  const create = (server: Server) => server.call('POST', '/baas/scheduled-transfers/internal', {
    token: TOKENS.maya, body: { amount: 100, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'ONCE', startDate: '2026-12-01' }
  })
  const dir = stateDir(t)
  const first = await start(t, dir)
  const one = (await create(first)).body.id
  await first.app.close()
  const second = await start(t, dir)
  const two = (await create(second)).body.id
  t.not(two, one, 'the id source did not start over')

  const unbroken = await start(t, stateDir(t))
  t.equal((await create(unbroken)).body.id, one)
  t.equal((await create(unbroken)).body.id, two, 'the same ids as a run without a restart')
})

t.test('deleting a session removes it from the store; the next use starts it anew', async t => {
  const dir = stateDir(t)
  const first = await start(t, dir)
  for (const session of ['gone', 'kept']) await first.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { session, token: TOKENS.maya })
  t.equal((await first.call('DELETE', '/__mock/sessions/gone')).status, 204)
  await first.app.close()

  const second = await start(t, dir)
  const ids = (await second.call('GET', '/__mock/sessions')).body.sessions.map((s: { id: string }) => s.id).sort()
  t.same(ids, ['kept'], 'the deleted session is gone from the store')
  const fresh = await second.call('GET', '/__mock/state', { session: 'gone' })
  t.equal(fresh.headers['x-mock-session-created'], 'true')
  t.match(fresh.text, /"id":"card_maya_virtual"[^}]*"status":"ACTIVE"/)
})

t.test('the session cap holds for restored sessions: over a lowered cap, the least recently used go, from the store too', async t => {
  const dir = stateDir(t)
  const first = await start(t, dir, { maxSessions: 10 })
  for (const session of ['s1', 's2', 's3', 's4']) await first.call('GET', '/baas/customers', { session })
  await first.app.close()
  const capped = await start(t, dir, { maxSessions: 2 })
  const ids = (await capped.call('GET', '/__mock/sessions')).body.sessions.map((s: { id: string }) => s.id)
  t.same(ids.sort(), ['s3', 's4'])
  await capped.app.close()
  const wide = await start(t, dir, { maxSessions: 10 })
  t.same((await wide.call('GET', '/__mock/sessions')).body.sessions.map((s: { id: string }) => s.id).sort(), ['s3', 's4'], 'the evicted ones were removed from the store')
})

t.test('changed fixtures do not rewrite stored sessions; POST /__mock/reset rebuilds one from them', async t => {
  const fixtures = mkdtempSync(join(tmpdir(), 'baas-fixtures-'))
  t.teardown(() => rmSync(fixtures, { recursive: true, force: true }))
  cpSync(BUNDLED_FIXTURES, fixtures, { recursive: true })
  const dir = stateDir(t)
  const first = await start(t, dir, { fixturesDir: fixtures })
  t.equal((await first.call('GET', '/baas/customers', { token: TOKENS.maya })).body.firstName, 'Maya')
  await first.app.close()

  const customers = join(fixtures, 'customers.yaml')
  writeFileSync(customers, readFileSync(customers, 'utf8').replace('firstName: Maya', 'firstName: Mia'))
  const second = await start(t, dir, { fixturesDir: fixtures })
  t.equal((await second.call('GET', '/baas/customers', { token: TOKENS.maya })).body.firstName, 'Maya', 'the stored session keeps its world')
  t.equal((await second.call('GET', '/baas/customers', { token: TOKENS.maya, session: 'new' })).body.firstName, 'Mia', 'a new session is made from the fixtures as they are')
  t.equal((await second.call('POST', '/__mock/reset', { body: {} })).status, 200)
  t.equal((await second.call('GET', '/baas/customers', { token: TOKENS.maya })).body.firstName, 'Mia', 'a reset rebuilds it from them')
  await second.app.close()
  const third = await start(t, dir, { fixturesDir: fixtures })
  t.equal((await third.call('GET', '/baas/customers', { token: TOKENS.maya })).body.firstName, 'Mia', 'and the reset is kept')
})

t.test('a cleared journal and outbox, and removed faults, stay cleared', async t => {
  const dir = stateDir(t)
  const first = await start(t, dir)
  await first.call('POST', '/mfa/send-code', { token: TOKENS.maya, body: {} })
  await first.call('POST', '/__mock/faults', { body: { operation: 'lockCard', delay: 1 } })
  t.equal((await first.call('DELETE', '/__mock/requests')).status, 204)
  t.equal((await first.call('DELETE', '/__mock/outbox')).status, 204)
  t.equal((await first.call('DELETE', '/__mock/faults')).status, 204)
  await first.call('GET', '/baas/customers', { token: TOKENS.maya })
  const journal = (await first.call('GET', '/__mock/requests')).text
  await first.app.close()
  const second = await start(t, dir)
  t.equal((await second.call('GET', '/__mock/requests')).text, journal, 'only what was recorded after the clear')
  t.same((await second.call('GET', '/__mock/outbox')).body.data, [])
  t.same((await second.call('GET', '/__mock/faults')).body.faults, [])
})

t.test('the journal a store keeps is bounded as in memory: at most --journal-cap entries per session', async t => {
  const dir = stateDir(t)
  const first = await start(t, dir, { journalCap: 3 })
  for (let i = 0; i < 8; i++) await first.call('GET', `/baas/customers?i=${i}`, { token: TOKENS.maya })
  const kept = (await first.call('GET', '/__mock/requests?order=asc')).body.data.map((r: { url: string }) => r.url)
  await first.app.close()
  const second = await start(t, dir, { journalCap: 3 })
  t.same((await second.call('GET', '/__mock/requests?order=asc')).body.data.map((r: { url: string }) => r.url), kept)
  t.same(kept, ['/baas/customers?i=5', '/baas/customers?i=6', '/baas/customers?i=7'])
})

t.test('no credential reaches the store: the journal keeps [REDACTED]', async t => {
  const dir = stateDir(t)
  const first = await start(t, dir)
  await first.call('GET', '/baas/customers', { token: 'secret-token-value' })
  await first.app.close()
  const file = readFileSync(join(dir, 'baas-mock.db')).toString('latin1')
  t.match(file, /\[REDACTED\]/, 'the journal entry is in the file')
  t.notMatch(file, /secret-token-value/)
})

t.test('an Idempotency-Key retried after a restart replays the stored answer and changes nothing', async t => {
  const dir = stateDir(t)
  const body = { amount: 900, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'ONCE', startDate: '2026-12-01' }
  const schedule = (server: Server) => server.call('POST', '/baas/scheduled-transfers/internal', { token: TOKENS.maya, body, headers: { 'idempotency-key': 'retry-after-deploy' } })
  const first = await start(t, dir)
  const original = await schedule(first)
  t.equal(original.status, 201)
  await first.app.close()

  const second = await start(t, dir)
  const replay = await schedule(second)
  t.equal(replay.status, 201)
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.equal(replay.text, original.text, 'the same bytes')
  const list = (await second.call('GET', '/baas/scheduled-transfers', { token: TOKENS.maya })).body.data as Array<{ amount: number }>
  t.equal(list.filter(transfer => transfer.amount === 900).length, 1, 'one transfer, not two')
  const reused = await second.call('POST', '/baas/scheduled-transfers/internal', { token: TOKENS.maya, body: { ...body, amount: 901 }, headers: { 'idempotency-key': 'retry-after-deploy' } })
  t.equal(reused.body.code, 'idempotency_key_reused')
})

t.test('statements keep coming after a restart: the open period is kept, and the next month end makes its statement once', async t => {
  const dir = stateDir(t)
  const statementsOf = async (server: Server): Promise<string[]> => ((await server.call('GET', '/__mock/state')).body.statements as Array<{ id: string }>).map(s => s.id)
  const first = await start(t, dir)
  const before = await statementsOf(first)
  await first.app.close()

  const second = await start(t, dir)
  t.same(await statementsOf(second), before, 'no history made twice on restore')
  const advanced = await second.call('POST', '/__mock/clock/advance', { body: { to: '2026-12-01T00:00:00Z' } })
  t.equal(advanced.status, 200)
  const made = (advanced.body.fired as Array<{ kind: string }>).filter(e => e.kind === 'statement.created')
  t.ok(made.length > 0, 'November\'s statements')
  const after = await statementsOf(second)
  t.equal(after.length, before.length + made.length)
  const events = (await second.call('GET', '/__mock/webhooks/events?type=statement.created')).text
  await second.app.close()
  const third = await start(t, dir)
  t.same(await statementsOf(third), after)
  t.equal((await third.call('GET', '/__mock/webhooks/events?type=statement.created')).text, events, 'their events are kept too')
})

t.test('--webhook-url with kept state but no --webhook-secret is warned about at start; with a secret it is not', async t => {
  const { Writable } = await import('node:stream')
  const { loggerOptions } = await import('../../src/transports/fastify/logger.js')
  const warnings = async (overrides: Partial<Config>): Promise<string[]> => {
    const chunks: string[] = []
    const stream = new Writable({ write (chunk: Buffer, _encoding, done) { chunks.push(chunk.toString()); done() } })
    const config = defaultConfig({ now: TEST_NOW, seed: 7, stateDir: stateDir(t), webhookUrl: 'http://127.0.0.1:2/hooks', ...overrides })
    const app = await buildApp(config, { logger: loggerOptions(config, stream) })
    await app.close()
    return chunks.join('').split('\n').filter(Boolean).map(line => JSON.parse(line) as { level: number; msg: string }).filter(line => line.level === 40).map(line => line.msg)
  }
  t.ok((await warnings({})).some(msg => /--webhook-url without --webhook-secret/.test(msg)), 'warned')
  t.notOk((await warnings({ webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })).some(msg => /webhook-secret/.test(msg)), 'not with a secret')
})
