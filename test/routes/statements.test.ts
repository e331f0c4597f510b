import t from 'tap'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'

const sendPath = (statementId: string) => `/baas/statements/${statementId}/send-by-email`

async function outbox (call: TestApp['call']): Promise<{ channel: string; to: string; subject?: string; body: string; kind: string; data: Record<string, unknown>; customerId: string }[]> {
  return (await call('GET', '/__mock/state')).body.outbox
}

t.test('POST send-by-email: 202, the address on file masked, and the e-mail in the outbox', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', sendPath('stmt_maya_2026_10'), { token: TOKENS.maya })
  t.equal(res.status, 202)
  t.same(res.body, { statementId: 'stmt_maya_2026_10', status: 'QUEUED', sentTo: 'm********@example.com', requestedAt: TEST_NOW.toISOString() })
  const messages = await outbox(call)
  t.equal(messages.length, 1)
  t.match(messages[0], {
    channel: 'email',
    to: 'maya.chen@example.com',
    subject: 'Your October 2026 statement is ready',
    kind: 'sendStatementByEmail',
    data: { statementId: 'stmt_maya_2026_10', periodStart: '2026-10-01', periodEnd: '2026-10-31' },
    customerId: 'cus_maya'
  })
  t.match(messages[0]?.body, 'Closing balance: $7,415.19')
})

t.test('an empty JSON object is accepted as the body too', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', sendPath('stmt_maya_2026_08'), { token: TOKENS.maya, body: {} })
  t.equal(res.status, 202)
  t.equal((await outbox(call))[0]?.subject, 'Your August 2026 statement is ready')
})

t.test('the e-mail goes to the address on file, as it is now', async t => {
  const { call } = await buildTestApp(t)
  const customer = (await call('GET', '/baas/customers', { token: TOKENS.maya })).body
  await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'maya@new.example', phone: customer.phone, address: customer.address } })
  const res = await call('POST', sendPath('stmt_maya_2026_09'), { token: TOKENS.maya })
  t.equal(res.body.sentTo, 'm***@new.example')
  t.equal((await outbox(call))[0]?.to, 'maya@new.example')
})

t.test('no arbitrary recipient: any body field is a 400 and nothing is sent', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', sendPath('stmt_maya_2026_10'), { token: TOKENS.maya, body: { to: 'someone@elsewhere.example' } })
  t.equal(res.status, 400)
  t.equal(res.body.code, 'validation_failed')
  t.same(res.body.errors, [{ pointer: '/to', message: 'is not a known field' }])
  t.same(await outbox(call), [])
})

t.test('another customer\'s statement is 404, exactly like an unknown one', async t => {
  const { call } = await buildTestApp(t)
  const samsWithMayasToken = await call('POST', sendPath('stmt_sam_2026_10'), { token: TOKENS.maya })
  t.equal(samsWithMayasToken.status, 404)
  t.equal(samsWithMayasToken.body.code, 'statement_not_found')
  const unknown = await call('POST', sendPath('stmt_does_not_exist'), { token: TOKENS.maya })
  t.equal(unknown.status, 404)
  t.equal(unknown.body.code, 'statement_not_found')
  t.same(await outbox(call), [], 'nothing sent')
  const own = await call('POST', sendPath('stmt_sam_2026_10'), { token: TOKENS.sam })
  t.equal(own.status, 202)
  t.equal(own.body.sentTo, 's*********@example.com')
})

t.test('a malformed statement id is a 400 naming the parameter', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', sendPath('stmt%20maya'), { token: TOKENS.maya })
  t.equal(res.status, 400)
  t.equal(res.body.code, 'validation_failed')
  t.same(await outbox(call), [])
})

t.test('a FROZEN customer can still have their statement e-mailed', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', sendPath('stmt_riley_2026_10'), { token: TOKENS.riley })
  t.equal(res.status, 202)
  t.equal((await outbox(call))[0]?.to, 'riley.park@example.com')
})

t.test('sessions keep their outboxes apart', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', sendPath('stmt_maya_2026_10'), { token: TOKENS.maya, session: 'ci-1' })
  t.equal((await call('GET', '/__mock/state', { session: 'ci-1' })).body.outbox.length, 1)
  t.same(await outbox(call), [], 'the default session sent nothing')
})
