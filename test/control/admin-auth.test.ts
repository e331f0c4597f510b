import t from 'tap'
import { buildTestApp, TOKENS } from '../helpers/app.js'

const TOKEN = 's3cret-admin'

t.test('with --admin-token the control plane needs the token', async t => {
  const { call } = await buildTestApp(t, { adminToken: TOKEN })
  const missing = await call('GET', '/__mock/requests')
  t.equal(missing.status, 401)
  t.equal(missing.body.code, 'admin_token_required')
  t.match(missing.headers['www-authenticate'], /^Bearer/)
  const wrong = await call('GET', '/__mock/requests', { headers: { 'x-mock-admin-token': 'nope' } })
  t.equal(wrong.status, 401)
  t.match(wrong.body.detail, 'does not match')
  t.equal((await call('POST', '/__mock/faults', { body: { status: 500 } })).status, 401)
  t.equal((await call('GET', '/baas/customers')).status, 200, 'no fault was added without the token')

  t.equal((await call('GET', '/__mock/requests', { headers: { 'x-mock-admin-token': TOKEN } })).status, 200, 'x-mock-admin-token')
  t.equal((await call('GET', '/__mock/sessions', { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200, 'Authorization: Bearer')
  t.equal((await call('GET', `/__mock/outbox?token=${TOKEN}&channel=sms`)).status, 200, '?token= (EventSource), removed before query validation')
  t.equal((await call('GET', `/__mock/outbox?token=${TOKEN}x`)).status, 401)
})

t.test('the mock API and the PIN page are not behind the admin token', async t => {
  const { call } = await buildTestApp(t, { adminToken: TOKEN })
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.maya })).status, 200)
  const link = await call('POST', '/baas/debit-cards/card_maya_virtual/set-pin-url', { token: TOKENS.maya })
  t.equal(link.status, 200)
  const page = await call('GET', new URL(link.body.url).pathname)
  t.equal(page.status, 200, 'end users open the PIN page without the admin token')
  t.equal((await call('GET', '/openapi.json')).status, 200)
})

t.test('without --admin-token the control plane is open, and ?token= is ignored', async t => {
  const { call } = await buildTestApp(t)
  t.equal((await call('GET', '/__mock/requests')).status, 200)
  t.equal((await call('GET', '/__mock/requests?token=anything')).status, 200)
})

t.test('strict auth: the API needs a persona token, the control plane does not', async t => {
  const { call } = await buildTestApp(t, { auth: 'strict' })
  const anonymous = await call('GET', '/baas/customers')
  t.equal(anonymous.status, 401)
  t.equal(anonymous.body.code, 'unauthenticated')
  const lock = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: 'tok_unknown' })
  t.equal(lock.status, 401)
  t.equal((await call('GET', '/__mock/state')).body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'nothing changed')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })).body.status, 'LOCKED')
  const override = await call('GET', '/baas/customers', { headers: { prefer: 'example=minimal' } })
  t.equal(override.status, 401, 'strict auth comes before response examples')
})
