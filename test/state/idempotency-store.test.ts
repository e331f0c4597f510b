import t from 'tap'
import { IdempotencyStore, type Lookup, type StoredAnswer } from '../../src/world/idempotency.js'

const HOUR = 3_600_000
const answer = (text: string, status = 201): StoredAnswer => ({ status, headers: {}, contentType: 'application/json; charset=utf-8', text })

/** Begins and completes a key in one go; answers the lookup that began it. */
function storeOne (store: IdempotencyStore, key: string, text: string, nowMs = 0, customerId = 'cus_a', fingerprint = 'fp'): Lookup {
  const found = store.begin(customerId, key, fingerprint, nowMs)
  if (found.kind === 'new') store.complete(found.reservation, answer(text), nowMs)
  return found
}

t.test('new, in flight, replay, reused; a released key runs again', async t => {
  const store = new IdempotencyStore()
  const first = store.begin('cus_a', 'k', 'fp', 0)
  t.equal(first.kind, 'new')
  t.same(store.begin('cus_a', 'k', 'fp', 0), { kind: 'in_flight' })
  t.same(store.begin('cus_a', 'k', 'other', 0), { kind: 'reused' })
  if (first.kind !== 'new') return
  t.ok(store.complete(first.reservation, answer('{"id":1}'), 0))
  t.same(store.begin('cus_a', 'k', 'fp', 1), { kind: 'replay', answer: answer('{"id":1}') })
  t.same(store.begin('cus_a', 'k', 'other', 1), { kind: 'reused' })
  t.equal(store.begin('cus_b', 'k', 'fp', 1).kind, 'new', 'another customer\'s key is another key')

  const held = store.begin('cus_a', 'released', 'fp', 0)
  if (held.kind !== 'new') throw new Error('expected new')
  store.release(held.reservation)
  t.equal(store.begin('cus_a', 'released', 'fp', 0).kind, 'new', 'a released key is free again')
  t.equal(store.size, 1)
})

t.test('answers expire after 24 hours of the clock given', async t => {
  const store = new IdempotencyStore()
  storeOne(store, 'k', 'x', 0)
  t.equal(store.begin('cus_a', 'k', 'fp', 24 * HOUR - 1).kind, 'replay')
  t.equal(store.begin('cus_a', 'k', 'fp', 24 * HOUR).kind, 'new')
  t.equal(store.bytes, 0, 'the expired answer\'s bytes are given back')
})

t.test('bounded by count and by bytes: the oldest go first; an answer over the byte bound alone is not kept', async t => {
  const byCount = new IdempotencyStore({ ttlMs: HOUR, keys: 3, bytes: 1_000_000 })
  for (const key of ['a', 'b', 'c', 'd']) storeOne(byCount, key, key)
  t.same(['a', 'b', 'c', 'd'].map(key => byCount.begin('cus_a', key, 'fp', 0).kind), ['new', 'replay', 'replay', 'replay'])

  const probe = new IdempotencyStore()
  storeOne(probe, 'a', 'x'.repeat(100))
  const perAnswer = probe.bytes
  const byBytes = new IdempotencyStore({ ttlMs: HOUR, keys: 100, bytes: perAnswer * 2 })
  for (const key of ['a', 'b', 'c']) storeOne(byBytes, key, 'x'.repeat(100))
  t.equal(byBytes.size, 2)
  t.ok(byBytes.bytes <= perAnswer * 2)
  t.equal(byBytes.begin('cus_a', 'a', 'fp', 0).kind, 'new', 'the oldest went')

  const small = new IdempotencyStore({ ttlMs: HOUR, keys: 100, bytes: 300 })
  const big = small.begin('cus_a', 'big', 'fp', 0)
  if (big.kind !== 'new') throw new Error('expected new')
  t.notOk(small.complete(big.reservation, answer('x'.repeat(1000)), 0))
  t.equal(small.begin('cus_a', 'big', 'fp', 0).kind, 'new', 'not kept, and not held either')
})

t.test('a clear forgets the answers; a request held across it keeps its answer for its retry', async t => {
  const store = new IdempotencyStore()
  storeOne(store, 'done', 'x')
  const held = store.begin('cus_a', 'held', 'fp', 0)
  store.clear()
  t.equal(store.begin('cus_a', 'done', 'fp', 0).kind, 'new')
  if (held.kind !== 'new') throw new Error('expected new')
  t.ok(store.complete(held.reservation, answer('y'), 0))
  t.equal(store.begin('cus_a', 'held', 'fp', 0).kind, 'replay')
})

t.test('snapshot and restore: plain JSON, the same answers, order and expiry', async t => {
  const store = new IdempotencyStore()
  t.same(store.snapshot(), { version: 1, records: [] })
  store.begin('cus_a', 'in-flight', 'fp', 0)
  storeOne(store, 'old', '{"n":1}', 0)
  storeOne(store, 'new', '{"n":2}', HOUR, 'cus_b', 'fp2')
  const json = JSON.parse(JSON.stringify(store.snapshot()))
  t.same(json.records.map((r: { key: string; customerId: string; storedAtMs: number }) => [r.key, r.customerId, r.storedAtMs]), [['old', 'cus_a', 0], ['new', 'cus_b', HOUR]])

  const restored = new IdempotencyStore()
  restored.restore(json)
  t.equal(restored.bytes, store.bytes)
  t.same(restored.begin('cus_b', 'new', 'fp2', 2 * HOUR), { kind: 'replay', answer: answer('{"n":2}') })
  t.equal(restored.begin('cus_a', 'old', 'fp', 24 * HOUR).kind, 'new', 'the restored answer expires as the original would')
  t.throws(() => restored.restore({ version: 2, records: [] }), TypeError)
  t.throws(() => restored.restore({ version: 1, records: [{ key: 'k' }] }), TypeError)
})
