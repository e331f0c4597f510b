import fc from 'fast-check'
import t from 'tap'
import { JournalBudget, type Accounted } from '../../src/world/journal-budget.js'
import { Queue } from '../../src/world/queue.js'
import { SEED } from './arbitraries.js'

type Op = { push: number } | { shift: true } | { keepEven: true } | { clear: true }

/** The queue behind every journal and the journal budget: first in, first out, whatever the mix of operations. */
t.test('the queue behaves as an array pushed at the back and shifted at the front', async t => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 10, arbitrary: fc.integer().map(n => ({ push: n })) },
    { weight: 8, arbitrary: fc.constant({ shift: true as const }) },
    { weight: 1, arbitrary: fc.constant({ keepEven: true as const }) },
    { weight: 1, arbitrary: fc.constant({ clear: true as const }) }
  )
  fc.assert(fc.property(fc.array(op, { maxLength: 200 }), ops => {
    const queue = new Queue<number>()
    let model: number[] = []
    for (const o of ops) {
      if ('push' in o) {
        queue.push(o.push)
        model.push(o.push)
      } else if ('shift' in o) {
        const got = queue.shift()
        if (got !== model.shift()) throw new Error('shifted the wrong item')
      } else if ('keepEven' in o) {
        queue.keep(n => n % 2 === 0)
        model = model.filter(n => n % 2 === 0)
      } else {
        queue.clear()
        model = []
      }
      if (queue.size !== model.length || queue.peek() !== model[0]) throw new Error(`size ${queue.size}, front ${queue.peek()}; expected ${model.length}, ${model[0]}`)
      if (JSON.stringify(queue.toArray()) !== JSON.stringify(model)) throw new Error(`${JSON.stringify(queue.toArray())} instead of ${JSON.stringify(model)}`)
    }
  }), { seed: SEED, numRuns: 500 })
  t.equal(new Queue().shift(), undefined, 'an empty queue gives nothing')
})

t.test('the budget never holds more than its bytes, nor keeps a trail of released entries', async t => {
  const budget = new JournalBudget(1000)
  const entry = (bytes: number): Accounted => ({ bytes, held: true, evict: () => {} })
  // Sessions that come and go without ever filling the budget.
  for (let round = 0; round < 1000; round++) {
    const mine = [entry(100), entry(100)]
    for (const e of mine) budget.admit(e)
    for (const e of mine) budget.release(e)
  }
  t.equal(budget.bytes, 0)
  t.equal(budget.size, 0)
  t.ok((budget as unknown as { order: Queue<Accounted> }).order.size <= 200, 'released entries are dropped from the order, not kept forever')
  const evicted: number[] = []
  for (let i = 0; i < 30; i++) {
    const e = entry(100)
    e.evict = () => evicted.push(i)
    budget.admit(e)
    if (budget.bytes > budget.maxBytes) throw new Error('over the budget')
  }
  t.same(evicted, Array.from({ length: 20 }, (_, i) => i), 'the oldest went, in order')
})

t.test('a journal at its cap, dropping its oldest entry at each new one, leaves the budget holding just its entries', async t => {
  const budget = new JournalBudget(1_000_000)
  const order = (budget as unknown as { order: Queue<Accounted> }).order
  const journal: Accounted[] = []
  for (let i = 0; i < 5_000; i++) {
    const e: Accounted = { bytes: 10, held: true, evict: () => {} }
    journal.push(e)
    budget.admit(e)
    if (journal.length > 100) budget.release(journal.shift() as Accounted)
    if (order.size !== journal.length) throw new Error(`the order holds ${order.size} entries for ${journal.length} held`)
  }
  t.equal(budget.size, 100)
  t.equal(budget.bytes, 1_000)
})
