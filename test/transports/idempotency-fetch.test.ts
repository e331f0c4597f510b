import { syncBuiltinESMExports } from 'node:module'
import FakeTimers from '@sinonjs/fake-timers'
import t from 'tap'
import { createMock, type Mock } from '../../src/index.js'

const INTERNAL = '/baas/scheduled-transfers/internal'
const transfer = { amount: 5000, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'MONTHLY', startDate: '2027-01-15' }

async function mockFor (t: { teardown: (fn: () => unknown) => void }): Promise<Mock> {
  const mock = await createMock({ seed: 7, now: '2027-01-10T12:00:00Z' })
  t.teardown(() => mock.close())
  return mock
}

function post (mock: Mock, key: string, body: unknown = transfer, headers: Record<string, string> = {}): Promise<Response> {
  return mock.fetch(INTERNAL, {
    method: 'POST',
    headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json', 'idempotency-key': key, ...headers },
    body: JSON.stringify(body)
  })
}

async function transferCount (mock: Mock, session = 'default'): Promise<number> {
  const res = await mock.fetch('/baas/scheduled-transfers', { headers: { authorization: 'Bearer tok_maya', 'x-mock-session': session } })
  return ((await res.json()) as { data: unknown[] }).data.length
}

t.test('mock.fetch: a replay is the same bytes, marked, and journaled as a replay; another body is 422', async t => {
  const mock = await mockFor(t)
  const before = await transferCount(mock)
  const first = await post(mock, 'k1')
  const firstText = await first.text()
  t.equal(first.status, 201)
  const again = await post(mock, 'k1')
  t.equal(again.status, 201)
  t.equal(again.headers.get('idempotent-replayed'), 'true')
  t.equal(again.headers.get('content-type'), first.headers.get('content-type'))
  t.equal(await again.text(), firstText)
  t.equal(await transferCount(mock), before + 1)

  const reused = await post(mock, 'k1', { ...transfer, amount: 7 })
  t.equal(reused.status, 422)
  t.equal(((await reused.json()) as { code: string }).code, 'idempotency_key_reused')
  const journal = await mock.session().journal.list({ order: 'asc', operation: 'createInternalScheduledTransfer' })
  t.same(journal.map(e => [e.status, e.source]), [[201, undefined], [201, 'replay'], [422, undefined]])
})

t.test('mock.fetch: a duplicate during the first\'s delay is 409; after it, a replay', async t => {
  const mock = await mockFor(t)
  // The delay runs on a fake clock: it ends when the test says.
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] })
  syncBuiltinESMExports()
  t.teardown(() => { clock.uninstall(); syncBuiltinESMExports() })
  const first = post(mock, 'slow', transfer, { prefer: 'delay=5000' })
  for (let turn = 0; turn < 1000 && clock.countTimers() === 0; turn++) await new Promise(resolve => setImmediate(resolve))
  t.equal(clock.countTimers(), 1, 'the first is waiting out its delay')
  const duplicate = await post(mock, 'slow')
  t.equal(duplicate.status, 409)
  t.equal(duplicate.headers.get('retry-after'), '1')
  t.equal(((await duplicate.json()) as { code: string }).code, 'idempotency_request_in_progress')
  await clock.tickAsync(5000)
  const done = await first
  const doneText = await done.text()
  t.equal(done.status, 201)
  const replay = await post(mock, 'slow')
  t.equal(replay.headers.get('idempotent-replayed'), 'true')
  t.equal(await replay.text(), doneText)
})

t.test('mock.fetch: expired after 25 hours of the session clock; sessions keep their own keys', async t => {
  const mock = await mockFor(t)
  t.equal((await post(mock, 'day')).status, 201)
  const other = await mock.fetch(INTERNAL, {
    method: 'POST',
    headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json', 'idempotency-key': 'day', 'x-mock-session': 'other' },
    body: JSON.stringify(transfer)
  })
  t.equal(other.status, 201)
  t.equal(other.headers.get('idempotent-replayed'), null, 'another session runs it')
  t.equal((await post(mock, 'day')).headers.get('idempotent-replayed'), 'true')
  await mock.session().clock.advance({ by: 'PT25H' })
  const later = await post(mock, 'day')
  t.equal(later.status, 201)
  t.equal(later.headers.get('idempotent-replayed'), null, 'the key expired: the request ran again')
})
