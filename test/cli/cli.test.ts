import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { CLI, CLI_ENV, runCli, startCli } from '../helpers/spawn.js'

t.test('--help lists every setting with its environment variable; --version prints the version', async t => {
  const help = await runCli(['--help'])
  t.equal(help.code, 0)
  t.match(help.stdout, /--port <v>\s+Port to listen on \(0–65535\)\s+\[PORT; default: 4010\]/)
  t.match(help.stdout, /--admin-token/)
  t.match(help.stdout, /MOCK_FIXED_CODE/)
  const version = await runCli(['--version'])
  t.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/)
})

t.test('a bad setting stops startup with one line naming it, no stack trace', async t => {
  const res = await runCli(['--port', 'x'])
  t.equal(res.code, 1)
  t.equal(res.stderr.trim(), 'baas-mock: --port: must be a whole number from 0 to 65535, got "x".')
  const unknown = await runCli(['--prot', '1'])
  t.equal(unknown.code, 1)
  t.equal(unknown.stderr, 'baas-mock: unknown option --prot; see baas-mock --help\n')
  t.equal((await runCli(['--port'])).stderr, 'baas-mock: --port needs a value; see baas-mock --help\n')
  const emptyToken = await runCli([], { MOCK_ADMIN_TOKEN: '' })
  t.equal(emptyToken.code, 1, 'an empty admin token is a mistake, not an open control plane')
  t.equal(emptyToken.stderr, 'baas-mock: MOCK_ADMIN_TOKEN: must not be empty (give a token, or none to leave /__mock open), got "".\n')
  const conflict = await runCli([], { API_BAAS_REISSUE: 'POST /baas/debit-cards/$CARD_ID/lock' })
  t.equal(conflict.code, 1)
  t.match(conflict.stderr, /API_BAAS_CUSTOMER_CARD_LOCK \(lockCard\) and API_BAAS_REISSUE \(reissueCard\) both answer POST/)
  t.notMatch(conflict.stderr, /\n\s+at /, 'no stack trace')
})

t.test('env prints a .env for the frontend, honouring moved routes and a prefix', async t => {
  const res = await runCli(['env', '--base-url', 'http://localhost:4010', '--prefix', 'VITE_'], { API_BAAS_CUSTOMER: '/v2/customers' })
  t.equal(res.code, 0)
  const lines = res.stdout.trim().split('\n')
  t.ok(lines.includes('VITE_API_BAAS_CUSTOMER=http://localhost:4010/v2/customers'))
  t.ok(lines.includes('VITE_API_BAAS_CUSTOMER_CARD_LOCK=http://localhost:4010/baas/debit-cards/\\$CARD_ID/lock'), 'escaped for dotenv-expand')
  t.ok(lines.includes('VITE_API_PHONE_VERFICATION_SEND_CODE=http://localhost:4010/mfa/send-code'))
  t.equal(lines.filter(l => l.startsWith('VITE_API_BAAS_CUSTOMER=')).length, 1, 'a shared name appears once')
  const json = await runCli(['env', '--format', 'json'])
  t.equal(JSON.parse(json.stdout).API_BAAS_CUSTOMER_CARD_LOCK, 'http://127.0.0.1:4010/baas/debit-cards/$CARD_ID/lock')
  const bad = await runCli(['env', '--format', 'xml'])
  t.equal(bad.code, 1)
  t.match(bad.stderr, /--format: must be dotenv or json/)
})

t.test('check-fixtures validates a folder and exits', async t => {
  const ok = await runCli(['check-fixtures'])
  t.equal(ok.code, 0)
  t.match(ok.stdout, /valid \(default/)
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-cli-'))
  writeFileSync(join(dir, 'customers.yaml'), '- id: cus_x\n  tokens: []\n')
  const bad = await runCli(['check-fixtures', '--fixtures', dir])
  t.equal(bad.code, 1)
  t.match(bad.stderr, /^baas-mock: Invalid fixture customers\.yaml at \/0: missing required field/)
  const withResponses = mkdtempSync(join(tmpdir(), 'baas-mock-cli-'))
  cpSync(BUNDLED_FIXTURES, withResponses, { recursive: true })
  writeFileSync(join(withResponses, 'responses', 'notAnOperation.yaml'), 'x: { status: 200 }\n')
  const badResponse = await runCli(['check-fixtures', '--fixtures', withResponses])
  t.equal(badResponse.code, 1, 'response examples are checked too')
  t.match(badResponse.stderr, /^baas-mock: Invalid fixture responses\/notAnOperation\.yaml at \/: notAnOperation is neither/)
})

t.test('serves, answers, and exits 0 on SIGTERM', async t => {
  const { child, baseUrl, output } = await startCli(['--seed', '1'])
  const res = await fetch(`${baseUrl}/baas/customers`, { headers: { authorization: 'Bearer tok_sam' } })
  t.equal(res.status, 200)
  t.equal(((await res.json()) as { id: string }).id, 'cus_sam')
  t.equal((await fetch(`${baseUrl}/healthz`)).status, 200)
  t.equal((await fetch(`${baseUrl}/readyz`)).status, 200)
  t.match(output(), `dashboard ${baseUrl}/__mock/ui`, 'the start-up log says where the docs and the dashboard are')
  t.equal((await fetch(`${baseUrl}/docs/`)).status, 200, 'the docs, built on this first visit')
  t.notMatch(output(), /Deprecation|Warning/, 'no warning on the console, at start-up or on the first /docs visit')
  const port = new URL(baseUrl).port
  const second = await runCli(['--port', port, '--host', '127.0.0.1'])
  t.equal(second.code, 1, 'a port already taken is a failed start, not exit 0')
  t.equal(second.stderr.trim(), `baas-mock: cannot listen on 127.0.0.1:${port}: the port is taken; stop what uses it or choose another --port (PORT)`)
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)))
  child.kill('SIGTERM')
  t.equal(await exited, 0)
})

t.test('the start-up line shows the customer route in effect, not the default one', async t => {
  const { child, baseUrl, output } = await startCli(['--route', 'API_BAAS_CUSTOMER=/v2/me'])
  t.equal((await fetch(`${baseUrl}/v2/me`)).status, 200)
  t.match(output(), `API ${baseUrl}/v2/me,`)
  const exited = new Promise(resolve => child.on('exit', resolve))
  child.kill('SIGTERM')
  await exited
})

t.test('start-up mistakes found late (scenario, negative number, empty folder) are one line too', async t => {
  const scenario = await runCli(['--scenario', 'nope'])
  t.equal(scenario.code, 1)
  t.match(scenario.stderr, /^baas-mock: --scenario nope does not exist; known: default, [a-z, -]+\n$/)
  t.equal((await runCli(['--seed', '-1'])).stderr, 'baas-mock: --seed: write a value that starts with - as --seed=<value>; see baas-mock --help\n')
  t.equal((await runCli(['--seed=-1'])).stderr, 'baas-mock: --seed: must be a whole number from 0 to 2147483647, got "-1".\n')
  // An empty folder lies over the bundled world; one that wants a world of its own and has no customer is refused.
  const empty = mkdtempSync(join(tmpdir(), 'baas-mock-cli-'))
  writeFileSync(join(empty, 'fixtures.yaml'), 'extends: none\n')
  t.equal((await runCli(['check-fixtures', '--fixtures', empty])).stderr, `baas-mock: Invalid fixture ${empty}/customers at /: at least one customer is needed\n`, 'the folder is named')
})

t.test('logs off a terminal: JSON lines, the failed requests, no bearer token, nothing lost at exit', async t => {
  const { child, baseUrl, output } = await startCli([])
  await fetch(`${baseUrl}/baas/customers`, { headers: { authorization: 'Bearer tok_maya' } })
  await fetch(`${baseUrl}/baas/debit-cards/card_nope/lock`, { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  // 'close', not 'exit': the last lines are written as the process ends.
  const closed = new Promise(resolve => child.on('close', resolve))
  child.kill('SIGTERM')
  await closed
  const lines = output().trim().split('\n').map(l => { try { return JSON.parse(l) as { msg?: string; url?: string; status?: number } } catch { return { msg: `not JSON: ${l}` } } })
  t.same(lines.filter(l => l.msg?.startsWith('not JSON') === true), [], 'every line is JSON')
  t.same(lines.filter(l => l.msg === 'request').map(l => [l.url, l.status]), [['/baas/debit-cards/card_nope/lock', 404]], 'only the request that failed has a line')
  t.equal(lines.at(-1)?.msg, 'shutting down', 'the buffered lines are written before the process exits')
  t.notMatch(output(), /tok_maya/)
})

t.test('SIGTERM still exits 0 when the reader of its logs has gone (`baas-mock | head -1`), without a stack trace', async t => {
  const { child, baseUrl } = await startCli([])
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
  // The reader goes away, as `head -1` does after its line; what the mock logs next has nowhere to go.
  child.stdout?.destroy()
  t.equal((await fetch(`${baseUrl}/baas/debit-cards/card_nope/lock`, { method: 'POST' })).status, 404, 'a request whose log line is lost is answered')
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)))
  child.kill('SIGTERM')
  // Before, sonic-boom 4 retried the broken pipe at exit forever: the process never ended.
  const code = await Promise.race([exited, new Promise<string>(resolve => setTimeout(() => resolve('still running after 10 s'), 10_000).unref())])
  if (code !== 0) child.kill('SIGKILL')
  t.equal(code, 0)
  t.notMatch(stderr, /EPIPE|\n\s+at /, 'nothing on stderr but what was logged there')
})

t.test('a failed start whose log reader has gone still ends at once, with its one line and no stack trace', async t => {
  // A warning is logged (and buffered) before the start fails: pino must flush it at exit into a closed pipe.
  const child = spawn(process.execPath, [CLI, '--port', '0', '--scenario', 'nope'], { env: { PATH: process.env.PATH ?? '', MOCK_ADMIN_TOKN: 'x', ...CLI_ENV }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)))
  // sonic-boom 4 retried the write into the closed pipe forever (see the override in package.json).
  const code = await Promise.race([exited, new Promise<string>(resolve => setTimeout(() => resolve('still running after 10 s'), 10_000).unref())])
  if (typeof code === 'string') child.kill('SIGKILL')
  t.equal(code, 1)
  t.match(stderr, /^baas-mock: --scenario nope does not exist; known: default, [a-z, -]+\n$/)
})
