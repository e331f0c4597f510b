import { Writable } from 'node:stream'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { loggerOptions } from '../../src/transports/fastify/logger.js'
import { defaultConfig, type Config } from '../../src/config/config.js'
import { TEST_NOW } from '../helpers/app.js'

interface Teardown { teardown: (fn: () => unknown) => void }

// Which persona answered is never a guess: every API answer names it (x-mock-persona), the journal
// says how it was chosen, and open auth warns once per token that selected nobody.

interface Logged { app: Awaited<ReturnType<typeof buildApp>>; warnings: () => string[]; get: (url: string, headers?: Record<string, string>) => Promise<{ status: number; persona: unknown; body: any }> } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

async function logged (t: Teardown, overrides: Partial<Config> = {}): Promise<Logged> {
  const lines: string[] = []
  const stream = new Writable({ write (chunk: Buffer, _encoding, done) { lines.push(...chunk.toString().split('\n').filter(Boolean)); done() } })
  const config = defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'warn', ...overrides })
  const app = await buildApp(config, { logger: loggerOptions(config, stream) })
  t.teardown(() => app.close())
  await app.ready()
  const get: Logged['get'] = async (url, headers = {}) => {
    const res = await app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, persona: res.headers['x-mock-persona'], body: res.body === '' ? undefined : JSON.parse(res.body) }
  }
  const warnings = (): string[] => lines.map(line => (JSON.parse(line) as { level: number; msg: string })).filter(l => l.level === 40).map(l => l.msg)
  return { app, warnings, get }
}

const jwt = (claims: object): string => `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2lnbmF0dXJl`

async function journal (get: Logged['get'], session = 'default'): Promise<Array<{ url: string; status: number; persona?: { customerId: string; via: string } }>> {
  return (await get('/__mock/requests?order=asc', { 'x-mock-session': session })).body.data
}

t.test('a mistyped token answers as the default persona, says so in the header and the journal, and warns once', async t => {
  const { get, warnings } = await logged(t)
  for (let i = 0; i < 3; i++) {
    const res = await get('/baas/customers', { authorization: 'Bearer tok_mya' })
    t.equal(res.status, 200)
    t.equal(res.persona, 'cus_maya', 'the answer names who answered')
  }
  t.same(warnings(), ['unknown token "tok_mya" answered as cus_maya (default persona); did you mean tok_maya?'], 'one warning for three requests')
  const known = await get('/baas/customers', { authorization: 'Bearer tok_jordan' })
  t.equal(known.persona, 'cus_jordan')
  const none = await get('/baas/customers')
  t.equal(none.persona, 'cus_maya', 'no Authorization: the default persona, named')
  t.same((await get('/baas/nothing-here', { authorization: 'Bearer tok_jordan' })).persona, undefined, 'no operation: no persona')
  const entries = await journal(get)
  t.same(entries.map(e => e.persona), [
    { customerId: 'cus_maya', via: 'default' }, { customerId: 'cus_maya', via: 'default' }, { customerId: 'cus_maya', via: 'default' },
    { customerId: 'cus_jordan', via: 'token' },
    { customerId: 'cus_maya', via: 'default' },
    undefined
  ])
  t.equal(warnings().length, 1, 'no token and a known token warn about nothing')
  t.equal((await get('/__mock/state')).persona, undefined, 'the control plane answers as nobody')
})

t.test('an Authorization value without the Bearer scheme, or not of the form Bearer <token>, is named', async t => {
  const { get, warnings } = await logged(t)
  t.equal((await get('/baas/customers', { authorization: 'tok_sam' })).persona, 'cus_maya', 'not Sam: the scheme is missing')
  await get('/baas/customers', { authorization: 'tok_sam' })
  await get('/baas/customers', { authorization: 'Token abc' })
  await get('/baas/customers', { authorization: 'Bearer tok_sam extra' })
  await get('/baas/customers', { authorization: 'Basic dXNlcjpwYXNz' })
  await get('/baas/customers', { authorization: 'sk_live_abc' })
  t.notMatch(warnings().join('\n'), /dXNlcjpwYXNz|sk_live_abc/, 'a Basic credential or a bare key is never logged')
  t.same(warnings().slice(3), [
    'Authorization "Basic …" (18 characters) has no "Bearer " scheme; answered as cus_maya (default persona); send "Bearer <token>"',
    'Authorization "sk_l…" (11 characters) has no "Bearer " scheme; answered as cus_maya (default persona); send "Bearer <token>"'
  ])
  t.same(warnings().slice(0, 3), [
    'Authorization "tok_sam" has no "Bearer " scheme; answered as cus_maya (default persona); send "Bearer tok_sam"',
    'Authorization "Token …" (9 characters) has no "Bearer " scheme; answered as cus_maya (default persona); send "Bearer <token>"',
    'Authorization "Bearer …" (20 characters) is not "Bearer <token>"; answered as cus_maya (default persona)'
  ])
})

t.test('a JWT selects by its sub; one whose sub is nobody answers as the default, and is never logged whole', async t => {
  const { get, warnings } = await logged(t)
  const jordan = await get('/baas/customers', { authorization: `Bearer ${jwt({ sub: 'cus_jordan' })}` })
  t.equal(jordan.persona, 'cus_jordan')
  const stranger = jwt({ sub: 'auth0|5f7c8ec7c33c6c004bbafe82', email: 'someone@example.com' })
  const res = await get('/baas/customers', { authorization: `Bearer ${stranger}` })
  t.equal(res.persona, 'cus_maya')
  t.same(warnings(), [`JWT "${stranger.slice(0, 8)}…" (${stranger.length} characters) has sub "auth0|5f7c8ec7c33c6c004bbafe82", which is no persona's token or customer id; answered as cus_maya (default persona)`])
  t.notOk(warnings().some(line => line.includes(stranger)), 'the token itself is not in the log')
  const longOpaque = 'sk_live_' + 'x'.repeat(60)
  await get('/baas/customers', { authorization: `Bearer ${longOpaque}` })
  t.equal(warnings()[1], `unknown token "sk_live_…" (${longOpaque.length} characters) answered as cus_maya (default persona)`, 'a long value: a prefix, and no did-you-mean')
  t.same((await journal(get)).map(e => e.persona?.via), ['jwt-sub', 'default', 'default'])
})

t.test('a persona of another scenario: the default answers, visibly, and the warning names the scenario', async t => {
  const { app, get, warnings } = await logged(t, { scenario: 'new-customer' })
  const res = await get('/baas/customers', { authorization: 'Bearer tok_maya' })
  t.equal(res.status, 200)
  t.equal(res.persona, 'cus_noa', 'Noa answered, and the header says so')
  t.equal(res.body.firstName, 'Noa')
  await get('/baas/customers', { authorization: `Bearer ${jwt({ sub: 'cus_jordan' })}` })
  t.same(warnings(), [
    '"tok_maya" is Maya\'s token, but scenario "new-customer" has no cus_maya; answered as cus_noa (default persona)',
    '"cus_jordan" is Jordan\'s token, but scenario "new-customer" has no cus_jordan; answered as cus_noa (default persona)'
  ])
  // Maya's card is not in this world: the 404 names the card asked for, and the header the persona that looked.
  const res404 = await app.inject({ method: 'POST', url: '/baas/debit-cards/card_maya_virtual/lock', headers: { authorization: 'Bearer tok_maya' } })
  const card = { status: res404.statusCode, persona: res404.headers['x-mock-persona'], body: JSON.parse(res404.body) }
  t.equal(card.status, 404)
  t.equal(card.persona, 'cus_noa', 'a problem names the persona too')
  t.equal(card.body.detail, 'No card card_maya_virtual for customer cus_noa.', 'the problem names the customer that looked, as the header does')
  t.same((await journal(get)).map(e => e.persona), [{ customerId: 'cus_noa', via: 'default' }, { customerId: 'cus_noa', via: 'default' }, { customerId: 'cus_noa', via: 'default' }])
  t.equal(warnings().length, 2, 'the same token again warns no more')
})

t.test('strict auth: 401 as before, with no persona; a known token is named', async t => {
  const { get, warnings } = await logged(t, { auth: 'strict' })
  const refused = await get('/baas/customers', { authorization: 'Bearer tok_mya' })
  t.equal(refused.status, 401)
  t.equal(refused.body.code, 'unauthenticated')
  t.equal(refused.persona, undefined, 'a 401 answers as nobody')
  t.equal((await get('/baas/customers', { authorization: 'tok_sam' })).status, 401)
  const ok = await get('/baas/customers', { authorization: 'Bearer tok_riley' })
  t.equal(ok.status, 200)
  t.equal(ok.persona, 'cus_riley')
  t.same(warnings(), [], 'strict auth answers the refusal itself: nothing to warn about')
  t.same((await journal(get)).map(e => [e.status, e.persona]), [[401, undefined], [401, undefined], [200, { customerId: 'cus_riley', via: 'token' }]])
  // A fault fires before authentication, as before: with a known token it names the persona, without one nobody.
  const { app } = await logged(t, { auth: 'strict' })
  t.equal((await app.inject({ method: 'POST', url: '/__mock/faults', payload: { operation: 'getCustomer', status: 503 } })).statusCode, 201)
  const faulted = await app.inject({ method: 'GET', url: '/baas/customers', headers: { authorization: 'Bearer tok_mya' } })
  t.same([faulted.statusCode, faulted.headers['x-mock-persona']], [503, undefined])
  const named = await app.inject({ method: 'GET', url: '/baas/customers', headers: { authorization: 'Bearer tok_riley' } })
  t.same([named.statusCode, named.headers['x-mock-persona']], [503, 'cus_riley'])
})

t.test('a fault\'s answer and an idempotent replay name the persona too', async t => {
  const { app, get } = await logged(t)
  const added = await app.inject({ method: 'POST', url: '/__mock/faults', payload: { operation: 'getCustomer', status: 503 } })
  t.equal(added.statusCode, 201)
  const faulted = await get('/baas/customers', { authorization: 'Bearer tok_jordan' })
  t.equal(faulted.status, 503)
  t.equal(faulted.persona, 'cus_jordan')
  const lock = async (): Promise<{ status: number; persona: unknown; replayed: unknown }> => {
    const res = await app.inject({ method: 'POST', url: '/baas/debit-cards/card_jordan_virtual/lock', headers: { authorization: 'Bearer tok_jordan', 'idempotency-key': 'k1' } })
    return { status: res.statusCode, persona: res.headers['x-mock-persona'], replayed: res.headers['idempotent-replayed'] }
  }
  const first = await lock()
  const again = await lock()
  t.equal(first.persona, 'cus_jordan')
  t.same(again, { ...first, replayed: 'true' }, 'the replay names the same persona')
})

t.test('a page of another origin may read x-mock-persona', async t => {
  const { app } = await logged(t)
  const res = await app.inject({ method: 'GET', url: '/baas/customers', headers: { origin: 'http://app.example' } })
  t.ok(String(res.headers['access-control-expose-headers']).split(/, */).includes('X-Mock-Persona'))
  t.equal(res.headers['x-mock-persona'], 'cus_maya')
})
