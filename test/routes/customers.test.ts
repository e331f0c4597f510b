import t from 'tap'
import { buildTestApp, TOKENS } from '../helpers/app.js'

const address = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105-1420', country: 'US' }

t.test('GET /baas/customers answers the persona of the bearer token', async t => {
  const { call } = await buildTestApp(t)
  const maya = await call('GET', '/baas/customers', { token: TOKENS.maya })
  t.equal(maya.status, 200)
  t.match(maya.body, { id: 'cus_maya', firstName: 'Maya', ssnLast4: '4821', status: 'ACTIVE' })
  t.notOk('tokens' in maya.body, 'fixture-only fields never leave')
  const sam = await call('GET', '/baas/customers', { token: TOKENS.sam })
  t.equal(sam.body.id, 'cus_sam')
  const anonymous = await call('GET', '/baas/customers')
  t.equal(anonymous.body.id, 'cus_maya', 'open auth: no token is the default persona')
})

t.test('a JWT selects the persona by its sub', async t => {
  const { call } = await buildTestApp(t)
  const payload = Buffer.from(JSON.stringify({ sub: 'cus_jordan' })).toString('base64url')
  const res = await call('GET', '/baas/customers', { token: `eyJhbGciOiJub25lIn0.${payload}.sig` })
  t.equal(res.body.id, 'cus_jordan')
})

t.test('strict auth: 401 without a known token', async t => {
  const { call } = await buildTestApp(t, { auth: 'strict' })
  const res = await call('GET', '/baas/customers')
  t.equal(res.status, 401)
  t.equal(res.body.code, 'unauthenticated')
  t.equal(res.headers['www-authenticate'], 'Bearer realm="baas-mock"', 'RFC 9110: a 401 says how to authenticate')
  t.equal((await call('GET', '/baas/customers', { token: 'nope' })).status, 401)
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.riley })).status, 200)
})

t.test('PUT /baas/customers replaces contact details and they read back', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'maya@new.example', phone: '+14155550123', address } })
  t.equal(res.status, 200)
  t.equal(res.body.email, 'maya@new.example')
  t.same(res.body.address, address)
  t.equal(res.body.phoneVerified, true, 'same phone stays verified')
  t.equal(res.body.updatedAt, '2026-11-23T15:00:00.000Z')
  const after = await call('GET', '/baas/customers', { token: TOKENS.maya })
  t.equal(after.body.email, 'maya@new.example')
})

t.test('a new phone number is no longer verified', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'maya.chen@example.com', phone: '+14155550999', address } })
  t.equal(res.body.phoneVerified, false)
})

t.test('read-only fields may be echoed back unchanged, not changed', async t => {
  const { call } = await buildTestApp(t)
  const current = (await call('GET', '/baas/customers', { token: TOKENS.maya })).body
  const echoed = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { ...current, email: 'echo@example.com' } })
  t.equal(echoed.status, 200, 'the whole resource, as read, can be PUT back')
  const changed = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { ...current, firstName: 'Mia', ssnLast4: '0000' } })
  t.equal(changed.status, 422)
  t.equal(changed.body.code, 'field_not_updatable')
  t.same(changed.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/firstName', '/ssnLast4'])
  t.match(changed.body.detail, /\/firstName, \/ssnLast4 differ from the record|\/ssnLast4, \/firstName differ from the record/)
  const one = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { ...current, firstName: 'Mia' } })
  t.match(one.body.detail, /; \/firstName differs from the record\.$/)
  const after = await call('GET', '/baas/customers', { token: TOKENS.maya })
  t.equal(after.body.firstName, 'Maya', 'state untouched')
  t.equal(after.body.email, 'echo@example.com')
})

t.test('invalid bodies are 400 naming each field, and change nothing', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('PUT', '/baas/customers', {
    token: TOKENS.maya,
    body: { email: 'not-an-email', phone: '4155550123', address: { ...address, state: 'XX', postalCode: '123' }, nickname: 'M' }
  })
  t.equal(res.status, 400)
  t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(res.body.code, 'validation_failed')
  const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer).sort()
  t.same(pointers, ['/address/postalCode', '/address/state', '/email', '/nickname', '/phone'])
  const missing = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'a@b.co' } })
  t.same(missing.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/address', '/phone'])
  const after = await call('GET', '/baas/customers', { token: TOKENS.maya })
  t.equal(after.body.email, 'maya.chen@example.com')
})

t.test('a FROZEN customer reads but cannot write (409)', async t => {
  const { call } = await buildTestApp(t)
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.riley })).body.status, 'FROZEN')
  const res = await call('PUT', '/baas/customers', { token: TOKENS.riley, body: { email: 'r@example.com', phone: '+15125550199', address } })
  t.equal(res.status, 409)
  t.equal(res.body.code, 'customer_not_writable')
})

t.test('malformed JSON, wrong content type and oversized bodies are problems', async t => {
  const { call } = await buildTestApp(t, { bodyLimit: 1024 })
  const malformed = await call('PUT', '/baas/customers', { token: TOKENS.maya, payload: '{"email":', headers: { 'content-type': 'application/json' } })
  t.equal(malformed.status, 400)
  t.equal(malformed.body.code, 'malformed_json')
  t.match(malformed.body.detail, /^The body is not valid JSON: .*(position|end)/i, 'says where it went wrong')
  const poisoned = await call('PUT', '/baas/customers', { token: TOKENS.maya, payload: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } })
  t.equal(poisoned.status, 400)
  t.equal(poisoned.body.code, 'forbidden_json_key')
  const zipped = await call('PUT', '/baas/customers', { token: TOKENS.maya, payload: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
  t.equal(zipped.status, 415)
  t.equal(zipped.body.code, 'unsupported_content_encoding')
  const emptyLock = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, payload: '', headers: { 'content-type': 'application/json' } })
  t.equal(emptyLock.status, 200, 'an empty body under a JSON content type is no body (as many HTTP clients send it)')
  const emptyPut = await call('PUT', '/baas/customers', { token: TOKENS.maya, payload: '', headers: { 'content-type': 'application/json' } })
  t.equal(emptyPut.status, 400, 'where a body is needed, its absence is a validation problem')
  t.equal(emptyPut.body.code, 'validation_failed')
  const text = await call('PUT', '/baas/customers', { token: TOKENS.maya, payload: 'email=a', headers: { 'content-type': 'text/plain' } })
  t.equal(text.status, 415)
  t.equal(text.body.code, 'unsupported_media_type')
  const huge = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'a@b.co', phone: '+14155550123', address: { ...address, line1: 'x'.repeat(5000) } } })
  t.equal(huge.status, 413)
  t.equal(huge.body.code, 'body_too_large')
})

t.test('unknown routes are 404 problems', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/baas/nothing-here')
  t.equal(res.status, 404)
  t.equal(res.body.code, 'route_not_found')
  t.match(res.body.detail, /GET \/baas\/nothing-here/)
})

t.test('a state in lower case is named in upper case; a code that is no typo of any state gets the list, not a guess', async t => {
  const { call } = await buildTestApp(t)
  const lower = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'm@example.com', phone: '+14155550123', address: { ...address, state: 'ca' } } })
  t.equal(lower.status, 400)
  t.match(lower.body.errors, [{ pointer: '/address/state', message: /^must be one of the \d+ allowed values; did you mean "CA"\?$/ }])
  const unknown = await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'm@example.com', phone: '+14155550123', address: { ...address, state: 'XX' } } })
  t.match(unknown.body.errors, [{ pointer: '/address/state', message: /^must be one of "AL", "AK", / }])
  t.notMatch(unknown.body.errors[0].message, /did you mean/, 'XX is no typo of TX')
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.maya })).body.address.state, 'CA', 'nothing changed')
})
