import t from 'tap'
import { buildTestApp, TOKENS } from '../helpers/app.js'

t.test('the wrong method on a known path is 405 with Allow; an unknown path stays 404', async t => {
  const { call } = await buildTestApp(t, { routes: { API_BAAS_SCHEDULED_TRANSFER_DELETE: 'DELETE /v2/transfers/{transferId}' } })
  const unlock = await call('POST', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  t.equal(unlock.status, 405)
  t.equal(unlock.headers.allow, 'PUT')
  t.equal(unlock.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.match(unlock.body, { code: 'method_not_allowed', detail: '/baas/debit-cards/card_maya_virtual/unlock answers PUT, not POST.' })
  const customer = await call('DELETE', '/baas/customers/')
  t.equal(customer.status, 405)
  t.same(String(customer.headers.allow).split(', ').sort(), ['GET', 'PUT'], 'trailing slash ignored, both customer operations named')
  t.equal((await call('GET', '/v2/transfers/sxfer_1')).headers.allow, 'DELETE', 'moved routes count')
  t.same(String((await call('PATCH', '/__mock/faults')).headers.allow).split(', ').sort(), ['DELETE', 'GET', 'POST'], 'control routes too')
  const unknown = await call('GET', '/baas/nothing-here')
  t.equal(unknown.status, 404)
  t.equal(unknown.headers.allow, undefined)
  t.equal(unknown.body.code, 'route_not_found')
  const state = (await call('GET', '/baas/customers', { token: TOKENS.maya })).body
  t.equal(state.id, 'cus_maya', 'nothing changed')
  t.match((await call('GET', '/__mock/requests?status=405')).body.data, [{ method: 'GET', path: '/v2/transfers/sxfer_1', operationId: null }], 'journaled like a 404')
})

t.test('an action without a body may move to GET; one with a body may not, and the message says why', async t => {
  const { call, app } = await buildTestApp(t, { routes: { API_BAAS_CUSTOMER_CARD_LOCK: 'GET /v2/cards/{cardId}/lock' } })
  const locked = await call('GET', '/v2/cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal(locked.status, 200)
  t.equal(locked.body.status, 'LOCKED')
  t.equal((await call('GET', '/baas/debit-cards/card_maya_virtual/lock')).status, 404, 'the default path is gone')
  await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  const head = await app.inject({ method: 'HEAD', url: '/v2/cards/card_maya_virtual/lock', headers: { authorization: `Bearer ${TOKENS.maya}` } })
  t.equal(head.statusCode, 405, 'no HEAD for a write: a link checker must not lock cards')
  t.equal((await call('GET', '/__mock/state')).body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'HEAD changed nothing')
  const operation = (await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths['/v2/cards/{cardId}/lock'].get
  t.equal(operation.operationId, 'lockCard')
  t.notOk('requestBody' in operation, 'the contract shows no body for it')
  await t.rejects(buildTestApp(t, { routes: { API_PHONE_VERIFICATION_VERIFY_CODE: 'GET /v2/otp/verify' } }), {
    message: 'API_PHONE_VERIFICATION_VERIFY_CODE=GET /v2/otp/verify: verifyPhoneVerificationCode takes a JSON body, which a GET request cannot carry; use POST, PUT, PATCH or DELETE.'
  })
})
