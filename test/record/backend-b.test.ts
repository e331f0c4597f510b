import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { parse } from 'yaml'
import { createMock } from '../../src/index.js'
import { startRecorder } from '../../src/record/proxy.js'
import { operationMatcher } from '../../src/record/operations.js'
import { learn } from '../../src/record/learn.js'
import { writeRecording } from '../../src/record/write.js'
import { describeDifferences, verify } from '../../src/record/verify.js'
import { startBackendB, runFlowB, TOKEN_B } from './backend-b.js'

// A second team's backend (holder_ref, short names, a partial PUT): recorded as the CLI does, then
// the mock serves the folder alone, and verify right after agrees.
const dir = join(mkdtempSync(join(tmpdir(), 'recorded-b-')), 'team-b')

{
  const backend = await startBackendB()
  const recorder = await startRecorder({ target: new URL(backend.url), host: '127.0.0.1', port: 0, matcher: operationMatcher({}) })
  await runFlowB(recorder.url)
  await recorder.close()
  await backend.close()
  writeRecording(dir, learn(recorder.exchanges, { salt: 'saltsalt' }), recorder.exchanges, [], backend.url)
}

const auth = (method: string, body?: unknown): RequestInit => ({
  method, headers: { authorization: `Bearer ${TOKEN_B}`, ...body === undefined ? {} : { 'content-type': 'application/json' } }, ...body === undefined ? {} : { body: JSON.stringify(body) }
})

t.test('the customer is the backend\'s: its id by name, its names, e-mail, phone and address bound', async t => {
  const [customer] = parse(readFileSync(join(dir, 'customers.yaml'), 'utf8')) as Array<Record<string, unknown>>
  t.match(customer, {
    id: 'AH-77310', firstName: 'Grace', lastName: 'Hopper', email: 'grace.h@example.org', phone: '+12025550147',
    address: { line1: '7 Compiler Way', city: 'Arlington', state: 'VA', postalCode: '22201', country: 'US' }
  })
  const dialect = parse(readFileSync(join(dir, 'dialect.yaml'), 'utf8')) as { shapes: Record<string, { fields: Record<string, unknown> }>; requests: Record<string, unknown> }
  t.match(dialect.shapes.Customer?.fields, { '/holder_ref': '/id', '/first': '/firstName', '/last': '/lastName', '/addr/street1': '/address/line1', '/addr/st': '/address/state', '/addr/ctry': '/address/country', '/modified': '/updatedAt' })
  t.same(dialect.requests.updateCustomer, { fields: { '/holder/emailAddr': '/email' }, merge: true })
  const report = readFileSync(join(dir, 'REPORT.md'), 'utf8')
  t.notMatch(report, /no customer was read|getCustomer: its answers taught no shape|Customer: no id field found/)
  t.match(report, /updateCustomer: the backend updates partially/)
})

t.test('the mock on the folder alone answers the backend\'s customer, takes its partial PUT, and locks its cards', async t => {
  const mock = await createMock({ fixtures: dir })
  t.teardown(mock.close)
  const read = await mock.fetch('/baas/customers', auth('GET'))
  t.equal(read.status, 200)
  t.match(await read.json(), { result: { account_holder: { holder_ref: 'AH-77310', first: 'Grace', last: 'Hopper', emailAddr: 'grace.h@example.org', mobileNo: '+12025550147', addr: { street1: '7 Compiler Way', city: 'Arlington', st: 'VA', zip: '22201', ctry: 'US' } } } })
  const update = await mock.fetch('/baas/customers', auth('PUT', { holder: { emailAddr: 'grace.offline@example.org' } }))
  t.equal(update.status, 200, await update.clone().text())
  const after = (await (await mock.fetch('/baas/customers', auth('GET'))).json() as { result: { account_holder: Record<string, unknown> } }).result.account_holder
  t.match(after, { emailAddr: 'grace.offline@example.org', mobileNo: '+12025550147', addr: { city: 'Arlington' } }, 'what the body left out kept its value')
  t.not(after.modified, '2026-11-02T10:00:00.000Z')
  t.match(await (await mock.fetch('/baas/debit-cards/pl_A/lock', auth('POST'))).json(), { payload: { plastic: { ref: 'pl_A', state: 'blocked', pan_tail: '5100' } } })
  const unknown = await mock.fetch('/baas/debit-cards/pl_nope/lock', auth('POST'))
  t.equal(unknown.status, 404)
  t.match(await unknown.json(), { ok: false, err: { kind: 'NO_CARD', http: 404 } })
})

t.test('verify right after recording agrees with the backend', async t => {
  const backend = await startBackendB()
  t.teardown(backend.close)
  const { parseJsonl } = await import('../../src/record/exchange.js')
  const corpus = parseJsonl(readFileSync(join(dir, 'exchanges.jsonl'), 'utf8'), 'exchanges.jsonl')
  const mock = await createMock({ fixtures: dir })
  t.teardown(mock.close)
  const dialect = parse(readFileSync(join(dir, 'dialect.yaml'), 'utf8'))
  const cases = await verify({ corpus, target: new URL(backend.url), mock: mock.fetch, dialect, headers: { authorization: `Bearer ${TOKEN_B}` } })
  t.equal(cases.length, 7)
  t.same(describeDifferences(cases), [])
})

t.test('baas-mock verify right after recording exits 0; without credentials the backend wants, 2 with the hint', async t => {
  const { runVerify } = await import('../../src/cli/verify.js')
  const { defaultConfig } = await import('../../src/config/config.js')
  const backend = await startBackendB()
  t.teardown(backend.close)
  backend.requireToken(TOKEN_B)
  const out: string[] = []
  const err: string[] = []
  const config = defaultConfig({ fixturesDir: dir })
  t.equal(await runVerify(config, { target: backend.url, header: [`Authorization: Bearer ${TOKEN_B}`] }, l => out.push(l), l => err.push(l)), 0, out.join('\n') + err.join('\n'))
  t.match(out.at(-1), /7 exchange\(s\) replayed .*: they agree/)
  t.equal(await runVerify(config, { target: backend.url }, l => out.push(l), l => err.push(l)), 2)
  t.match(err.at(-1), /cannot run: .*answered 401\/403 to 7 of 7 .*--header "Authorization: Bearer …"/)
})
