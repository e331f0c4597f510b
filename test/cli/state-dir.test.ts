import type { ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { runCli, startCli } from '../helpers/spawn.js'

/**
 * The CLI with --state-dir, killed (SIGKILL) and stopped (SIGTERM) in the middle of a flow: every
 * session answers the same bytes after the restart as before. And what keeps it from starting.
 */

const NOW = '2026-11-23T15:00:00Z'
const ARGS = ['--now', NOW, '--seed', '7']
const MAYA = { authorization: 'Bearer tok_maya' }

function stateDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-cli-state-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function exited (child: ChildProcess): Promise<number | null> {
  return new Promise(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
    child.once('exit', code => resolve(code))
  })
}

async function call (base: string, method: string, path: string, session: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { ...MAYA, 'x-mock-session': session }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
}

interface Seen { state: string; journal: string; faults: string; events: string }

/** What a client sees of a session, as bytes. */
async function seen (base: string, session: string): Promise<Seen> {
  const read = async (path: string): Promise<string> => await (await call(base, 'GET', path, session)).text()
  return { state: await read('/__mock/state'), journal: await read('/__mock/requests?order=asc'), faults: await read('/__mock/faults'), events: await read('/__mock/webhooks/events?order=asc') }
}

interface EventPage { recorded: number; size: number; data: Array<{ id: string; type: string }>; nextCursor?: string }

/** Writes in three sessions; each must be acknowledged (2xx). */
async function flow (t: Test, base: string, round: number): Promise<void> {
  const ok = async (response: Promise<Response>): Promise<void> => {
    const res = await response
    t.ok(res.status >= 200 && res.status < 300, `${res.status} ${res.url}`)
    await res.arrayBuffer()
  }
  await ok(call(base, round % 2 === 0 ? 'POST' : 'PUT', `/baas/debit-cards/card_maya_virtual/${round % 2 === 0 ? 'lock' : 'unlock'}`, 'default'))
  await ok(call(base, 'POST', '/baas/scheduled-transfers/internal', 'ci-a', { amount: 1000 + round, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'WEEKLY', startDate: '2026-11-30' }))
  await ok(call(base, 'POST', '/__mock/clock/advance', 'ci-b', { by: 'P8D' }))
  await ok(call(base, 'POST', '/mfa/send-code', 'ci-b', {}))
  await ok(call(base, 'POST', '/__mock/faults', 'ci-a', { operation: 'getCustomer', delay: 1, count: 5 }))
  await ok(call(base, 'GET', '/baas/customers', 'ci-a'))
}

const SESSIONS = ['default', 'ci-a', 'ci-b']

t.test('SIGKILL and SIGTERM in the middle of a flow: after each restart every session answers the same state, journal, faults and events', async t => {
  const dir = stateDir(t)
  let server = await startCli([...ARGS, '--state-dir', dir])
  for (const [round, signal] of [[0, 'SIGKILL'], [1, 'SIGTERM'], [2, 'SIGKILL']] as const) {
    await flow(t, server.baseUrl, round)
    const before: Record<string, Seen> = {}
    for (const session of SESSIONS) before[session] = await seen(server.baseUrl, session)
    // A page of events read before the stop: its cursor reads on after the restart.
    const firstPage = JSON.parse(await (await call(server.baseUrl, 'GET', '/__mock/webhooks/events?order=asc&limit=1', 'ci-a')).text()) as EventPage
    const stopped = exited(server.child)
    server.child.kill(signal)
    const code = await stopped
    if (signal === 'SIGTERM') t.equal(code, 0, 'SIGTERM: a clean exit')
    server = await startCli([...ARGS, '--state-dir', dir])
    t.match(server.output(), /state store .*baas-mock\.db: 3 session\(s\) restored/)
    for (const session of SESSIONS) t.same(await seen(server.baseUrl, session), before[session], `after ${signal}: session ${session} as it was`)
    const all = JSON.parse(before['ci-a']?.events ?? '{}') as EventPage
    const rest = firstPage.nextCursor === undefined
      ? { data: [] }
      : JSON.parse(await (await call(server.baseUrl, 'GET', `/__mock/webhooks/events?order=asc&cursor=${firstPage.nextCursor}`, 'ci-a')).text()) as EventPage
    t.same([...firstPage.data, ...rest.data].map(e => e.id), all.data.map(e => e.id), `after ${signal}: a cursor from before reads on, each event once`)
  }
  const transfers = JSON.parse((await seen(server.baseUrl, 'ci-a')).state).scheduledTransfers.filter((x: { amount: number }) => x.amount >= 1000 && x.amount <= 1002)
  t.equal(transfers.length, 3, 'the transfers of every round, none twice')
  server.child.kill('SIGTERM')
  await exited(server.child)
})

t.test('a corrupt store, one from a newer version, or one in use stops the start with one line naming the file and the way out', async t => {
  const corrupt = stateDir(t)
  writeFileSync(join(corrupt, 'baas-mock.db'), 'not a database '.repeat(500))
  const newer = stateDir(t)
  const db = new Database(join(newer, 'baas-mock.db'))
  db.exec('CREATE TABLE sessions (id TEXT)')
  db.pragma('application_id = 1650549107')
  db.pragma('user_version = 99')
  db.close()
  for (const [dir, why] of [[corrupt, /corrupt or not a database/], [newer, /written by a newer baas-mock \(store format 99/]] as const) {
    const { code, stderr } = await runCli([...ARGS, '--port', '0', '--state-dir', dir])
    t.equal(code, 1)
    const lines = stderr.trim().split('\n')
    t.equal(lines.length, 1, `one line: ${stderr}`)
    const line = lines[0] ?? ''
    t.match(line, why)
    t.match(line, join(dir, 'baas-mock.db'))
    t.match(line, /--state-reset/)
    t.notMatch(stderr, /\n\s+at /, 'no stack trace')
  }

  const shared = stateDir(t)
  const first = await startCli([...ARGS, '--state-dir', shared])
  const { code, stderr } = await runCli([...ARGS, '--port', '0', '--state-dir', shared])
  t.equal(code, 1)
  t.match(stderr, /^baas-mock: cannot use the state store .*: another process uses it .*\n$/, 'a second mock on the same folder is refused')
  first.child.kill('SIGTERM')
  await exited(first.child)
})

t.test('--state-reset starts afresh and keeps the old files aside; it needs --state-dir', async t => {
  const dir = stateDir(t)
  writeFileSync(join(dir, 'baas-mock.db'), 'not a database '.repeat(500))
  const server = await startCli([...ARGS, '--state-dir', dir, '--state-reset'])
  t.match(server.output(), /new state store .*baas-mock\.db; the previous store is kept as .*baas-mock-aside-\d{8}T\d{6}Z\.db: 0 session\(s\) restored/)
  t.equal((await call(server.baseUrl, 'POST', '/baas/debit-cards/card_maya_virtual/lock', 'default')).status, 200)
  t.equal(readdirSync(dir).filter(name => /^baas-mock-aside-.*\.db$/.test(name)).length, 1)
  server.child.kill('SIGTERM')
  await exited(server.child)
  t.ok(existsSync(join(dir, 'baas-mock.db')))

  const { code, stderr } = await runCli([...ARGS, '--port', '0', '--state-reset'])
  t.equal(code, 1)
  t.equal(stderr, 'baas-mock: --state-reset starts the store in --state-dir (MOCK_STATE_DIR) afresh: give that too\n')
})

/** A store written by baas-mock in format 1 (events inside the webhooks part): test/stores/fixtures/format-1/make.sh says how. */
const FORMAT_1 = fileURLToPath(new URL('../stores/fixtures/format-1/', import.meta.url))
const fixture = (name: string): string => readFileSync(join(FORMAT_1, name), 'utf8')

t.test('a store of the previous format (events inside the webhooks part) is migrated at start and answers the same events, endpoints, state and cursors', async t => {
  const dir = stateDir(t)
  const path = join(dir, 'baas-mock.db')
  copyFileSync(join(FORMAT_1, 'store.db'), path)
  // Its sessions were last seen when it was made: seen now, so that the idle time does not expire them meanwhile.
  const db = new Database(path)
  db.prepare('UPDATE sessions SET last_seen_ms = ?').run(Date.now())
  db.close()
  const args = ['--seed', '1', '--now', '2026-11-23T15:00:00Z', '--event-cap', '4', '--state-dir', dir]
  let server = await startCli(args)
  t.match(server.output(), /2 session\(s\) restored/)
  for (const session of ['default', 'ci-hooks']) {
    const read = async (path: string): Promise<unknown> => JSON.parse(await (await call(server.baseUrl, 'GET', path, session)).text())
    t.same(await read('/__mock/webhooks/events?order=asc'), JSON.parse(fixture(`expected-events-${session}.json`)), `${session}: the same events (ids, order, data, counts)`)
    t.same(await read('/__mock/webhooks/endpoints'), JSON.parse(fixture(`expected-endpoints-${session}.json`)), `${session}: the same endpoints`)
    t.same(await read('/__mock/state'), JSON.parse(fixture(`expected-state-${session}.json`)), `${session}: the same state`)
  }
  const firstPage = JSON.parse(fixture('expected-page-default.json')) as EventPage
  const all = JSON.parse(fixture('expected-events-default.json')) as EventPage
  const rest = JSON.parse(await (await call(server.baseUrl, 'GET', `/__mock/webhooks/events?order=asc&cursor=${firstPage.nextCursor ?? ''}`, 'default')).text()) as EventPage
  t.same(rest.data.map(e => e.id), all.data.slice(2).map(e => e.id), 'a cursor handed out by the previous version reads on')
  t.equal((await call(server.baseUrl, 'POST', '/baas/debit-cards/card_maya_virtual/lock', 'default')).status, 200)
  const after = JSON.parse(await (await call(server.baseUrl, 'GET', '/__mock/webhooks/events?order=asc', 'default')).text()) as EventPage
  t.match(after, { recorded: 7, size: 4 })
  t.same(after.data.slice(0, 3).map(e => e.id), all.data.slice(1).map(e => e.id), 'a new event follows the migrated ones')
  server.child.kill('SIGTERM')
  await exited(server.child)
  server = await startCli(args)
  t.same(JSON.parse(await (await call(server.baseUrl, 'GET', '/__mock/webhooks/events?order=asc', 'default')).text()), after, 'and all of it after another restart')
  server.child.kill('SIGTERM')
  await exited(server.child)
})

t.test('a session only read after its last write is kept past the idle time counted from the write (issue 19)', async t => {
  const dir = stateDir(t)
  const path = join(dir, 'baas-mock.db')
  const args = [...ARGS, '--state-dir', dir, '--session-idle-seconds', '3600']
  /** Moves every stored session's last-seen time `minutes` into the past: time passing while the mock is stopped, without a wait. */
  const age = (minutes: number): void => {
    const db = new Database(path)
    db.prepare('UPDATE sessions SET last_seen_ms = last_seen_ms - ?').run(minutes * 60_000)
    db.close()
  }
  const stop = async (server: { child: ChildProcess }): Promise<void> => {
    const stopped = exited(server.child)
    server.child.kill('SIGTERM')
    await stopped
  }
  let server = await startCli(args)
  for (const session of ['dashboard', 'unread']) t.equal((await call(server.baseUrl, 'POST', '/baas/debit-cards/card_maya_virtual/lock', session)).status, 200)
  await stop(server)
  // Written 50 minutes ago: both are kept at this start, and one is read, as a dashboard does (a control-plane read, no write).
  age(50)
  server = await startCli(args)
  t.equal((await call(server.baseUrl, 'GET', '/__mock/state', 'dashboard')).status, 200)
  await stop(server)
  // Another 20 minutes: 70 since the writes, 20 since the read.
  age(20)
  server = await startCli(args)
  const read = await call(server.baseUrl, 'GET', '/__mock/state', 'dashboard')
  t.equal(read.headers.get('x-mock-session-created'), null, 'the session read is still there')
  t.match(await read.text(), /"status":"LOCKED"/)
  const unread = await call(server.baseUrl, 'GET', '/__mock/state', 'unread')
  t.equal(unread.headers.get('x-mock-session-created'), 'true', 'the one never read expired: the idle time had passed since its write')
  await unread.arrayBuffer()
  server.child.kill('SIGTERM')
  await exited(server.child)
})
