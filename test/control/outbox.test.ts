import t from 'tap'
import { DEFAULT_SETTINGS } from '../../src/domain/context.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

t.test('the latest MFA code for a phone is one call away, and it verifies', async t => {
  const { call } = await buildTestApp(t)
  const none = await call('GET', '/__mock/outbox/latest-code?phone=%2B12125550187')
  t.equal(none.status, 404)
  t.equal(none.body.code, 'no_code_sent')
  const sent = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: {} })
  t.equal(sent.status, 202)
  const latest = await call('GET', '/__mock/outbox/latest-code?phone=%2B12125550187')
  t.equal(latest.status, 200)
  t.match(latest.body, { code: /^\d{6}$/, verificationId: sent.body.verificationId, to: '+12125550187', channel: 'sms', sentAt: '2026-11-23T15:00:00.000Z' })
  const plus = await call('GET', '/__mock/outbox/latest-code?phone=+12125550187')
  t.equal(plus.body.code, latest.body.code, 'an unencoded + (decoded as a space) still finds the number')
  t.equal((await call('GET', '/__mock/outbox/latest-code')).body.code, latest.body.code, 'no phone: the newest code to anyone')
  const verified = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code: latest.body.code } })
  t.equal(verified.status, 200)
  t.equal((await call('GET', '/__mock/outbox/latest-code?phone=%2B14155550123')).status, 404, 'nothing was sent to another number')
})

t.test('--fixed-code makes the code known in advance', async t => {
  const { call } = await buildTestApp(t, { settings: { ...DEFAULT_SETTINGS, verification: { ...DEFAULT_SETTINGS.verification, fixedCode: '123456' } } })
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: {} })
  t.equal((await call('GET', '/__mock/outbox/latest-code')).body.code, '123456')
})

t.test('GET /__mock/outbox filters by channel and recipient; DELETE empties it', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: {} })
  await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { token: TOKENS.maya, body: {} })
  const all = await call('GET', '/__mock/outbox')
  t.equal(all.status, 200)
  t.same(all.body.data.map((m: { channel: string }) => m.channel), ['email', 'sms'], 'newest first')
  const email = all.body.data[0]
  t.match(email, { to: 'maya.chen@example.com', kind: 'sendStatementByEmail', customerId: 'cus_maya', data: { statementId: 'stmt_maya_2026_10' } })
  t.same((await call('GET', '/__mock/outbox?channel=sms')).body.data.map((m: { to: string }) => m.to), ['+12125550187'])
  t.equal((await call('GET', '/__mock/outbox?to=%2B12125550187')).body.data.length, 1)
  t.equal((await call('GET', '/__mock/outbox?to=maya.chen@example.com&kind=sendStatementByEmail')).body.data.length, 1)
  t.equal((await call('GET', '/__mock/outbox?customerId=cus_jordan&order=asc&limit=5')).body.data.length, 1)
  t.equal((await call('GET', '/__mock/outbox?channel=fax')).status, 400)
  t.same((await call('GET', '/__mock/outbox', { session: 'elsewhere' })).body.data, [], 'per session')
  t.equal((await call('DELETE', '/__mock/outbox')).status, 204)
  t.same((await call('GET', '/__mock/outbox')).body.data, [])
})
