import t from 'tap'
import { OPERATIONS, mayCreateDueWork, type Operation } from '../../src/core/operations.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'

/**
 * A write flagged createsNoDueWork is not followed by the daily processors (shipments, transfer
 * runs) until the next day or the next other write. That is only right if, after it, those
 * processors would have nothing to do: each flagged operation is run here, and then a full settle
 * is forced, which must change nothing.
 */
type Step = (call: TestApp['call']) => Promise<{ status: number }>

const STEPS: Record<string, Step> = {
  lockCard: async call => await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya }),
  unlockCard: async call => {
    await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
    return await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  },
  createSetPinUrl: async call => await call('POST', '/baas/debit-cards/card_maya_virtual/set-pin-url', { token: TOKENS.maya }),
  sendStatementByEmail: async call => await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { token: TOKENS.maya }),
  sendPhoneVerificationCode: async call => await call('POST', '/mfa/send-code', { token: TOKENS.maya }),
  verifyPhoneVerificationCode: async call => {
    await call('POST', '/mfa/send-code', { token: TOKENS.maya })
    const latest = await call('GET', '/__mock/outbox/latest-code')
    return await call('POST', '/mfa/verify', { token: TOKENS.maya, body: { code: latest.body.code } })
  }
}

const flagged: Operation[] = OPERATIONS.filter(op => op.method !== 'GET' && !mayCreateDueWork(op))

t.test('the flag is on writes only, and every flagged write is exercised below', async t => {
  t.same(flagged.map(op => op.id).sort(), Object.keys(STEPS).sort())
  t.notOk(OPERATIONS.some(op => op.method === 'GET' && mayCreateDueWork(op)), 'a read never creates due work')
  t.ok(OPERATIONS.some(op => mayCreateDueWork(op)), 'other writes are still followed by the daily processors')
})

for (const op of flagged) {
  t.test(`${op.id} leaves the daily processors nothing to do`, async t => {
    const { call } = await buildTestApp(t)
    const step = STEPS[op.id]
    if (step === undefined) return t.fail(`no step for ${op.id}`)
    const done = await step(call)
    t.equal(done.status, op.success.status, `${op.id} succeeded`)
    const before = (await call('GET', '/__mock/state')).body
    // A control-plane write: the settle it causes runs every processor.
    const advanced = await call('POST', '/__mock/clock/advance', { body: { by: 'PT0S' } })
    t.same(advanced.body.fired, [], 'nothing fell due')
    t.same((await call('GET', '/__mock/state')).body, before, 'and the state is as the operation left it')
  })
}
