import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { DEFAULT_SETTINGS, type VerificationSettings } from '../../src/domain/context.js'
import { DomainError } from '../../src/domain/errors.js'
import { EXPIRED_GRACE_SECONDS, sendVerificationCode, verificationDueProcessors, verifyCode } from '../../src/domain/phone-verification.js'
import { runProcessors } from '../../src/domain/timeline.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { World } from '../../src/world/world.js'
import { TEST_NOW } from '../helpers/app.js'

const scenario = loadScenarios(BUNDLED_FIXTURES).get('default')
if (scenario === undefined) throw new Error('the bundled default scenario is missing')

const JORDAN = 'cus_jordan'
const JORDAN_PHONE = '+12125550187'

function makeWorld (verification: Partial<VerificationSettings> = {}) {
  const world = new World(scenario!.fixtures, {
    scenario: 'default', now: TEST_NOW, seed: 7, sessionId: 'domain-test', outboxCap: 100,
    settings: { ...DEFAULT_SETTINGS, verification: { ...DEFAULT_SETTINGS.verification, ...verification } }
  })
  const { ctx } = world
  /** Moves the clock forward and applies what came due for this module (as runDue does before each request). */
  const advance = (seconds: number) => {
    world.clock.advanceTo(new Date(world.clock.nowMs() + seconds * 1000))
    return runProcessors(ctx, world.clock.now(), verificationDueProcessors)
  }
  const lastMessage = () => world.outbox.list().at(-1)
  const lastCode = () => String(lastMessage()?.data.code)
  const at = (seconds: number) => new Date(TEST_NOW.getTime() + seconds * 1000).toISOString()
  return { world, ctx, advance, lastMessage, lastCode, at }
}

/** Runs fn and returns the DomainError it throws (fails the test when it does not throw one). */
function domainError (t: { fail: (message: string) => unknown }, fn: () => unknown): DomainError {
  try {
    fn()
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
  t.fail('expected a DomainError')
  throw new Error('unreachable')
}

const wrongCodeFor = (code: string) => code === '000000' ? '111111' : '000000'

t.test('send: a 6-digit code to the phone on file, in the outbox with its code', async t => {
  const { world, ctx, lastMessage, at } = makeWorld()
  const result = sendVerificationCode(ctx, JORDAN)
  t.match(result, {
    verificationId: /^ver_/,
    to: '+1********87',
    channel: 'SMS',
    expiresAt: at(600),
    resendAvailableAt: at(30),
    attemptsRemaining: 5
  })
  const message = lastMessage()
  t.match(message, { channel: 'sms', to: JORDAN_PHONE, kind: 'sendPhoneVerificationCode', customerId: JORDAN, sentAt: at(0) })
  const code = String(message?.data.code)
  t.match(code, /^\d{6}$/)
  t.equal(message?.data.verificationId, result.verificationId)
  t.equal(message?.body, `Your baas-mock verification code is ${code}. It expires in 10 minutes.`)
  t.equal(world.ctx.state.phoneVerifications.get(result.verificationId)?.code, code)
})

t.test('verify: the right code approves, marks the phone on file verified, and the verification is gone', async t => {
  const { ctx, advance, lastCode, at } = makeWorld()
  sendVerificationCode(ctx, JORDAN)
  advance(42)
  const result = verifyCode(ctx, JORDAN, { code: lastCode() })
  t.same(result, { status: 'APPROVED', phone: '+1********87', verifiedAt: at(42) })
  t.match(ctx.state.customers.get(JORDAN), { phoneVerified: true, updatedAt: at(42) })
  t.equal(ctx.state.phoneVerifications.size, 0)
  t.equal(domainError(t, () => verifyCode(ctx, JORDAN, { code: lastCode() })).code, 'verification_not_found')
})

t.test('verify: wrong codes count down, then max_attempts removes the verification', async t => {
  const { ctx, lastCode } = makeWorld()
  sendVerificationCode(ctx, JORDAN)
  const code = lastCode()
  const remaining: unknown[] = []
  for (let i = 0; i < 5; i++) {
    const error = domainError(t, () => verifyCode(ctx, JORDAN, { code: wrongCodeFor(code) }))
    t.equal(error.code, 'invalid_code')
    t.same(error.errors, [{ pointer: '/code', message: 'does not match the code sent' }])
    t.notMatch(error.message, code, 'the code never appears in a message')
    remaining.push(error.extensions?.attemptsRemaining)
  }
  t.same(remaining, [4, 3, 2, 1, 0])
  const exhausted = domainError(t, () => verifyCode(ctx, JORDAN, { code }))
  t.equal(exhausted.code, 'max_attempts', 'even the right code is refused after the last check')
  t.ok(exhausted.retryAfterSeconds !== undefined)
  t.equal(domainError(t, () => verifyCode(ctx, JORDAN, { code })).code, 'verification_not_found')
  t.equal(ctx.state.customers.get(JORDAN)?.phoneVerified, false)
})

t.test('resend: 429 within the cool-down, then the same code, id and expiry (channel may change)', async t => {
  const { world, ctx, advance, lastMessage, lastCode, at } = makeWorld()
  const first = sendVerificationCode(ctx, JORDAN)
  const code = lastCode()
  const immediately = domainError(t, () => sendVerificationCode(ctx, JORDAN))
  t.equal(immediately.code, 'resend_too_soon')
  t.equal(immediately.retryAfterSeconds, 30)
  t.same(immediately.extensions, { retryAfterSeconds: 30 })
  advance(12)
  t.equal(domainError(t, () => sendVerificationCode(ctx, JORDAN)).retryAfterSeconds, 18, 'seconds left, not the whole cool-down')
  t.equal(world.outbox.list().length, 1, 'refused sends send nothing')

  advance(18)
  const resent = sendVerificationCode(ctx, JORDAN, { channel: 'CALL' })
  t.equal(resent.verificationId, first.verificationId)
  t.equal(resent.expiresAt, first.expiresAt)
  t.equal(resent.channel, 'CALL')
  t.equal(resent.resendAvailableAt, at(60))
  t.match(lastMessage(), { channel: 'call', to: JORDAN_PHONE, sentAt: at(30) })
  t.equal(lastCode(), code, 'Twilio behaviour: the same code again')
  t.match(lastMessage()?.body, /expires in 9 minutes\.$/, 'the message states the validity left')
  t.equal(ctx.state.phoneVerifications.size, 1)
})

t.test('a resend keeps the checks already used', async t => {
  const { ctx, advance, lastCode } = makeWorld()
  sendVerificationCode(ctx, JORDAN)
  domainError(t, () => verifyCode(ctx, JORDAN, { code: wrongCodeFor(lastCode()) }))
  advance(30)
  t.equal(sendVerificationCode(ctx, JORDAN).attemptsRemaining, 4)
})

t.test('at most 5 sends per number per 10 minutes', async t => {
  const { ctx, advance, at } = makeWorld()
  for (let i = 0; i < 5; i++) {
    sendVerificationCode(ctx, JORDAN)
    advance(30)
  }
  // Sends at 0, 30, 60, 90, 120 s; now 150 s: the first leaves the window at 600 s.
  const sixth = domainError(t, () => sendVerificationCode(ctx, JORDAN))
  t.equal(sixth.code, 'too_many_sends')
  t.equal(sixth.retryAfterSeconds, 450)
  t.same(sixth.extensions, { retryAfterSeconds: 450 })
  advance(449)
  t.equal(domainError(t, () => sendVerificationCode(ctx, JORDAN)).retryAfterSeconds, 1)
  advance(1)
  const later = sendVerificationCode(ctx, JORDAN)
  t.equal(later.expiresAt, at(1200), 'the first code expired at 600 s: a new verification')
})

t.test('the send limits are per number, across customers; verifications are per customer', async t => {
  const { ctx, advance, lastCode } = makeWorld()
  const jordan = sendVerificationCode(ctx, JORDAN)
  const jordanCode = lastCode()
  t.equal(domainError(t, () => sendVerificationCode(ctx, 'cus_maya', { phone: JORDAN_PHONE })).code, 'resend_too_soon')
  t.equal(domainError(t, () => verifyCode(ctx, 'cus_maya', { code: jordanCode, phone: JORDAN_PHONE })).code, 'verification_not_found',
    'Maya cannot approve Jordan\'s verification')
  const maya = sendVerificationCode(ctx, 'cus_maya')
  t.equal(maya.to, '+1********23', 'another number is not limited')
  advance(30)
  const mayaForJordanPhone = sendVerificationCode(ctx, 'cus_maya', { phone: JORDAN_PHONE })
  t.not(mayaForJordanPhone.verificationId, jordan.verificationId)
  t.equal(ctx.state.phoneVerifications.size, 3)
})

t.test('expiry: reported once on the timeline, 410 on the next check, then 404', async t => {
  const { ctx, advance, lastCode, at } = makeWorld()
  const sent = sendVerificationCode(ctx, JORDAN)
  const code = lastCode()
  t.same(advance(599), [], 'nothing due before the expiry')
  const events = advance(1)
  t.same(events, [{
    type: 'phone_verification.expired', at: at(600), entityId: sent.verificationId,
    data: { ...sent, attemptsRemaining: 5 },
    detail: 'The verification code sent to +1********87 expired unused.'
  }], 'the verification as send-code answered it, masked')
  t.same(advance(60), [], 'reported once')
  t.equal(ctx.state.phoneVerifications.get(sent.verificationId)?.expiredAt, at(600), 'kept so the check can say 410')
  const expired = domainError(t, () => verifyCode(ctx, JORDAN, { code }))
  t.equal(expired.code, 'verification_expired')
  t.same(expired.extensions, { expiresAt: at(600) })
  t.equal(domainError(t, () => verifyCode(ctx, JORDAN, { code })).code, 'verification_not_found')
  t.equal(ctx.state.customers.get(JORDAN)?.phoneVerified, false)
})

t.test('a check exactly at expiresAt is too late; one second before is fine', async t => {
  const { ctx, advance, lastCode } = makeWorld()
  sendVerificationCode(ctx, JORDAN)
  advance(599)
  t.equal(verifyCode(ctx, JORDAN, { code: lastCode() }).status, 'APPROVED')
  advance(30)
  sendVerificationCode(ctx, JORDAN)
  advance(600)
  t.equal(domainError(t, () => verifyCode(ctx, JORDAN, { code: lastCode() })).code, 'verification_expired')
})

t.test('a send after expiry starts a new verification with a new code', async t => {
  const { ctx, advance, lastCode } = makeWorld()
  const first = sendVerificationCode(ctx, JORDAN)
  const firstCode = lastCode()
  advance(600)
  const second = sendVerificationCode(ctx, JORDAN)
  t.not(second.verificationId, first.verificationId)
  t.not(lastCode(), firstCode, 'seeded ids: a fresh code')
  t.equal(second.attemptsRemaining, 5)
  t.equal(ctx.state.phoneVerifications.size, 1, 'the expired record is replaced')
  t.equal(verifyCode(ctx, JORDAN, { code: lastCode() }).status, 'APPROVED')
})

t.test('a send after max attempts starts a new verification', async t => {
  const { ctx, advance, lastCode } = makeWorld({ maxChecks: 2 })
  const first = sendVerificationCode(ctx, JORDAN)
  for (let i = 0; i < 2; i++) domainError(t, () => verifyCode(ctx, JORDAN, { code: wrongCodeFor(lastCode()) }))
  advance(30)
  const second = sendVerificationCode(ctx, JORDAN)
  t.not(second.verificationId, first.verificationId)
  t.equal(second.attemptsRemaining, 2)
})

t.test('expired verifications are purged after the grace period; old sends are forgotten', async t => {
  const { ctx, advance, lastCode } = makeWorld()
  sendVerificationCode(ctx, JORDAN)
  advance(30)
  sendVerificationCode(ctx, 'cus_maya')
  advance(30)
  sendVerificationCode(ctx, JORDAN) // Jordan's number is now the most recent in the send log
  const code = lastCode()
  t.same([...ctx.state.phoneSendLog.keys()], ['+14155550123', JORDAN_PHONE])
  advance(570)
  t.same([...ctx.state.phoneSendLog.keys()], [JORDAN_PHONE], 'Maya\'s number left the window')
  advance(30)
  t.equal(ctx.state.phoneSendLog.size, 0)
  t.equal(ctx.state.phoneVerifications.size, 2, 'expired, still kept')
  const events = advance(EXPIRED_GRACE_SECONDS)
  t.same(events, [], 'expiries were reported when they happened, not again at purge')
  t.equal(ctx.state.phoneVerifications.size, 0)
  t.equal(domainError(t, () => verifyCode(ctx, JORDAN, { code })).code, 'verification_not_found')
})

t.test('one big clock jump reports and purges in one go', async t => {
  const { ctx, advance } = makeWorld()
  const sent = sendVerificationCode(ctx, JORDAN)
  const events = advance(600 + EXPIRED_GRACE_SECONDS)
  t.same(events.map(e => [e.type, e.entityId]), [['phone_verification.expired', sent.verificationId]])
  t.equal(ctx.state.phoneVerifications.size, 0)
})

t.test('settings: fixedCode, codeLength, ttl', async t => {
  const fixed = makeWorld({ fixedCode: '123456' })
  sendVerificationCode(fixed.ctx, JORDAN)
  t.equal(fixed.lastCode(), '123456')
  t.equal(verifyCode(fixed.ctx, JORDAN, { code: '123456' }).status, 'APPROVED')

  const long = makeWorld({ codeLength: 8, ttlSeconds: 90 })
  const sent = sendVerificationCode(long.ctx, JORDAN)
  t.match(long.lastCode(), /^\d{8}$/)
  t.equal(sent.expiresAt, long.at(90))
  t.match(long.lastMessage()?.body, /expires in 1 minute\.$/)
})

t.test('a FROZEN customer can neither start nor check a verification', async t => {
  const { world, ctx } = makeWorld()
  const send = domainError(t, () => sendVerificationCode(ctx, 'cus_riley'))
  t.equal(send.code, 'customer_not_writable')
  t.equal(domainError(t, () => verifyCode(ctx, 'cus_riley', { code: '123456' })).code, 'customer_not_writable')
  t.equal(world.outbox.list().length, 0)
  t.equal(ctx.state.phoneVerifications.size, 0)
  t.equal(ctx.state.phoneSendLog.size, 0)
})

t.test('verifying another number approves it but leaves the number on file unverified', async t => {
  const { ctx, lastCode, lastMessage } = makeWorld()
  const before = ctx.state.customers.get(JORDAN)
  const sent = sendVerificationCode(ctx, JORDAN, { phone: '+447700900123' })
  t.equal(sent.to, '+4*********23')
  t.equal(lastMessage()?.to, '+447700900123')
  t.equal(domainError(t, () => verifyCode(ctx, JORDAN, { code: lastCode() })).code, 'verification_not_found', 'the default is the number on file')
  t.same(verifyCode(ctx, JORDAN, { code: lastCode(), phone: '+447700900123' }).phone, '+4*********23')
  t.same(ctx.state.customers.get(JORDAN), before, 'customer untouched')
})

t.test('approving an already verified number does not touch the customer', async t => {
  const { ctx, lastCode } = makeWorld()
  const before = ctx.state.customers.get('cus_maya')
  sendVerificationCode(ctx, 'cus_maya')
  verifyCode(ctx, 'cus_maya', { code: lastCode() })
  t.equal(ctx.state.customers.get('cus_maya'), before)
})
