import t from 'tap'
import { DEFAULT_SETTINGS, type VerificationSettings } from '../../src/domain/context.js'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'

const JORDAN_PHONE = '+12125550187'
const at = (seconds: number) => new Date(TEST_NOW.getTime() + seconds * 1000).toISOString()

interface OutboxMessage { channel: string; to: string; body: string; kind: string; data: { code?: string; verificationId?: string }; customerId: string }

async function appWith (t: Parameters<typeof buildTestApp>[0], verification: Partial<VerificationSettings> = {}): Promise<TestApp> {
  return await buildTestApp(t, { settings: { ...DEFAULT_SETTINGS, verification: { ...DEFAULT_SETTINGS.verification, ...verification } } })
}

async function state (call: TestApp['call']): Promise<{ outbox: OutboxMessage[]; phoneVerifications: unknown[]; customers: { id: string; phoneVerified: boolean; updatedAt: string }[] }> {
  return (await call('GET', '/__mock/state')).body
}

/** "The latest MFA code for a phone is one call away": the newest outbox message to it carries the code. */
async function latestCode (call: TestApp['call'], phone: string): Promise<string> {
  const message = (await state(call)).outbox.filter(m => m.to === phone && m.kind === 'sendPhoneVerificationCode').at(-1)
  if (message?.data.code === undefined) throw new Error(`no code was sent to ${phone}`)
  return message.data.code
}

const wrongCodeFor = (code: string) => code === '000000' ? '111111' : '000000'

t.test('send → read the code from the outbox → verify: 200 and the phone is verified', async t => {
  const { call } = await buildTestApp(t)
  const sent = await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  t.equal(sent.status, 202)
  t.match(sent.body, { verificationId: /^ver_/, to: '+1********87', channel: 'SMS', expiresAt: at(600), resendAvailableAt: at(30), attemptsRemaining: 5 })

  const [message] = (await state(call)).outbox
  t.match(message, { channel: 'sms', to: JORDAN_PHONE, kind: 'sendPhoneVerificationCode', customerId: 'cus_jordan', data: { verificationId: sent.body.verificationId } })
  const code = await latestCode(call, JORDAN_PHONE)
  t.match(code, /^\d{6}$/)
  t.equal(message?.body, `Your baas-mock verification code is ${code}. It expires in 10 minutes.`)

  const verified = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(verified.status, 200)
  t.same(verified.body, { status: 'APPROVED', phone: '+1********87', verifiedAt: at(0) })
  const customer = (await call('GET', '/baas/customers', { token: TOKENS.jordan })).body
  t.equal(customer.phoneVerified, true)
  t.equal(customer.updatedAt, at(0))
  t.same((await state(call)).phoneVerifications, [], 'the verification is gone')

  const again = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(again.status, 404)
  t.equal(again.body.code, 'verification_not_found')
})

t.test('wrong codes: attemptsRemaining 4,3,2,1,0, then 429 max_attempts, then 404', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  const code = await latestCode(call, JORDAN_PHONE)
  const remaining: number[] = []
  for (let i = 0; i < 5; i++) {
    const res = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code: wrongCodeFor(code) } })
    t.equal(res.status, 422)
    t.equal(res.body.code, 'invalid_code')
    t.same(res.body.errors, [{ pointer: '/code', message: 'does not match the code sent' }])
    remaining.push(res.body.attemptsRemaining)
  }
  t.same(remaining, [4, 3, 2, 1, 0])
  const sixth = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(sixth.status, 429)
  t.equal(sixth.body.code, 'max_attempts')
  t.ok(Number(sixth.headers['retry-after']) >= 1, 'a 429 carries Retry-After')
  const seventh = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(seventh.status, 404)
  t.equal(seventh.body.code, 'verification_not_found')
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.jordan })).body.phoneVerified, false)
})

t.test('a resend within 30 s is 429 resend_too_soon with Retry-After, and sends nothing', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  const res = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: { channel: 'CALL' } })
  t.equal(res.status, 429)
  t.equal(res.body.code, 'resend_too_soon')
  t.equal(res.body.retryAfterSeconds, 30)
  t.equal(res.headers['retry-after'], '30')
  t.equal((await state(call)).outbox.length, 1)
})

t.test('resends re-send the same code and verification; the 6th send in the window is 429 too_many_sends', async t => {
  // No cool-down, so the window limit can be reached without moving the clock.
  const { call } = await appWith(t, { resendCooldownSeconds: 0 })
  const ids = new Set<string>()
  for (let i = 0; i < 5; i++) {
    const res = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: { channel: i % 2 === 0 ? 'SMS' : 'CALL' } })
    t.equal(res.status, 202)
    ids.add(res.body.verificationId)
  }
  t.equal(ids.size, 1, 'one verification')
  const { outbox } = await state(call)
  t.same(outbox.map(m => m.channel), ['sms', 'call', 'sms', 'call', 'sms'])
  t.equal(new Set(outbox.map(m => m.data.code)).size, 1, 'the same code every time')

  const sixth = await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  t.equal(sixth.status, 429)
  t.equal(sixth.body.code, 'too_many_sends')
  t.equal(sixth.body.retryAfterSeconds, 600)
  t.equal(sixth.headers['retry-after'], '600')
  t.equal((await state(call)).outbox.length, 5)
  const other = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: { phone: '+12125550100' } })
  t.equal(other.status, 202, 'the limit is per number')
})

t.test('the fixedCode setting makes every code known in advance', async t => {
  const { call } = await appWith(t, { fixedCode: '123456' })
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  t.equal(await latestCode(call, JORDAN_PHONE), '123456')
  const res = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code: '123456' } })
  t.equal(res.status, 200)
})

t.test('an expired code is 410, then 404', async t => {
  // A zero validity expires the code at once: the clock cannot be moved through the API here.
  const { call } = await appWith(t, { ttlSeconds: 0 })
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  const code = await latestCode(call, JORDAN_PHONE)
  const expired = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(expired.status, 410)
  t.equal(expired.body.code, 'verification_expired')
  t.equal(expired.body.expiresAt, at(0))
  const gone = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(gone.status, 404)
})

t.test('on the session clock: a resend after the cool-down repeats the code; expiry fires, then 410, then 404', async t => {
  const { call } = await buildTestApp(t)
  const first = await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  const code = await latestCode(call, JORDAN_PHONE)
  await call('POST', '/__mock/clock/advance', { body: { by: 'PT30S' } })
  const resent = await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  t.equal(resent.status, 202)
  t.equal(resent.body.verificationId, first.body.verificationId)
  t.equal(resent.body.expiresAt, first.body.expiresAt)
  t.equal(resent.body.resendAvailableAt, at(60))
  t.equal(await latestCode(call, JORDAN_PHONE), code)
  t.equal((await state(call)).outbox.length, 2)

  const advanced = await call('POST', '/__mock/clock/advance', { body: { by: 'PT10M' } })
  t.match(advanced.body.fired, [{ at: at(600), kind: 'phone_verification.expired', entityId: first.body.verificationId }])
  const expired = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })
  t.equal(expired.status, 410)
  t.equal(expired.body.code, 'verification_expired')
  t.equal((await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code } })).status, 404)
})

t.test('a chosen number and the CALL channel', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: { phone: '+447700900123', channel: 'CALL' } })
  t.equal(res.status, 202)
  t.equal(res.body.to, '+4*********23')
  t.equal(res.body.channel, 'CALL')
  t.match((await state(call)).outbox[0], { channel: 'call', to: '+447700900123' })
  const code = await latestCode(call, '+447700900123')
  const verified = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code, phone: '+447700900123' } })
  t.equal(verified.status, 200)
  t.equal(verified.body.phone, '+4*********23')
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.jordan })).body.phoneVerified, false, 'not the number on file')
})

t.test('no pending verification is 404', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/mfa/verify', { token: TOKENS.maya, body: { code: '123456' } })
  t.equal(res.status, 404)
  t.equal(res.body.code, 'verification_not_found')
})

t.test('a FROZEN customer cannot start or check a verification (409)', async t => {
  const { call } = await buildTestApp(t)
  const send = await call('POST', '/mfa/send-code', { token: TOKENS.riley })
  t.equal(send.status, 409)
  t.equal(send.body.code, 'customer_not_writable')
  const verify = await call('POST', '/mfa/verify', { token: TOKENS.riley, body: { code: '123456' } })
  t.equal(verify.status, 409)
  const after = await state(call)
  t.same(after.outbox, [])
  t.same(after.phoneVerifications, [])
})

t.test('invalid send bodies are 400 naming the field, and send nothing', async t => {
  const { call } = await buildTestApp(t)
  const cases: [unknown, string][] = [
    [{ phone: '2125550187' }, '/phone'],
    [{ phone: '+0125550187' }, '/phone'],
    [{ channel: 'EMAIL' }, '/channel'],
    [{ channel: 'sms' }, '/channel'],
    [{ phone: JORDAN_PHONE, email: 'j@example.com' }, '/email']
  ]
  for (const [body, pointer] of cases) {
    const res = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body })
    t.equal(res.status, 400, JSON.stringify(body))
    t.equal(res.body.code, 'validation_failed')
    t.same(res.body.errors.map((e: { pointer: string }) => e.pointer), [pointer])
  }
  const after = await state(call)
  t.same(after.outbox, [])
  t.same(after.phoneVerifications, [])
  const ok = await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  t.equal(ok.status, 202, 'refused requests did not start the cool-down')
})

t.test('invalid verify bodies are 400 and use up no attempt', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  const code = await latestCode(call, JORDAN_PHONE)
  const cases: [unknown, string[]][] = [
    [{ code: '12ab56' }, ['/code']],
    [{ code: '123' }, ['/code']],
    [{ code: 123456 }, ['/code']],
    [{}, ['/code']],
    [{ code, phone: 'tel:2125550187' }, ['/phone']],
    [{ code, verificationId: 'ver_x' }, ['/verificationId']]
  ]
  for (const [body, pointers] of cases) {
    const res = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body })
    t.equal(res.status, 400, JSON.stringify(body))
    t.same(res.body.errors.map((e: { pointer: string }) => e.pointer), pointers)
  }
  const wrong = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code: wrongCodeFor(code) } })
  t.equal(wrong.body.attemptsRemaining, 4, 'the 400s did not count as checks')
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.jordan })).body.phoneVerified, false)
})

t.test('codes never reach the problem details', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/mfa/send-code', { token: TOKENS.jordan })
  const code = await latestCode(call, JORDAN_PHONE)
  const wrong = await call('POST', '/mfa/verify', { token: TOKENS.jordan, body: { code: wrongCodeFor(code) } })
  t.notMatch(wrong.text, code)
})

t.test('a channel in the wrong letter case is 400 naming the value meant, and sends nothing', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: { channel: 'sms' } })
  t.equal(res.status, 400)
  t.same(res.body.errors, [{ pointer: '/channel', message: 'must be one of "SMS", "CALL"; did you mean "SMS"?' }], 'a short list stays')
  t.equal(res.body.detail, 'The request body is invalid: /channel must be one of "SMS", "CALL"; did you mean "SMS"?')
  t.same((await call('GET', '/__mock/outbox')).body.data, [])
})
