import t from 'tap'
import { learn } from '../../src/record/learn.js'
import { REDACTED } from '../../src/record/redact.js'
import { CannotVerifyError, verify } from '../../src/record/verify.js'
import type { Exchange } from '../../src/record/exchange.js'
import { startBackendB, TOKEN_B } from './backend-b.js'

const read = (query = '', json?: unknown): Exchange => ({
  operation: 'getCustomer', params: {},
  request: { method: 'GET', path: '/baas/customers', query, headers: {}, ...json === undefined ? {} : { json } },
  response: { status: 200, headers: { 'content-type': 'application/json' }, json: { result: { account_holder: { holder_ref: 'AH-1' } } } }
})

t.test('a request holding a redacted value is not replayed, and said so', async t => {
  const backend = await startBackendB()
  t.teardown(backend.close)
  const asked: string[] = []
  const mock = async (request: Request): Promise<Response> => { asked.push(request.url); return await fetch(new URL(new URL(request.url).pathname, backend.url), request) }
  const skipped: string[] = []
  const cases = await verify({
    corpus: [read(`access_token=${encodeURIComponent(REDACTED)}`), read('', { pin: REDACTED }), read()],
    target: new URL(backend.url), mock, onSkip: line => skipped.push(line)
  })
  t.equal(cases.length, 1, 'only the exchange without a redacted value')
  t.equal(asked.length, 1)
  t.same(skipped.length, 2)
  t.match(skipped[0], /getCustomer GET \/baas\/customers: not replayed, its request holds a redacted value/)
})

t.test('a backend that refuses every replay for want of credentials cannot be verified (exit 2), with the hint', async t => {
  const backend = await startBackendB()
  t.teardown(backend.close)
  backend.requireToken(TOKEN_B)
  const mock = async (): Promise<Response> => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })
  const corpus = [read(), read()]
  await t.rejects(verify({ corpus, target: new URL(backend.url), mock }), new CannotVerifyError(`${new URL(backend.url).origin} answered 401/403 to 2 of 2 replayed request(s): give it credentials, e.g. --header "Authorization: Bearer …"`))
  const cases = await verify({ corpus, target: new URL(backend.url), mock, headers: { authorization: `Bearer ${TOKEN_B}` } })
  t.equal(cases.length, 2, 'with the token given, it runs')
})

t.test('kept values and defaults of nested secret fields (pin, ssn) are redacted by their last pointer token', async t => {
  const answer = (pin: string): Exchange => ({
    operation: 'getCustomer', params: {},
    request: { method: 'GET', path: '/baas/customers', query: '', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, json: { customer: { customerId: 'cu_1', profile: { pin, ssn: '123456789', nickname: 'G' } } } }
  })
  const { dialect } = learn([answer('1234'), answer('9876')], { salt: 'saltsalt' })
  const fields = dialect.shapes?.Customer?.fields as Record<string, { default?: unknown }>
  t.equal(fields['/profile/pin']?.default, REDACTED)
  t.equal(fields['/profile/ssn']?.default, REDACTED)
  t.equal(fields['/profile/nickname']?.default, 'G')
  t.same(dialect.entities?.Customer?.cu_1, { '/profile/pin': REDACTED, '/profile/ssn': REDACTED, '/profile/nickname': 'G' })
  t.notMatch(JSON.stringify(dialect), /1234|9876|123456789/)
})

t.test('an answer that taught a shape is never reported as teaching none, with an id or not', async t => {
  const lock = (state: string): Exchange => ({
    operation: 'lockCard', params: { cardId: 'crd_1' },
    request: { method: 'POST', path: '/baas/debit-cards/crd_1/lock', query: '', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, json: { card: { state, nick: 'x' } } }
  })
  const { dialect, notes } = learn([lock('on'), lock('on')], { salt: 'saltsalt' })
  t.ok(dialect.shapes?.DebitCard, 'a DebitCard shape was learned')
  t.notOk(notes.edit.some(line => /taught no shape/.test(line)), notes.edit.join('\n'))
  t.ok(notes.edit.some(line => /DebitCard: no id field found/.test(line)))
})

t.test('a customer without an id field: the only string stable across reads is the id, else one is made up and said so', async t => {
  const readAs = (customer: Record<string, unknown>): Exchange => ({
    operation: 'getCustomer', params: {},
    request: { method: 'GET', path: '/baas/customers', query: '', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, json: { who: customer } }
  })
  const stable = learn([readAs({ handle: 'gh_1', mail: 'g@example.org' }), readAs({ handle: 'gh_1', mail: 'h@example.org' })], { salt: 'saltsalt' })
  t.equal(stable.dialect.shapes?.Customer?.fields['/handle'], '/id')
  t.equal(stable.fixtures.customers[0]?.id, 'gh_1')
  t.ok(stable.notes.guessed.some(l => /\/handle → \/id: the only string that stayed the same across 2 reads/.test(l)))

  const none = learn([readAs({ mail: 'g@example.org', given_name: 'Grace', surname: 'Hopper' })], { salt: 'saltsalt' })
  t.match(none.fixtures.customers[0], { id: 'cus_recorded', firstName: 'Grace', lastName: 'Hopper', email: 'g@example.org' })
  t.ok(none.notes.guessed.some(l => /the answers show no id; .*cus_recorded .*an id made up/.test(l)))
  t.notOk(none.notes.guessed.some(l => /no customer was read/.test(l)))
})
