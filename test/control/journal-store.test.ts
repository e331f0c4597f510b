import t from 'tap'
import { JOURNAL_ACCOUNTING, Journal, JournalBudget, type JournalRecord } from '../../src/world/journal.js'

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

t.test('journals that share a budget lose their oldest entries first, whichever journal holds them', async t => {
  const budget = new JournalBudget(Number.POSITIVE_INFINITY)
  const a = new Journal(100, budget)
  const b = new Journal(100, budget)
  a.record(entry({}))
  const one = budget.bytes
  t.ok(one >= JOURNAL_ACCOUNTING.perEntry, 'an entry is accounted at least its fixed cost')
  b.record(entry({}))
  a.record(entry({}))
  t.equal(budget.bytes, 3 * one)
  t.equal(a.bytes + b.bytes, budget.bytes)

  const tight = new JournalBudget(3 * one)
  const c = new Journal(100, tight)
  const d = new Journal(100, tight)
  c.record(entry({ url: '/c/1' }))
  d.record(entry({ url: '/d/1' }))
  c.record(entry({ url: '/c/2' }))
  d.record(entry({ url: '/d/2' }))
  t.same(c.list().map(e => e.url), ['/c/2'], 'c lost its oldest, the oldest of all')
  t.same(d.list().map(e => e.url), ['/d/1', '/d/2'])
  t.ok(tight.bytes <= tight.maxBytes)
  t.equal(c.recorded, 2, 'recorded counts what the budget pushed out')

  c.clear()
  t.equal(tight.bytes, d.bytes, 'a cleared journal gives its bytes back')
  d.record(entry({ url: '/d/3' }))
  d.record(entry({ url: '/d/4' }))
  t.same(d.list().map(e => e.url), ['/d/2', '/d/3', '/d/4'])
})

t.test('the entry cap gives bytes back to the budget too', async t => {
  const budget = new JournalBudget(Number.POSITIVE_INFINITY)
  const journal = new Journal(2, budget)
  for (let i = 0; i < 10; i++) journal.record(entry({}))
  t.equal(budget.size, 2)
  t.equal(budget.bytes, journal.bytes)
  t.throws(() => new JournalBudget(0), RangeError)
  t.throws(() => new Journal(0), RangeError)
})

t.test('an entry larger than the whole budget is not kept, so the bound holds', async t => {
  const budget = new JournalBudget(100)
  const journal = new Journal(10, budget)
  journal.record(entry({}))
  t.equal(journal.size, 0)
  t.equal(budget.bytes, 0)
  t.equal(journal.recorded, 1)
})

t.test('a body is kept as text and masked when read; a client that left is noted', async t => {
  const journal = new Journal(10)
  journal.record(entry({ body: { pan: '4111111111111111' } }))
  journal.record(entry({ url: '/baas/customers?x=1', clientLeft: true }))
  t.match(journal.query({ limit: 1 }), [{ id: 2, path: '/baas/customers', clientLeft: true }])
  t.same(journal.query({ order: 'asc', limit: 1 })[0]?.body, { pan: '************1111' }, 'a body is kept as text and masked when read')
})

t.test('extend: the journal as a store holds it, from the rows after those it holds as saved', async t => {
  const budget = new JournalBudget(1024 * 1024)
  const saved = new Journal(4, budget)
  for (const url of ['/a', '/b', '/c']) saved.record(entry({ url }))
  // Another replica's journal: the same three, then two more, saved.
  const other = new Journal(4)
  other.restore(saved.meta(), saved.rowsAfter(0))
  other.record(entry({ url: '/d' }))
  other.record(entry({ url: '/e' }))
  // This one recorded an entry it never saved (its save lost), and listens.
  const heard: string[] = []
  saved.subscribe(e => heard.push(e.url))
  saved.record(entry({ url: '/unsaved' }), true)
  t.same(heard, [], 'a quiet entry is not announced')
  saved.extend(other.meta(), other.rowsAfter(3), 3)
  t.same(saved.list().map(e => [e.id, e.url]), [[2, '/b'], [3, '/c'], [4, '/d'], [5, '/e']], 'the unsaved entry went; the cap of 4 holds')
  t.equal(budget.bytes, saved.bytes, 'the budget accounts for exactly what it holds')
  t.equal(saved.lastId, 5)
  saved.record(entry({ url: '/f' }), true)
  saved.announce(5, 6)
  t.same(heard, ['/f'], 'announced once saved')
  // /f saved, then the journal cleared through the other replica, and one more entry there.
  other.restore(saved.meta(), saved.rowsAfter(0))
  other.clear()
  other.record(entry({ url: '/g' }))
  saved.extend(other.meta(), other.rowsAfter(6), 6)
  t.same(saved.list().map(e => e.url), ['/g'], 'a clear elsewhere takes the entries before it')
  t.equal(budget.bytes, saved.bytes)
})

t.test('the persona that answered is kept, accounted, and goes through a store', async t => {
  const journal = new Journal(10)
  journal.record(entry({ persona: { customerId: 'cus_maya', via: 'default' } }))
  journal.record(entry({}))
  const bare = new Journal(10)
  bare.record(entry({}))
  t.equal(journal.bytes - 2 * bare.bytes, JOURNAL_ACCOUNTING.perString + 'cus_maya'.length, 'accounted like any kept string')
  const restored = new Journal(10)
  restored.restore(journal.meta(), journal.rowsAfter(0))
  t.same(restored.query({ order: 'asc' }).map(e => e.persona), [{ customerId: 'cus_maya', via: 'default' }, undefined])
})
