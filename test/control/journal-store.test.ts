import t from 'tap'
import { Journal, type JournalRecord } from '../../src/state/journal.js'

function entry (overrides: Partial<JournalRecord> & { time?: string }): JournalRecord {
  const { time = '2026-11-23T15:00:00.000Z', ...rest } = overrides
  return {
    timeMs: Date.parse(time), method: 'GET', url: '/baas/customers', operationId: 'getCustomer',
    status: 200, durationMs: 1, headers: {}, body: null, ...rest
  }
}

t.test('the journal filters, orders and limits', async t => {
  const journal = new Journal(10)
  journal.record(entry({}))
  journal.record(entry({ method: 'POST', url: '/baas/debit-cards/card_1/lock?x=1', operationId: 'lockCard', status: 409, time: '2026-11-23T16:00:00.000Z' }))
  journal.record(entry({ method: 'PUT', url: '/baas/debit-cards/card_1/unlock', operationId: 'unlockCard', status: 200, time: '2026-11-23T17:00:00.000Z' }))
  journal.record(entry({ url: '/nope', operationId: null, status: 404, time: '2026-11-23T17:00:00.000Z' }))
  t.same(journal.query().map(e => e.id), [4, 3, 2, 1], 'newest first by default')
  t.same(journal.query({ order: 'asc', limit: 2 }).map(e => e.id), [1, 2])
  t.same(journal.query({ operationIds: ['lockCard', 'unlockCard'] }).map(e => e.id), [3, 2])
  t.same(journal.query({ method: 'post' }).map(e => e.id), [2], 'method in any case')
  t.same(journal.query({ path: '/baas/debit-cards/*' }).map(e => e.id), [3, 2])
  t.same(journal.query({ path: '/baas/customers' }).map(e => e.id), [1])
  t.same(journal.query({ status: '4xx' }).map(e => e.id), [4, 2])
  t.same(journal.query({ status: '200' }).map(e => e.id), [3, 1])
  t.same(journal.query({ since: '2026-11-23T17:00:00Z' }).map(e => e.id), [4, 3])
  t.same(journal.query({ after: 2 }).map(e => e.id), [4, 3])
  t.same(journal.query({ operationIds: ['getCustomer'], status: '5xx' }), [])
  t.match(journal.query({ after: 1, order: 'asc', limit: 1 })[0], { path: '/baas/debit-cards/card_1/lock', url: '/baas/debit-cards/card_1/lock?x=1', time: '2026-11-23T16:00:00.000Z' }, 'the path is the URL without its query')
})

t.test('entries show no credentials, and account or card numbers only by their last 4 digits', async t => {
  const journal = new Journal(10)
  journal.record(entry({
    headers: { authorization: 'Bearer tok_maya', cookie: 'a=b', 'x-mock-admin-token': 's3cret', accept: ['a', 'b'], 'x-none': undefined },
    body: { counterparty: { accountNumber: '000123456789', routingNumber: '011000015' }, items: [{ pan: 4111111111111111 }], ssn: '123-45-6789', amount: 100 }
  }))
  const [seen] = journal.list()
  t.same(seen?.headers, { authorization: '[REDACTED]', cookie: '[REDACTED]', 'x-mock-admin-token': '[REDACTED]', accept: 'a, b' })
  t.same(seen?.body, { counterparty: { accountNumber: '********6789', routingNumber: '011000015' }, items: [{ pan: '************1111' }], ssn: '*******6789', amount: 100 })
  seen!.headers.accept = 'changed by a reader'
  t.equal(journal.list()[0]?.headers.accept, 'a, b', 'a reader gets a copy: the journal keeps what was recorded')
})

t.test('the cap drops the oldest; clear keeps ids increasing', async t => {
  const journal = new Journal(2)
  for (let i = 0; i < 5; i++) journal.record(entry({}))
  t.equal(journal.size, 2)
  t.equal(journal.recorded, 5)
  t.equal(journal.capacity, 2)
  t.same(journal.list().map(e => e.id), [4, 5])
  journal.clear()
  t.equal(journal.size, 0)
  t.equal(journal.recorded, 0)
  journal.record(entry({}))
  t.same(journal.list().map(e => e.id), [6], 'a poller\'s after= cursor stays valid')
})
