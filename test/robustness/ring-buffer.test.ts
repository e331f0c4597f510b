import fc from 'fast-check'
import t from 'tap'
import { RingBuffer } from '../../src/world/ring-buffer.js'
import { SEED } from './arbitraries.js'

/** The buffer behind every outbox: never more than its cap, always the newest, oldest first. */
t.test('the ring buffer behaves as "the last capacity items pushed since the last clear"', async t => {
  const op = fc.oneof({ weight: 12, arbitrary: fc.integer().map(n => ({ push: n })) }, { weight: 1, arbitrary: fc.constant({ clear: true as const }) })
  fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
    const ring = new RingBuffer<number>(capacity)
    let model: number[] = []
    for (const o of ops) {
      if ('push' in o) {
        ring.push(o.push)
        model = [...model, o.push].slice(-capacity)
      } else {
        ring.clear()
        model = []
      }
      if (ring.size > capacity) throw new Error(`holds ${ring.size} of ${capacity}`)
      if (JSON.stringify(ring.toArray()) !== JSON.stringify(model)) throw new Error(`${JSON.stringify(ring.toArray())} instead of ${JSON.stringify(model)}`)
    }
  }), { seed: SEED, numRuns: 500 })
  t.throws(() => new RingBuffer(0), RangeError)
  t.throws(() => new RingBuffer(1.5), RangeError)
})
