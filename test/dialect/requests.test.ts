import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createMock } from '../../src/index.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { dialectWorld, SUITE_DIALECT } from './world.js'
import { loadCore, OPERATION_HANDLERS } from '../../src/core/build.js'
import { CoreServices } from '../../src/core/services.js'
import { operationRoutes } from '../../src/core/route-definition.js'
import { controlDefinitions } from '../../src/control/route.js'
import { CONTROL_ROUTES } from '../../src/control/routes.js'
import { createFetchHandler } from '../../src/transports/fetch/handler.js'
import { defaultConfig } from '../../src/config/config.js'
import { dialectHooks, shapedRoutes } from '../../src/dialect/routes.js'
import { HeldSleep } from '../helpers/held-sleep.js'
import { secretViews } from '../../src/dialect/view.js'
import { Dialects } from '../../src/fixtures/dialect.js'
import type { DialectFile } from '../../src/dialect/schema.js'
import { redactFields } from '../../src/core/secret-fields.js'

// How a request in a team's dialect is handled around the operation: Idempotency-Key, the journal,
// an abort, and the words of a refusal.
const OPTIONS = { seed: 7, now: '2027-01-10T12:00:00Z' }
const LOCK = '/baas/debit-cards/card_maya_virtual/lock'
const KEYED = { method: 'POST', headers: { 'idempotency-key': 'k1' } }

/** The suite's dialect with more request shapes. */
const withRequests = (requests: string): string => readFileSync(SUITE_DIALECT, 'utf8').replace('requests:\n', `requests:\n${requests}`)

t.test('a keyed write answers in the dialect the first time and on every replay, the same bytes', async t => {
  const mock = await createMock({ fixtures: dialectWorld(), ...OPTIONS })
  t.teardown(() => mock.close())
  const first = await mock.fetch(LOCK, KEYED)
  const firstText = await first.text()
  t.equal(first.status, 200)
  t.match(JSON.parse(firstText), { data: { id: 'card_maya_virtual', type: 'card', attributes: { card_state: 'frozen', nickname: 'Groceries' } } }, 'the first answer is the team\'s')
  const replay = await mock.fetch(LOCK, KEYED)
  t.equal(replay.headers.get('idempotent-replayed'), 'true')
  t.equal(await replay.text(), firstText, 'the replay is the same bytes')
  t.equal(replay.headers.get('content-type'), first.headers.get('content-type'))

  // A domain error kept for the key is in the error shape both times.
  const unknown = { method: 'POST', headers: { 'idempotency-key': 'k2' } }
  const refused = await (await mock.fetch('/baas/debit-cards/nope/lock', unknown)).text()
  t.match(JSON.parse(refused), { errors: [{ code: 'NOT_FOUND', status: 404 }] })
  t.equal(await (await mock.fetch('/baas/debit-cards/nope/lock', unknown)).text(), refused)
})

t.test('a keyed write answered by a reshaping example: first and replay as the example wrote, never re-rendered', async t => {
  const examples = readFileSync(join(BUNDLED_FIXTURES, 'responses', 'lockCard.yaml'), 'utf8') + `
ours:
  default: true
  mode: reshape
  body: { card_state: "{{answer.status}}", card: "{{answer.id}}" }
`
  const unlock = 'ours:\n  default: true\n  mode: reshape\n  body: "state {{answer.status}}"\n'
  const mock = await createMock({ fixtures: dialectWorld({ 'responses/lockCard.yaml': examples, 'responses/unlockCard.yaml': unlock }), ...OPTIONS })
  t.teardown(() => mock.close())
  const first = await mock.fetch(LOCK, KEYED)
  t.equal(first.headers.get('x-mock-source'), 'override')
  const written = '{"card_state":"LOCKED","card":"card_maya_virtual"}'
  t.equal(await first.text(), written)
  const replay = await mock.fetch(LOCK, KEYED)
  t.equal(replay.headers.get('idempotent-replayed'), 'true')
  t.equal(await replay.text(), written, 'the replay is the example\'s text, not the dialect\'s rendering of it')

  // A text body is never parsed as JSON: no 500 on the replay.
  const keyed = { method: 'PUT', headers: { 'idempotency-key': 'u1' } }
  const text = await (await mock.fetch('/baas/debit-cards/card_maya_virtual/unlock', keyed)).text()
  t.equal(text, 'state ACTIVE')
  const again = await mock.fetch('/baas/debit-cards/card_maya_virtual/unlock', keyed)
  t.equal(again.status, 200)
  t.equal(await again.text(), 'state ACTIVE')
})

t.test('the journal redacts a secret where the dialect reads it from', async t => {
  const fixtures = dialectWorld({ 'dialect.yaml': withRequests('  verifyPhoneVerificationCode:\n    fields: { /mfa/otp: /code }\n') })
  const mock = await createMock({ fixtures, ...OPTIONS })
  t.teardown(() => mock.close())
  const post = (body: unknown): RequestInit => {
    const text = JSON.stringify(body)
    return { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(text.length) }, body: text }
  }
  t.equal((await mock.fetch('/mfa/send-code', post({}))).status, 202)
  const code = (await (await mock.fetch('/__mock/outbox')).text()).match(/\b\d{6}\b/)?.[0] ?? '000000'
  const inMockShape = await mock.fetch('/mfa/verify', post({ code }))
  t.equal(inMockShape.status, 400, 'the mock\'s own field is no field of the team\'s')
  t.equal((await mock.fetch('/mfa/verify', post({ mfa: { otp: code } }))).status, 200)
  const journal = await mock.session().journal.list({ order: 'asc' })
  t.notMatch(JSON.stringify(journal), new RegExp(code), 'the code is nowhere in the journal')
  t.same(journal.filter(entry => entry.path === '/mfa/verify').map(entry => entry.body), [{ code: '[REDACTED]' }, { mfa: { otp: '[REDACTED]' } }])
})

t.test('an abort ends a delay under a dialect as without one: the write never runs', async t => {
  const held = new HeldSleep()
  const services = loadCore(defaultConfig({ now: new Date(OPTIONS.now), seed: OPTIONS.seed, fixturesDir: dialectWorld() }), CoreServices, { sleep: held.sleep, dialect: dialectHooks })
  t.teardown(() => services.sessions.webhooks.queue.close())
  const handle = createFetchHandler(services, [...shapedRoutes(services, operationRoutes(services, OPERATION_HANDLERS)), ...controlDefinitions(services, CONTROL_ROUTES)])
  const controller = new AbortController()
  // A body the dialect reads: the operation gets a request of its own, with the signal.
  const body = JSON.stringify({ data: { attributes: { reason: 'damaged' } } })
  const answer = handle(new Request('http://localhost/baas/debit-cards/card_maya_virtual/reissue', { method: 'POST', headers: { prefer: 'delay=3000', 'content-type': 'application/json' }, body, signal: controller.signal }))
  await held.begun()
  controller.abort()
  t.match(await answer.then(() => undefined, (error: unknown) => error), { name: 'AbortError' })
  held.release()
  for (let i = 0; i < 5; i++) await new Promise(resolve => setImmediate(resolve))
  const state = await (await handle(new Request('http://localhost/__mock/state'))).json() as { debitCards: Array<{ id: string; status: string }> }
  t.equal(state.debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'ACTIVE', 'the reissue did not happen once the wait ended')
})

t.test('a refusal names the team\'s fields in its sentences too', async t => {
  const mock = await createMock({ fixtures: dialectWorld(), ...OPTIONS })
  t.teardown(() => mock.close())
  const put = (attributes: Record<string, unknown>): RequestInit =>
    ({ method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { type: 'customer', attributes } }) })
  const address = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }
  const bad = await (await mock.fetch('/baas/customers', put({ email_address: 'not-an-email', phone_number: '+14155550123', home_address: address }))).json() as { errors: Array<{ detail: string; source: { pointer: string } }> }
  t.equal(bad.errors[0]?.source.pointer, '/data/attributes/email_address')
  t.equal(bad.errors[0]?.detail, 'The request body is invalid: /data/attributes/email_address must be an email address, e.g. ada@example.com.')
  const typo = await (await mock.fetch('/baas/customers', put({ email_adress: 'maya@team.example', phone_number: '+14155550123', home_address: address }))).json() as { errors: Array<{ detail: string; source: { pointer: string } }> }
  t.equal(typo.errors[0]?.source.pointer, '/data/attributes/email_adress')
  t.equal(typo.errors[0]?.detail, 'The request body is invalid: /data/attributes/email_adress is not a known field; did you mean "email_address"?', 'the team\'s field meant, not the mock\'s')
  const missing = await (await mock.fetch('/baas/customers', put({ email_address: 'maya@team.example' }))).json() as { errors: Array<{ detail: string }> }
  t.match(missing.errors[0]?.detail, /: \/data\/attributes\/(phone_number|home_address) is required \(and 1 more\)\.$/)
  t.notMatch(missing.errors[0]?.detail, /[^_]phone |[^_]address /, 'no mock field name left')
  const renamed = await (await mock.fetch('/baas/customers', put({ email_address: 'maya@team.example', phone_number: '+14155550123', home_address: address, given_name: 'Someone' }))).json() as { errors: Array<{ detail: string; source: { pointer: string } }> }
  t.equal(renamed.errors[0]?.source.pointer, '/data/attributes/given_name')
  t.equal(renamed.errors[0]?.detail, 'Only email, phone and address can be updated; /data/attributes/given_name differs from the record.')
})

t.test('where a secret sits in a team\'s body: per scenario, the mock\'s own place kept beside it', async t => {
  const file = (requests: DialectFile['requests']): DialectFile => ({ requests }) as DialectFile
  const secrets = secretViews(new Dialects(new Map([
    ['nested', file({ verifyPhoneVerificationCode: { fields: { '/mfa/otp': '/code' } } })],
    ['elsewhere', file({ verifyPhoneVerificationCode: { fields: { '/number': '/phone' } } })],
    ['own', file({})]
  ])))
  const code = [['code']] as const
  t.same(secrets('nested', 'verifyPhoneVerificationCode', code), [['code'], ['mfa', 'otp']])
  t.same(secrets('nested', 'verifyPhoneVerificationCode', code), [['code'], ['mfa', 'otp']], 'the same, worked out once')
  t.same(secrets('elsewhere', 'verifyPhoneVerificationCode', code), [['code']], 'a shape that reads no code: only the mock\'s place')
  t.equal(secrets('own', 'verifyPhoneVerificationCode', code), undefined, 'no request shape: the mock\'s own body')
  t.equal(secrets('none', 'verifyPhoneVerificationCode', code), undefined, 'no dialect')
  t.same(redactFields({ codes: ['1', '2'] }, [['codes', '1'], ['codes', '5'], ['codes', 'x']]), { codes: ['1', '[REDACTED]'] }, 'an item by its index')
})

t.test('a refusal that names no field of the team keeps its words', async t => {
  const mock = await createMock({ fixtures: dialectWorld(), ...OPTIONS })
  t.teardown(() => mock.close())
  const reissue = (reason: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'r1' }, body: JSON.stringify({ data: { attributes: { reason } } }) })
  t.equal((await mock.fetch('/baas/debit-cards/card_maya_virtual/reissue', reissue('damaged'))).status, 201)
  const reused = await (await mock.fetch('/baas/debit-cards/card_maya_virtual/reissue', reissue('lost'))).json() as { errors: Array<{ detail: string; source: { pointer: string } }> }
  t.equal(reused.errors[0]?.source.pointer, '/headers/idempotency-key')
  t.match(reused.errors[0]?.detail, /^This Idempotency-Key was used with another request/)
})
