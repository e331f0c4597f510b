import t from 'tap'
import { RequestDelay } from '../../src/core/delay.js'
import { MAX_DELAY_MS } from '../../src/core/prefer.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'
import { HeldSleep } from '../helpers/held-sleep.js'

const sum = (waits: number[]): number => waits.reduce((a, b) => a + b, 0)

t.test('three 15 s fault delays and a Prefer delay wait 30 s in all, not 45 s or more', async t => {
  const clock = new HeldSleep(true)
  const { call } = await buildTestApp(t, {}, { sleep: clock.sleep })
  for (let i = 0; i < 3; i++) t.equal((await call('POST', '/__mock/faults', { session: 'slow', body: { operation: 'getCustomer', delay: 15_000 } })).status, 201)
  const res = await call('GET', '/baas/customers', { token: TOKENS.maya, session: 'slow', headers: { prefer: 'delay=10000' } })
  t.equal(res.status, 200)
  t.equal(res.headers['x-mock-fault'], 'fault_1, fault_2, fault_3', 'every rule fired')
  t.equal(sum(clock.waits), MAX_DELAY_MS, 'the waits of one request add up to the cap')
  t.same(clock.waits, [30_000], 'the fault delays, capped; nothing left for Prefer')
  t.notOk(res.headers['preference-applied'], 'the Prefer delay was not honoured, and the answer does not claim it')
})

t.test('what the fault rules leave of the cap is what Prefer: delay waits, and Preference-Applied says so', async t => {
  const clock = new HeldSleep(true)
  const { call } = await buildTestApp(t, {}, { sleep: clock.sleep })
  t.equal((await call('POST', '/__mock/faults', { session: 'some', body: { operation: 'getCustomer', delay: 25_000 } })).status, 201)
  const res = await call('GET', '/baas/customers', { token: TOKENS.maya, session: 'some', headers: { prefer: 'delay=20000' } })
  t.equal(res.status, 200)
  t.same(clock.waits, [25_000, 5_000])
  t.equal(res.headers['preference-applied'], 'delay=5000')

  const alone = await call('GET', '/baas/customers', { token: TOKENS.maya, session: 'alone', headers: { prefer: 'delay=800' } })
  t.equal(alone.headers['preference-applied'], 'delay=800', 'without faults the delay asked for is waited')
  t.same(clock.waits.slice(2), [800])
})

t.test('a fault that answers a status waits within the cap too', async t => {
  const clock = new HeldSleep(true)
  const { call } = await buildTestApp(t, {}, { sleep: clock.sleep })
  await call('POST', '/__mock/faults', { session: 'f', body: { operation: 'lockCard', delay: 20_000 } })
  await call('POST', '/__mock/faults', { session: 'f', body: { operation: 'lockCard', delay: 20_000, status: 503 } })
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'f' })
  t.equal(res.status, 503)
  t.same(clock.waits, [MAX_DELAY_MS])
})

t.test('RequestDelay grants what is left of the cap, and waits nothing for nothing', async t => {
  const clock = new HeldSleep(true)
  const delay = new RequestDelay(clock.sleep)
  t.equal(await delay.wait(0), 0)
  t.equal(await delay.wait(12_000), 12_000)
  t.equal(delay.allowance(40_000), 18_000)
  t.equal(await delay.wait(40_000), 18_000)
  t.equal(await delay.wait(1), 0)
  t.equal(delay.waitedMs, MAX_DELAY_MS)
  t.same(clock.waits, [12_000, 18_000], 'a wait of nothing is no wait at all')
})
