import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { syncBuiltinESMExports } from 'node:module'
import FakeTimers from '@sinonjs/fake-timers'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { BUNDLED_FIXTURES, defaultConfig } from '../../src/config/config.js'
import { FixtureError } from '../../src/fixtures/loader.js'
import { loadResponseOverrides } from '../../src/fixtures/responses.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

/** A copy of the bundled fixtures plus the given files (path relative to the fixtures folder → YAML). */
function fixturesWith (t: { testdir: () => string }, files: Record<string, string>): string {
  const dir = join(t.testdir(), 'fixtures')
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

async function cardStatus (call: Awaited<ReturnType<typeof buildTestApp>>['call'], cardId: string): Promise<string> {
  return (await call('GET', '/__mock/state')).body.debitCards.find((c: { id: string }) => c.id === cardId).status
}

t.test('Prefer: example=<name> answers the bundled example, verbatim and typed', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/baas/customers', { token: TOKENS.jordan, headers: { prefer: 'example=minimal' } })
  t.equal(res.status, 200)
  t.equal(res.headers['x-mock-source'], 'override')
  t.equal(res.headers['preference-applied'], 'example=minimal')
  t.same(res.body, { id: 'cus_jordan', firstName: 'Jordan', lastName: 'Reyes', email: 'jordan.reyes@example.com', phoneVerified: false, status: 'ACTIVE' },
    'fields the Customer schema requires are missing: the body was not filtered or completed; a lone {{value}} keeps its JSON type')
})

t.test('an error example answers instead of the domain, which does not run', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers: { prefer: 'example=processor-timeout, delay=0' } })
  t.equal(res.status, 504)
  t.match(res.headers['content-type'], /^application\/problem\+json/, 'the example\'s own content type')
  t.equal(res.headers['retry-after'], '5')
  t.equal(res.headers['preference-applied'], 'example=processor-timeout, delay=0', 'Prefer delay=0 replaces the example\'s 2 s')
  t.match(res.body, { code: 'processor_timeout', status: 504, cardId: 'card_maya_virtual', detail: /card card_maya_virtual was not locked/ })
  t.equal(await cardStatus(call, 'card_maya_virtual'), 'ACTIVE', 'state untouched')
  const journal = await call('GET', '/__mock/requests')
  t.match(journal.body.data[0], { operationId: 'lockCard', status: 504, source: 'override' })
})

t.test('Prefer: code=<status> picks an example with that status, else forces a problem', async t => {
  const { call } = await buildTestApp(t)
  const timeout = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers: { prefer: 'code=504, delay=0' } })
  t.equal(timeout.body.code, 'processor_timeout')
  t.equal(timeout.headers['preference-applied'], 'code=504, delay=0')

  const forced = await call('GET', '/baas/customers', { headers: { prefer: 'code=503' } })
  t.equal(forced.status, 503)
  t.equal(forced.headers['x-mock-source'], 'prefer')
  t.equal(forced.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.match(forced.body, { code: 'forced_status', status: 503, title: 'Service Unavailable', instance: '/baas/customers' })
  t.equal(forced.headers['retry-after'], '1', 'a made-up 503 says when to retry')
  const limited = await call('GET', '/baas/customers', { headers: { prefer: 'code=429' } })
  t.equal(limited.headers['retry-after'], '1', 'a made-up 429 too')

  const teapot = await call('GET', '/baas/customers', { headers: { prefer: 'code=418' } })
  t.equal(teapot.status, 418)
  for (const code of [204, 201, 302]) {
    const empty = await call('GET', '/baas/customers', { headers: { prefer: `code=${code}` } })
    t.equal(empty.status, code)
    t.equal(empty.text, '', `a forced ${code} has no body (and no problem)`)
    t.equal(empty.headers['content-type'], undefined)
  }
})

t.test('Prefer: code=<success status> lets the real operation answer', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers: { prefer: 'code=200' } })
  t.equal(res.status, 200)
  t.equal(res.body.status, 'LOCKED')
  t.notOk(res.headers['x-mock-source'])
  t.equal(await cardStatus(call, 'card_maya_virtual'), 'LOCKED')
  const existing = await call('PUT', '/baas/debit-cards/physical', { headers: { prefer: 'code=201' }, body: {} })
  t.equal(existing.status, 200, 'a preference is a hint: the operation still says the card already exists')
})

t.test('Prefer: delay=<ms> delays the real answer', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/baas/customers', { headers: { prefer: 'delay=15' } })
  t.equal(res.status, 200)
  t.equal(res.body.id, 'cus_maya')
  t.equal(res.headers['preference-applied'], 'delay=15')
})

t.test('a write delayed by Prefer lands in the world the session has after a reset meanwhile', async t => {
  const { call } = await buildTestApp(t)
  // The delay runs on a fake clock: it ends when the test says, after the reset, whatever the machine's speed.
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] })
  syncBuiltinESMExports() // so `import { setTimeout } from 'node:timers/promises'` sees the fake too
  t.teardown(() => { clock.uninstall(); syncBuiltinESMExports() })
  const delayed = call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers: { prefer: 'delay=150' } })
  for (let turn = 0; turn < 1000 && clock.countTimers() === 0; turn++) await new Promise(resolve => setImmediate(resolve))
  t.equal(clock.countTimers(), 1, 'the write is waiting out its delay')
  t.equal((await call('POST', '/__mock/reset', { body: {} })).status, 200)
  await clock.tickAsync(150)
  t.equal((await delayed).body.status, 'LOCKED')
  const card = (await call('GET', '/__mock/state')).body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual')
  t.equal(card.status, 'LOCKED', 'what the client was told is what the state holds')
})

t.test('unknown examples and bad preferences are 400 problems that change nothing', async t => {
  const { call } = await buildTestApp(t)
  const unknown = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers: { prefer: 'example=nope' } })
  t.equal(unknown.status, 400)
  t.equal(unknown.body.code, 'unknown_example')
  t.match(unknown.body.detail, 'known: processor-timeout')
  const none = await call('POST', '/mfa/verify', { headers: { prefer: 'example=x' }, body: { code: '123456' } })
  t.match(none.body.detail, 'it has none')
  const bad = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { headers: { prefer: 'code=700' } })
  t.equal(bad.status, 400)
  t.equal(bad.body.code, 'invalid_prefer')
  t.equal(await cardStatus(call, 'card_maya_virtual'), 'ACTIVE')
  const invalidBody = await call('PUT', '/baas/customers', { headers: { prefer: 'example=minimal' }, body: { email: 'x' } })
  t.equal(invalidBody.status, 400, 'requests are validated before any example answers')
})

t.test('a header rendered from request data that holds a newline is a 500 problem, not a crash', async t => {
  const fixturesDir = fixturesWith(t, { 'responses/createInternalScheduledTransfer.yaml': 'echo:\n  default: true\n  status: 201\n  headers: { x-memo: "{{{request.body.memo}}}" }\n  body: { ok: true }\n' })
  const { call } = await buildTestApp(t, { fixturesDir })
  const transfer = (memo: string): Record<string, unknown> => ({ fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100, frequency: 'WEEKLY', startDate: '2026-12-01', memo })
  const res = await call('POST', '/baas/scheduled-transfers/internal', { body: transfer('Rent') })
  t.equal(res.status, 201)
  t.equal(res.headers['x-memo'], 'Rent')
  const broken = await call('POST', '/baas/scheduled-transfers/internal', { body: transfer('Rent\nSet-Cookie: x=1') })
  t.equal(broken.status, 500)
  t.equal(broken.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(broken.headers['set-cookie'], undefined, 'no header injection')
  t.match(broken.body, { code: 'template_failed', detail: /x-memo/ })
})

t.test('team fixtures: default examples, templates over request and state, config-name files, scenario overlays', async t => {
  const fixturesDir = fixturesWith(t, {
    'responses/API_BAAS_CUSTOMER.yaml': `
legacy:
  default: true
  headers: { x-customer: "{{customer.id}}", x-cards: "{{state.debitCards.length}}" }
  body:
    customerId: "{{customer.id}}"
    cards: "{{state.debitCards.length}}"
    echo: "{{request.body.email}}"
    auth: "{{request.headers.authorization}}"
    when: "{{now}}"
    session: "{{session}}"
    op: "{{operationId}}"
    fixed: [1, true, null]
    greeting: "Hello {{customer.firstName}}!"
`,
    'responses/getCustomer.yaml': `
text:
  status: 200
  body: "plain {{customer.firstName}}"
list:
  status: 200
  body: |
    [{{#each state.customers}}"{{id}}"{{#unless @last}},{{/unless}}{{/each}}]
broken:
  body: "{{#each}}x{{/each}}"
gone:
  status: 204
`,
    'scenarios/new-customer/responses/getCustomer.yaml': `
onboarding:
  default: true
  status: 202
  body: { state: PENDING_REVIEW, id: "{{customer.id}}" }
`
  })
  const { call } = await buildTestApp(t, { fixturesDir })
  const get = await call('GET', '/baas/customers', { token: TOKENS.sam })
  t.equal(get.status, 200)
  t.equal(get.headers['x-customer'], 'cus_sam')
  t.same(get.body, {
    customerId: 'cus_sam', cards: 7, echo: null, auth: '[REDACTED]', when: '2026-11-23T15:00:00.000Z', session: 'default',
    op: 'getCustomer', fixed: [1, true, null], greeting: 'Hello Sam!'
  }, 'a default example answers without Prefer; a lone missing value is null')
  const put = await call('PUT', '/baas/customers', { token: TOKENS.sam, body: { email: 'sam@new.example', phone: '+13125550144', address: { line1: '1 A St', city: 'Chicago', state: 'IL', postalCode: '60606', country: 'US' } } })
  t.equal(put.body.echo, 'sam@new.example', 'a configuration-name file covers every operation sharing the name')
  t.equal((await call('GET', '/__mock/state')).body.customers.find((c: { id: string }) => c.id === 'cus_sam').email, 'sam.okafor@example.com', 'the domain did not run')

  const text = await call('GET', '/baas/customers', { token: TOKENS.sam, headers: { prefer: 'example=text' } })
  t.equal(text.headers['content-type'], 'text/plain; charset=utf-8')
  t.equal(text.text, 'plain Sam')
  const list = await call('GET', '/baas/customers', { headers: { prefer: 'example=list' } })
  t.same(list.body, ['cus_maya', 'cus_jordan', 'cus_sam', 'cus_riley'], 'a string template that looks like JSON is sent as JSON')
  const gone = await call('GET', '/baas/customers', { headers: { prefer: 'example=gone' } })
  t.equal(gone.status, 204)
  const broken = await call('GET', '/baas/customers', { headers: { prefer: 'example=broken' } })
  t.equal(broken.status, 500)
  t.equal(broken.body.code, 'template_failed')
  t.match(broken.body.detail, 'responses/getCustomer.yaml')

  await call('POST', '/__mock/reset', { session: 'onboarding', body: { scenario: 'new-customer' } })
  const scenarioDefault = await call('GET', '/baas/customers', { session: 'onboarding' })
  t.equal(scenarioDefault.status, 202, 'the scenario\'s default supersedes the base default')
  t.same(scenarioDefault.body, { state: 'PENDING_REVIEW', id: 'cus_noa' })
  const baseStillThere = await call('GET', '/baas/customers', { session: 'onboarding', headers: { prefer: 'example=legacy' } })
  t.equal(baseStillThere.body.customerId, 'cus_noa', 'base examples stay selectable by name')
  const scenarios = await call('GET', '/__mock/scenarios')
  const overlay = scenarios.body.scenarios.find((s: { name: string }) => s.name === 'new-customer')
  // The team's folder lies over the bundled world: the bundled example (minimal) is there too.
  t.same(overlay.responseExamples.getCustomer.sort(), ['broken', 'gone', 'legacy', 'list', 'minimal', 'onboarding', 'text'])
})

t.test('response files are checked at startup: file, pointer and rule', async t => {
  const cases: [string, string, RegExp][] = [
    ['responses/getCustomers.yaml', 'x: { status: 200 }', /responses\/getCustomers\.yaml at \/: getCustomers is neither an operation id nor a configuration name/],
    ['responses/getCustomer.yaml', 'x: { status: 700 }', /getCustomer\.yaml at \/x\/status: must be <= 599/],
    ['responses/getCustomer.yaml', 'x: { code: 200 }', /at \/x\/code: is not a known field/],
    ['responses/getCustomer.yaml', 'x: { body: "{{#if}}" }', /at \/x\/body: template does not compile/],
    ['responses/getCustomer.yaml', 'x: { body: { id: "{{> card}}" } }', /at \/x\/body\/id: template does not compile: partials \(\{\{> name\}\}\) are not available; write the template out$/],
    ['responses/getCustomer.yaml', 'x: { headers: { x-id: "{{log customer.id}}" } }', /at \/x\/headers\/x-id: template uses an unknown helper log/],
    ['responses/getCustomer.yaml', 'x: { body: { id: "{{upper customer.id}}" } }', /at \/x\/body\/id: template uses an unknown helper upper \(known: json, eq, default, if, unless, each, with, lookup\)/],
    ['responses/getCustomer.yaml', 'x: { headers: { content-length: "1" } }', /at \/x\/headers\/content-length: is set by the server/],
    ['responses/getCustomer.yaml', 'x: { headers: { "bad header": "1" } }', /at \/x\/headers\/bad header: is not a valid name \(must match/],
    ['responses/getCustomer.yaml', 'x: { headers: { x-a: [1] } }', /at \/x\/headers\/x-a: must be a string/],
    ['responses/getCustomer.yaml', 'x: { default: true }\ny: { default: true }', /at \/y\/default: getCustomer already has a default example \(x in responses\/getCustomer\.yaml\)/],
    ['responses/getCustomer.yaml', '"bad name!": { status: 200 }', /at \/bad name!: example names are/],
    ['responses/getCustomer.yaml', '- 1', /at \/: must map example names to examples/],
    ['responses/getCustomer.yaml', 'x: { delay: 60000 }', /at \/x\/delay: must be <= 30000/]
  ]
  for (const [file, text, message] of cases) {
    const fixturesDir = fixturesWith(t, { [file]: text })
    await t.rejects(buildApp(defaultConfig({ fixturesDir, logLevel: 'silent' }), { logger: false }), message, `${file}: ${text}`)
  }
  const dir = fixturesWith(t, { 'responses/getCustomer.json': '{}' })
  t.throws(() => loadResponseOverrides(dir, ['default']), FixtureError, 'two files for one operation')
})
