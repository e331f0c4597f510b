import t from 'tap'
import { MAX_FIRED_PER_ADVANCE } from '../../src/domain/advance-budget.js'
import { MAX_TRANSFERS_PER_CUSTOMER } from '../../src/domain/scheduled-transfer.js'
import { EXECUTIONS_KEPT } from '../../src/domain/transfer-execution.js'
import { MAX_FIRED_LISTED } from '../../src/control/clock.js'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'

/** Open-ended DAILY transfers of a cent between Maya's own accounts, from tomorrow. */
async function dailyTransfers (call: TestApp['call'], count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const res = await call('POST', '/baas/scheduled-transfers/internal', {
      token: TOKENS.maya,
      body: { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1, frequency: 'DAILY', startDate: '2026-11-24' }
    })
    if (res.status !== 201) throw new Error(`transfer ${i} answered ${res.status}: ${res.text}`)
    ids.push(res.body.id)
  }
  return ids
}

t.test('an advance that would make more runs than one advance may is refused whole, before anything runs', async t => {
  const { call } = await buildTestApp(t)
  // Two open-ended DAILY transfers over ten years: 7,300 runs (the attack used 40, 146,000).
  await dailyTransfers(call, 2)
  const clock = (await call('GET', '/__mock/clock')).body
  const state = (await call('GET', '/__mock/state')).body
  const res = await call('POST', '/__mock/clock/advance', { body: { by: 'P10Y' } })
  t.equal(res.status, 422)
  t.equal(res.body.code, 'advance_too_large')
  t.match(res.body.detail, `at most ${MAX_FIRED_PER_ADVANCE.toLocaleString('en-US')}`, 'the message names the limit')
  t.equal(res.body.maxFiredItems, MAX_FIRED_PER_ADVANCE)
  t.ok(res.body.firedItems > MAX_FIRED_PER_ADVANCE, `and the work it would have made (${res.body.firedItems})`)
  t.same(res.body.errors.map((e: { pointer: string }) => e.pointer), ['/by'])
  t.same((await call('GET', '/__mock/clock')).body, clock, 'the clock did not move')
  t.same((await call('GET', '/__mock/state')).body, state, 'nothing ran')

  const to = await call('POST', '/__mock/clock/advance', { body: { to: '2036-11-01T00:00:00Z' } })
  t.same([to.status, to.body.code, to.body.errors[0].pointer], [422, 'advance_too_large', '/to'])

  // The date it names is as far as one advance goes: there, and no further, is allowed.
  const latest = res.body.latestDate as string
  t.match(res.body.detail, `${latest}T00:00:00Z`)
  const dayAfter = new Date(Date.parse(`${latest}T00:00:00Z`) + 86_400_000).toISOString()
  t.equal((await call('POST', '/__mock/clock/advance', { body: { to: dayAfter } })).body.code, 'advance_too_large', 'a day later is too far')
  const stepped = await call('POST', '/__mock/clock/advance', { body: { to: `${latest}T00:00:00Z` } })
  t.equal(stepped.status, 200)
  t.ok(stepped.body.firedByKind['scheduled_transfer.execution_succeeded'] <= MAX_FIRED_PER_ADVANCE, `${stepped.body.firedByKind['scheduled_transfer.execution_succeeded'] as number} runs`)
})

t.test('a large allowed advance answers its first events and counts by kind, not all of them', async t => {
  const { call } = await buildTestApp(t)
  const ids = await dailyTransfers(call, 2)
  const res = await call('POST', '/__mock/clock/advance', { body: { by: 'P300D' } })
  t.equal(res.status, 200)
  t.equal(res.body.fired.length, MAX_FIRED_LISTED)
  t.equal(res.body.truncated, true)
  const { data } = (await call('GET', '/baas/scheduled-transfers', { token: TOKENS.maya })).body
  const ran = data.filter((x: { id: string }) => ids.includes(x.id)).map((x: { occurrencesCompleted: number }) => x.occurrencesCompleted)
  t.same(ran, [300, 300], 'every run was made: two transfers, 300 days')
  t.ok(res.body.firedByKind['scheduled_transfer.execution_succeeded'] >= 600, 'and counted')
  t.equal(res.body.firedCount, Object.values(res.body.firedByKind as Record<string, number>).reduce((a, b) => a + b, 0))
  const ats = res.body.fired.map((e: { at: string }) => e.at)
  t.same(ats, [...ats].sort(), 'the first ones, in time order')
  t.ok(res.text.length < 200_000, `the answer stays small (${res.text.length} bytes)`)

  const small = await call('POST', '/__mock/clock/advance', { body: { by: 'P1D' } })
  t.equal(small.body.truncated, false, 'a small one lists everything')
  t.equal(small.body.fired.length, small.body.firedCount)
  t.ok(small.body.firedCount >= 2)

  // Each transfer keeps its latest executions; occurrencesCompleted counts them all.
  const transfer = (await call('GET', `/baas/scheduled-transfers/${ids[0] as string}`, { token: TOKENS.maya })).body
  t.equal(transfer.occurrencesCompleted, 301)
  t.equal(transfer.executions.length, EXECUTIONS_KEPT)
  t.equal(transfer.executions.at(-1).scheduledDate, '2027-09-20', 'the latest run is kept')
  t.equal(transfer.executions[0].scheduledDate, '2027-06-13', 'the oldest ones are dropped')
})

t.test('a customer keeps a bounded number of scheduled transfers', async t => {
  const { call } = await buildTestApp(t)
  const held = (await call('GET', '/baas/scheduled-transfers?limit=100', { token: TOKENS.maya })).body.data.length
  const ids = await dailyTransfers(call, MAX_TRANSFERS_PER_CUSTOMER - held)
  const refused = await call('POST', '/baas/scheduled-transfers/ach', {
    token: TOKENS.maya,
    body: {
      fromAccountId: 'acct_maya_checking', amount: 100, frequency: 'ONCE', startDate: '2026-12-01',
      counterparty: { name: 'Landlord', routingNumber: '021000021', accountNumber: '123456789', accountType: 'CHECKING' }
    }
  })
  t.equal(refused.status, 409)
  t.equal(refused.body.code, 'too_many_transfers')
  t.match(refused.body.detail, String(MAX_TRANSFERS_PER_CUSTOMER))
  t.equal((await call('GET', '/baas/scheduled-transfers?limit=100', { token: TOKENS.maya })).body.data.length, MAX_TRANSFERS_PER_CUSTOMER, 'nothing was stored')
  t.equal((await call('POST', `/baas/scheduled-transfers/${ids[0] as string}/cancel`, { token: TOKENS.maya })).status, 200)
  t.equal((await call('POST', '/baas/scheduled-transfers/internal', {
    token: TOKENS.maya,
    body: { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1, frequency: 'ONCE', startDate: '2026-12-01' }
  })).status, 409, 'a cancelled transfer still counts')
  t.equal((await call('PUT', `/baas/scheduled-transfers/${ids[0] as string}/delete`, { token: TOKENS.maya })).status, 200)
  t.equal((await dailyTransfers(call, 1)).length, 1, 'deleting one makes room')
  const other = await call('GET', '/baas/scheduled-transfers', { token: TOKENS.jordan })
  t.ok(other.body.data.length < MAX_TRANSFERS_PER_CUSTOMER, 'the cap is per customer')
  t.equal((await call('GET', '/__mock/clock')).body.now, TEST_NOW.toISOString())
})
