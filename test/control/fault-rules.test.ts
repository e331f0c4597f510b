import t from 'tap'
import { FaultRules } from '../../src/world/faults.js'

const NOW = new Date('2026-11-23T15:00:00.000Z')

t.test('rules fire in order: delays add up, the first status ends the request', async t => {
  const rules = new FaultRules(7, 'default')
  const slow = rules.add({ delay: 100 }, NOW)
  const failing = rules.add({ operationIds: ['lockCard'], status: 503 }, NOW)
  rules.add({ status: 500 }, NOW)
  const onLock = rules.evaluate('lockCard')
  t.equal(onLock.delayMs, 100)
  t.equal(onLock.terminal?.id, failing.id)
  t.same(onLock.fired, [slow.id, failing.id], 'the third rule is never reached')
  const onGet = rules.evaluate('getCustomer')
  t.equal(onGet.terminal?.status, 500, 'a rule for another operation is skipped')
  t.equal(rules.list()[2]?.hits, 1)
})

t.test('a counted rule expires after firing that many times', async t => {
  const rules = new FaultRules(undefined, 'ci')
  rules.add({ status: 503, count: 2 }, NOW)
  t.equal(rules.evaluate('getCustomer').terminal?.status, 503)
  t.equal(rules.list()[0]?.remaining, 1)
  t.equal(rules.evaluate('getCustomer').terminal?.status, 503)
  t.equal(rules.size, 0, 'gone after its count')
  t.equal(rules.evaluate('getCustomer').fired.length, 0)
})

t.test('seeded probability and ranged delays repeat for the same seed and session', async t => {
  const draw = (seed: number, session: string): string => {
    const rules = new FaultRules(seed, session)
    rules.add({ status: 500, probability: 0.5, delay: { min: 10, max: 20 } }, NOW)
    return Array.from({ length: 40 }, () => {
      const o = rules.evaluate('getCustomer')
      return o.terminal === undefined ? '-' : String(o.delayMs)
    }).join(',')
  }
  const first = draw(42, 'ci-1')
  t.equal(draw(42, 'ci-1'), first, 'same seed and session: same sequence')
  t.not(draw(42, 'ci-2'), first, 'another session draws its own sequence')
  const outcomes = first.split(',')
  t.ok(outcomes.includes('-') && outcomes.some(o => o !== '-'), 'probability 0.5 both fires and skips')
  t.ok(outcomes.filter(o => o !== '-').every(o => Number(o) >= 10 && Number(o) <= 20), 'delays stay within the range')
})

t.test('a probability draw that misses does not use up the count', async t => {
  const rules = new FaultRules(1, 'x')
  rules.add({ status: 500, probability: 0.000001, count: 1 }, NOW)
  for (let i = 0; i < 20; i++) rules.evaluate('getCustomer')
  t.equal(rules.list()[0]?.remaining, 1)
  t.equal(rules.list()[0]?.hits, 0)
})

t.test('remove and clear', async t => {
  const rules = new FaultRules(undefined, 'x')
  const a = rules.add({ reset: true }, NOW)
  rules.add({ delay: 5 }, NOW)
  t.equal(rules.evaluate('getCustomer').terminal?.reset, true)
  t.ok(rules.remove(a.id))
  t.notOk(rules.remove(a.id), 'removing twice finds nothing')
  t.equal(rules.size, 1)
  rules.clear()
  t.equal(rules.size, 0)
  t.equal(rules.add({ delay: 1 }, NOW).id, 'fault_3', 'ids are not reused after a clear')
})
