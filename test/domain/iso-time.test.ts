import t from 'tap'
import { isoAt } from '../../src/domain/iso-time.js'

t.test('isoAt formats as toISOString does, for the same instant again and for the next one', async t => {
  const ms = Date.parse('2026-11-23T15:00:00.123Z')
  t.equal(isoAt(ms), '2026-11-23T15:00:00.123Z')
  t.equal(isoAt(ms), '2026-11-23T15:00:00.123Z', 'the remembered instant')
  t.equal(isoAt(ms + 1), '2026-11-23T15:00:00.124Z', 'a new instant is formatted anew')
  t.throws(() => isoAt(Number.NaN), RangeError, 'an invalid instant throws, as toISOString does')
})
