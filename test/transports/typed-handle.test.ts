import t from 'tap'
import { createMock, type FiredEvent, type JournalEntry, type WorldSnapshot } from '../../src/index.js'

// The session handle's answers are typed from the control plane's own schemas: a test reads fields
// without a cast (this file does not type-check where state() is Record<string, unknown>).

t.test('state, journal, outbox, fired events and faults come typed, and the types say what the answers hold', async t => {
  const mock = await createMock({ seed: 3, fixedCode: '123456', now: '2026-11-23T15:00:00Z' })
  t.teardown(() => mock.close())
  const session = mock.session('typed')
  const lock = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'typed' } })
  t.equal(lock.status, 200)

  const state: WorldSnapshot = await session.state()
  const card = state.debitCards.find(c => c.id === 'card_maya_virtual')
  t.equal(card?.status, 'LOCKED', 'debitCards[].status is a CardStatus')
  t.equal(state.customers.find(c => c.id === state.defaultCustomerId)?.firstName, 'Maya')

  const [entry]: JournalEntry[] = await session.journal.list({ operation: 'lockCard' })
  t.equal(entry?.status, 200)
  t.equal(entry?.operationId, 'lockCard')

  await mock.fetch('/mfa/send-code', { method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'typed', 'content-type': 'application/json' }, body: '{}' })
  const outbox = await session.outbox.list()
  t.equal(outbox.data[0]?.channel, 'sms', 'outbox messages have their channel')
  t.equal((await session.outbox.latestCode()).code, '123456')

  const advanced = await session.clock.advance({ by: 'P40D' })
  const kinds = advanced.fired.map((fired: FiredEvent) => fired.kind)
  t.ok(kinds.length > 0 && kinds.every(kind => typeof kind === 'string'), 'fired events have a kind')

  const rule = await session.faults.add({ operation: 'lockCard', status: 503, count: 1 })
  t.equal(rule.status, 503)
  t.equal((await session.faults.list())[0]?.id, rule.id)
})
