import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { DomainError } from '../../src/domain/errors.js'
import { getStatement, sendStatementByEmail } from '../../src/domain/statement.js'
import { describePeriod, formatMoney } from '../../src/domain/statement-email.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { World } from '../../src/world/world.js'
import { TEST_NOW } from '../helpers/app.js'

const scenario = loadScenarios(BUNDLED_FIXTURES).get('default')
if (scenario === undefined) throw new Error('the bundled default scenario is missing')

function makeWorld (): World {
  return new World(scenario!.fixtures, { scenario: 'default', now: TEST_NOW, seed: 7, sessionId: 'domain-test', outboxCap: 100 })
}

function domainErrorCode (fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    if (error instanceof DomainError) return error.code
    throw error
  }
  return 'no error'
}

t.test('send-by-email queues an e-mail to the address on file and answers it masked', async t => {
  const world = makeWorld()
  const ack = sendStatementByEmail(world.ctx, 'cus_maya', 'stmt_maya_2026_10')
  t.same(ack, { statementId: 'stmt_maya_2026_10', status: 'QUEUED', sentTo: 'm********@example.com', requestedAt: TEST_NOW.toISOString() })
  const [message, ...rest] = world.outbox.list()
  t.equal(rest.length, 0)
  t.match(message, {
    channel: 'email',
    to: 'maya.chen@example.com',
    subject: 'Your October 2026 statement is ready',
    kind: 'sendStatementByEmail',
    data: { statementId: 'stmt_maya_2026_10', periodStart: '2026-10-01', periodEnd: '2026-10-31' },
    customerId: 'cus_maya',
    sentAt: TEST_NOW.toISOString()
  })
  t.equal(message?.body, [
    'Hi Maya,',
    '',
    'Your statement for your checking account ending in 6011 is attached.',
    '',
    'Statement period: October 1, 2026 – October 31, 2026',
    // Worked back from today's $4,825.19 through the recorded transfers: October's savings ($500 out)
    // and allowance ($100 in, three times); November's rent ($1,850), savings ($500) and dentist ($240).
    'Opening balance: $7,615.19',
    'Closing balance: $7,415.19',
    'Statement ID: stmt_maya_2026_10',
    '',
    'This message was sent by baas-mock to the e-mail address on file. No real bank was involved.'
  ].join('\n'))
})

t.test('another customer\'s statement and an unknown one are the same 404, and send nothing', async t => {
  const world = makeWorld()
  t.equal(domainErrorCode(() => sendStatementByEmail(world.ctx, 'cus_maya', 'stmt_sam_2026_10')), 'statement_not_found')
  t.equal(domainErrorCode(() => sendStatementByEmail(world.ctx, 'cus_maya', 'stmt_nope')), 'statement_not_found')
  t.equal(domainErrorCode(() => getStatement(world.ctx, 'cus_sam', 'stmt_maya_2026_08')), 'statement_not_found')
  t.equal(getStatement(world.ctx, 'cus_sam', 'stmt_sam_2026_10').closingBalance, 91234)
  t.equal(world.outbox.list().length, 0)
})

t.test('a FROZEN customer may still have a statement e-mailed (it only reads their own data)', async t => {
  const world = makeWorld()
  const ack = sendStatementByEmail(world.ctx, 'cus_riley', 'stmt_riley_2026_10')
  t.equal(ack.sentTo, 'r*********@example.com')
  t.equal(world.outbox.list()[0]?.to, 'riley.park@example.com')
})

t.test('without an e-mail address on file nothing can be sent', async t => {
  const world = makeWorld()
  const maya = world.ctx.state.customers.get('cus_maya')
  if (maya === undefined) throw new Error('fixture missing')
  world.ctx.state.customers.set('cus_maya', { ...maya, email: '' })
  t.equal(domainErrorCode(() => sendStatementByEmail(world.ctx, 'cus_maya', 'stmt_maya_2026_10')), 'no_email_on_file')
  t.equal(world.outbox.list().length, 0)
})

t.test('a statement of an account no longer on file still e-mails', async t => {
  const world = makeWorld()
  world.ctx.state.accounts.delete('acct_maya_checking')
  sendStatementByEmail(world.ctx, 'cus_maya', 'stmt_maya_2026_09')
  const message = world.outbox.list()[0]
  t.equal(message?.subject, 'Your September 2026 statement is ready')
  t.match(message?.body, 'Your statement for your account is attached.')
})

t.test('describePeriod: a calendar month by name, anything else as inclusive dates', async t => {
  t.equal(describePeriod('2026-10-01', '2026-10-31'), 'October 2026')
  t.equal(describePeriod('2026-12-01', '2026-12-31'), 'December 2026')
  t.equal(describePeriod('2028-02-01', '2028-02-29'), 'February 2028')
  t.equal(describePeriod('2027-02-01', '2027-02-28'), 'February 2027')
  t.equal(describePeriod('2026-10-15', '2026-11-14'), 'October 15, 2026 – November 14, 2026')
  t.equal(describePeriod('2026-10-01', '2026-11-30'), 'October 1, 2026 – November 30, 2026')
  t.equal(describePeriod('2026-11-23', '2026-11-30'), 'November 23, 2026 – November 30, 2026', 'a first period from the day the account opened')
  t.equal(describePeriod('2026-10-01', '2026-11-01'), 'October 1, 2026 – November 1, 2026', 'periodEnd is the last day: this one runs into November')
})

t.test('formatMoney: minor units to dollars', async t => {
  t.equal(formatMoney(482519, 'USD'), '$4,825.19')
  t.equal(formatMoney(0, 'USD'), '$0.00')
  t.equal(formatMoney(5, 'USD'), '$0.05')
  t.equal(formatMoney(-1250, 'USD'), '-$12.50')
  t.equal(formatMoney(123456789012, 'USD'), '$1,234,567,890.12')
  t.equal(formatMoney(100000, 'EUR'), '1,000.00 EUR')
})
