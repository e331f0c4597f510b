import { spawn } from 'node:child_process'
import { mkdtempSync, existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { setupServer } from 'msw/node'
import { createMock } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { CLI, CLI_ENV, runCli } from '../helpers/spawn.js'
import { startBackend, runFlow, TOKEN } from './backend.js'

// The "Done when", end to end: the built CLI records a backend written here (another
// envelope, names, state values and error format), then the mock serves the folder alone.
const out = join(mkdtempSync(join(tmpdir(), 'recorded-')), 'team')

async function record (target: string): Promise<{ seen: Awaited<ReturnType<typeof runFlow>>; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'record', '--target', target, '--out', out, '--port', '0'], { env: { PATH: process.env.PATH ?? '', ...CLI_ENV }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      const match = /recording at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    child.on('exit', code => { reject(new Error(`record exited with ${code}: ${stderr}`)) })
  })
  const seen = await runFlow(url)
  const code = await new Promise<number | null>(resolve => {
    child.removeAllListeners('exit')
    child.on('exit', resolve)
    child.kill('SIGTERM')
  })
  return { seen, code, stderr }
}

const json = (method: string, body?: unknown): RequestInit => ({
  method, headers: { authorization: `Bearer ${TOKEN}`, ...body === undefined ? {} : { 'content-type': 'application/json' } }, ...body === undefined ? {} : { body: JSON.stringify(body) }
})
const UPDATE = { customer: { contact: { emailAddress: 'ada.offline@example.com', mobile: '+14155550123' }, address: { street: '12 Analytical Row', city: 'San Francisco', region: 'CA', zip: '94105', country: 'US' } } }

t.test('record: the client sees exactly the backend\'s answers; SIGTERM writes the folder and exits 0', async t => {
  const backend = await startBackend()
  const { seen, code, stderr } = await record(backend.url)
  await backend.close()
  t.same(seen, backend.sent)
  t.equal(code, 0, stderr)
  t.match(stderr, /proxied but not kept \(no configured route\): GET \/health/)
  for (const file of ['dialect.yaml', 'fixtures.yaml', 'customers.yaml', 'debit-cards.yaml', 'exchanges.jsonl', 'REPORT.md']) t.ok(existsSync(join(out, file)), file)
  t.notMatch(readFileSync(join(out, 'exchanges.jsonl'), 'utf8'), TOKEN)
  const check = await runCli(['check-fixtures', '--fixtures', out])
  t.equal(check.code, 0, check.stderr)
})

type Fetch = (path: string, init?: RequestInit) => Promise<Response>

/** The backend stopped, the mock on the folder alone behaves as the backend, with the mock's rules underneath. */
async function behavesLikeTheBackend (t: Test, send: Fetch, state: () => Promise<Record<string, unknown>>): Promise<void> {
  const read = await send('/baas/customers', json('GET'))
  t.equal(read.status, 200)
  const customer = (await read.json() as { result: { customer: Record<string, unknown> } }).result.customer
  t.same(Object.keys(customer).sort(), ['address', 'contact', 'customerId', 'fullName', 'modifiedAt', 'tier'])
  t.match(customer, { customerId: 'cu_ada1', fullName: 'Ada Lovelace', tier: 'gold', contact: { emailAddress: 'ada.l@example.com', mobile: '+14155550123' } })

  const cardStatus = async (id: string): Promise<unknown> => ((await state()).debitCards as Array<{ id: string; status: string }>).find(c => c.id === id)?.status
  const unlockB = await send('/baas/debit-cards/crd_B/unlock', json('PUT'))
  t.equal(unlockB.status, 200)
  t.match(await unlockB.json(), { result: { card: { cardId: 'crd_B', lockState: 'off', lastFour: '1881', cardKind: 'virtual', nickname: 'Travel', modifiedAt: String } } }, 'B, never unlocked in the recording, answers its active value')
  t.equal(await cardStatus('crd_B'), 'ACTIVE')
  t.match(await (await send('/baas/debit-cards/crd_B/lock', json('POST'))).json(), { result: { card: { cardId: 'crd_B', lockState: 'on' } } })
  t.equal(await cardStatus('crd_B'), 'LOCKED')
  t.match(await (await send('/baas/debit-cards/crd_A/lock', json('POST'))).json(), { result: { card: { cardId: 'crd_A', lockState: 'on', nickname: 'Groceries' } } })
  t.equal(await cardStatus('crd_A'), 'LOCKED')
  t.match(await (await send('/baas/debit-cards/crd_A/unlock', json('PUT'))).json(), { result: { card: { lockState: 'off' } } })
  t.equal(await cardStatus('crd_A'), 'ACTIVE')

  const unknown = await send('/baas/debit-cards/crd_nope/lock', json('POST'))
  t.equal(unknown.status, 404)
  const error = await unknown.json() as Record<string, unknown>
  t.same(Object.keys(error).sort(), ['errorCode', 'httpStatus', 'message'])
  t.match(error, { errorCode: 'CARD_MISSING', httpStatus: 404, message: String })

  const update = await send('/baas/customers', json('PUT', UPDATE))
  t.equal(update.status, 200, await update.clone().text())
  t.match(await (await send('/baas/customers', json('GET'))).json(), { result: { customer: { contact: { emailAddress: 'ada.offline@example.com' } } } })
}

t.test('the mock on the recorded folder alone, over mock.fetch', async t => {
  const mock = await createMock({ fixtures: out })
  t.teardown(mock.close)
  await behavesLikeTheBackend(t, mock.fetch, async () => ({ ...await mock.session().state() }))
})

t.test('the mock on the recorded folder alone, over MSW', async t => {
  const server = setupServer(...createHandlers({ baseUrl: 'https://bank.example', fixtures: out }))
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => { server.close() })
  const send: Fetch = async (path, init) => await fetch(`https://bank.example${path}`, init)
  await behavesLikeTheBackend(t, send, async () => await (await fetch('https://bank.example/__mock/state')).json() as Record<string, unknown>)
})

t.test('verify: 0 against the backend, 1 naming the renamed field, 2 when it cannot run', async t => {
  const backend = await startBackend()
  t.teardown(backend.close)
  const junit = join(out, '..', 'verify.xml')
  const agree = await runCli(['verify', '--target', backend.url, '--fixtures', out, '--junit', junit])
  t.equal(agree.code, 0, agree.stdout + agree.stderr)
  t.match(agree.stdout, /8 exchange\(s\) replayed .*: they agree/)
  t.match(readFileSync(junit, 'utf8'), /tests="8" failures="0"/)

  backend.renameCardField()
  const drift = await runCli(['verify', '--target', backend.url, '--fixtures', out])
  t.equal(drift.code, 1, drift.stdout + drift.stderr)
  t.match(drift.stdout, /lockCard \/result\/card\/lastFour: missing in the backend/)
  t.match(drift.stdout, /lockCard \/result\/card\/last4Digits: missing in the mock/)
  const reads = await runCli(['verify', '--target', backend.url, '--fixtures', out, '--read-only'])
  t.equal(reads.code, 0, '--read-only replays the customer reads only, which did not move')

  const gone = await startBackend()
  await gone.close()
  const down = await runCli(['verify', '--target', gone.url, '--fixtures', out])
  t.equal(down.code, 2)
  t.match(down.stderr, /cannot run: .* did not answer/)
  const bad = await runCli(['verify', '--target', backend.url, '--fixtures', join(out, 'nope')])
  t.equal(bad.code, 2)
  const noTarget = await runCli(['verify', '--fixtures', out])
  t.equal(noTarget.code, 2)
  t.match(noTarget.stderr, /verify needs --target URL/)
})
