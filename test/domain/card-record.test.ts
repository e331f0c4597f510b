import { setFlagsFromString } from 'node:v8'
import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { cardWith } from '../../src/domain/card-record.js'
import { lockCard, unlockCard } from '../../src/domain/debit-card.js'
import type { DebitCard } from '../../src/domain/model.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { World } from '../../src/world/world.js'

/** Required<>: when DebitCard gains a field, this stops compiling until the field is here, and cardWith is checked with it. */
const EVERY_FIELD: Required<DebitCard> = {
  id: 'card_1',
  customerId: 'cus_1',
  accountId: 'acct_1',
  form: 'PHYSICAL',
  network: 'MASTERCARD',
  last4: '0001',
  maskedPan: '555555******0001',
  expirationMonth: 3,
  expirationYear: 2030,
  status: 'CLOSED',
  closedReason: 'REPLACED',
  lockedAt: '2026-01-02T00:00:00.000Z',
  pinStatus: 'SET',
  replacementFor: 'card_0',
  replacedBy: 'card_2',
  shipment: {
    status: 'DELIVERED',
    method: 'EXPRESS',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    orderedAt: '2026-01-01T00:00:00.000Z',
    eta: '2026-01-05',
    trackingNumber: '123456789012',
    shippedAt: '2026-01-02T00:00:00.000Z',
    deliveredAt: '2026-01-05T00:00:00.000Z'
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-05T00:00:00.000Z'
}

t.test('a card keeps every field it has, and only those', async t => {
  t.strictSame(cardWith(EVERY_FIELD), EVERY_FIELD)
  const { closedReason: _c, lockedAt: _l, replacementFor: _f, replacedBy: _b, shipment: _s, ...bare } = EVERY_FIELD
  const copy = cardWith({ ...bare, status: 'ACTIVE' })
  t.strictSame(Object.keys(copy).sort(), Object.keys(bare).sort(), 'no optional field appears, not even as undefined')
})

t.test('changes replace fields; an optional field changed to undefined is gone', async t => {
  const locked = cardWith(EVERY_FIELD, { status: 'LOCKED', closedReason: undefined, replacedBy: undefined, updatedAt: '2026-02-01T00:00:00.000Z' })
  t.equal(locked.status, 'LOCKED')
  t.equal(locked.updatedAt, '2026-02-01T00:00:00.000Z')
  t.notOk('closedReason' in locked)
  t.notOk('replacedBy' in locked)
  t.equal(locked.lockedAt, EVERY_FIELD.lockedAt, 'a field not named in the changes stays')
  t.equal(EVERY_FIELD.status, 'CLOSED', 'the original is not touched')
})

t.test('lock and unlock: lockedAt comes and goes, and cards keep one shape however often they flip', async t => {
  const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
  if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')
  const world = new World(fixtures, { scenario: 'default', now: new Date('2026-11-23T15:00:00.000Z'), seed: 7, sessionId: 'test', outboxCap: 10 })
  const locked = lockCard(world.ctx, 'cus_maya', 'card_maya_virtual')
  t.equal(locked.lockedAt, '2026-11-23T15:00:00.000Z')
  const unlocked = unlockCard(world.ctx, 'cus_maya', 'card_maya_virtual')
  t.notOk('lockedAt' in unlocked, 'an unlocked card has no lockedAt at all')
  t.same(world.ctx.state.debitCards.get('card_maya_virtual'), unlocked, 'the store holds the unlocked card')

  // A spread that adds a property gave every locked card its own V8 hidden class, which made the
  // request path megamorphic (lock + unlock a fifth slower, per the benchmark). V8's own test for "same shape":
  setFlagsFromString('--allow-natives-syntax')
  const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
  const firstLocked = lockCard(world.ctx, 'cus_maya', 'card_maya_virtual')
  const firstUnlocked = unlockCard(world.ctx, 'cus_maya', 'card_maya_virtual')
  for (let i = 0; i < 100; i++) {
    lockCard(world.ctx, 'cus_maya', 'card_maya_virtual')
    unlockCard(world.ctx, 'cus_maya', 'card_maya_virtual')
  }
  t.ok(sameShape(lockCard(world.ctx, 'cus_maya', 'card_maya_virtual'), firstLocked), 'the 102nd lock makes a card of the first one\'s shape')
  t.ok(sameShape(unlockCard(world.ctx, 'cus_maya', 'card_maya_virtual'), firstUnlocked), 'and so does the 102nd unlock')
})
