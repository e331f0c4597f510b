import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

/** What a client sees of a session, as bytes. */
async function seen (base: string, session: string): Promise<{ state: string; journal: string; faults: string }> {
  const read = async (path: string): Promise<string> => await (await call(base, 'GET', path, session)).text()
  return { state: await read('/__mock/state'), journal: await read('/__mock/requests?order=asc'), faults: await read('/__mock/faults') }
}

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

t.test('SIGKILL and SIGTERM in the middle of a flow: after each restart every session answers the same state, journal and faults', async t => {
  const dir = stateDir(t)
  let server = await startCli([...ARGS, '--state-dir', dir])
  for (const [round, signal] of [[0, 'SIGKILL'], [1, 'SIGTERM'], [2, 'SIGKILL']] as const) {
    await flow(t, server.baseUrl, round)
    const before: Record<string, { state: string; journal: string; faults: string }> = {}
    for (const session of SESSIONS) before[session] = await seen(server.baseUrl, session)
    const stopped = exited(server.child)
    server.child.kill(signal)
    const code = await stopped
    if (signal === 'SIGTERM') t.equal(code, 0, 'SIGTERM: a clean exit')
    server = await startCli([...ARGS, '--state-dir', dir])
    t.match(server.output(), /state store .*baas-mock\.db: 3 session\(s\) restored/)
    for (const session of SESSIONS) t.same(await seen(server.baseUrl, session), before[session], `after ${signal}: session ${session} as it was`)
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
