import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { DEFAULT_SETTINGS, type DomainSettings } from '../../src/domain/context.js'
import {
  activateCard, createSetPinLink, deliverCard, lockCard, reissueCard, requestPhysicalCard, shipCard
} from '../../src/domain/debit-card.js'
import { openPinLink, PIN_LINK_RETENTION_MS, pinProblem, setPinWithLink } from '../../src/domain/pin-link.js'
import { runDue } from '../../src/domain/due.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { World } from '../../src/world/world.js'

/** Monday 2026-11-23, the week of Thanksgiving (Thursday 26th, not a banking day). */
const NOW = new Date('2026-11-23T15:00:00.000Z')
const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')

function world (options: { now?: Date; settings?: Partial<DomainSettings> } = {}): World {
  const settings = { ...structuredClone(DEFAULT_SETTINGS), ...options.settings }
  return new World(fixtures as NonNullable<typeof fixtures>, { scenario: 'default', now: options.now ?? NOW, seed: 7, sessionId: 'test', outboxCap: 10, settings })
}

/** Moves the world's clock and runs what fell due, as the control plane does; card events only, `only` keeps one card's. */
function advance (w: World, iso: string, only?: string) {
  w.clock.advanceTo(new Date(iso))
  const events = runDue(w.ctx, w.clock.now()).filter(e => e.type.startsWith('card.'))
  return only === undefined ? events : events.filter(e => e.entityId === only)
}

const card = (w: World, id: string) => {
  const found = w.ctx.state.debitCards.get(id)
  if (found === undefined) throw new Error(`no card ${id}`)
  return found
}

t.test('a new physical card ships after one business day, then is delivered and activated on its ETA', async t => {
  const w = world()
  const { card: ordered, created } = requestPhysicalCard(w.ctx, 'cus_jordan', {})
  t.ok(created)
  t.match(ordered.shipment, { status: 'ORDERED', method: 'STANDARD', trackingNumber: null, eta: '2026-12-01' },
    'STANDARD is 5 business days: Tue, Wed, (Thanksgiving skipped) Fri, Mon, Tue')
  t.same(advance(w, '2026-11-23T23:59:59.000Z'), [], 'nothing is due on the order day')

  const shipped = advance(w, '2026-11-24T00:00:00.000Z')
  t.same(shipped.map(e => [e.type, e.at, e.entityId]), [['card.shipped', '2026-11-24T00:00:00.000Z', ordered.id]])
  const inTransit = card(w, ordered.id)
  t.equal(inTransit.shipment?.status, 'SHIPPED')
  t.match(inTransit.shipment?.trackingNumber, /^\d{22}$/)
  t.equal(inTransit.shipment?.shippedAt, '2026-11-24T00:00:00.000Z')
  t.equal(inTransit.status, 'PENDING_ACTIVATION')
  t.same(advance(w, '2026-11-24T10:00:00.000Z'), [], 'running again changes nothing')
  t.equal(card(w, ordered.id).shipment?.trackingNumber, inTransit.shipment?.trackingNumber, 'the tracking number is kept')

  t.same(advance(w, '2026-11-30T23:00:00.000Z', ordered.id), [], 'not delivered before the ETA')
  const delivered = advance(w, '2026-12-01T09:00:00.000Z', ordered.id)
  t.same(delivered.map(e => e.type), ['card.delivered', 'card.activated'])
  t.match(card(w, ordered.id), { status: 'ACTIVE', shipment: { status: 'DELIVERED', deliveredAt: '2026-12-01T00:00:00.000Z' }, updatedAt: '2026-12-01T00:00:00.000Z' })
  t.same(advance(w, '2026-12-02T09:00:00.000Z'), [])
})

t.test('a long jump ships and delivers in one pass, events in time order', async t => {
  const w = world()
  const { card: ordered } = requestPhysicalCard(w.ctx, 'cus_jordan', { shippingMethod: 'EXPRESS' })
  t.equal(ordered.shipment?.eta, '2026-11-25')
  const events = advance(w, '2026-12-10T00:00:00.000Z', ordered.id)
  t.same(events.map(e => [e.type, e.at]), [
    ['card.shipped', '2026-11-24T00:00:00.000Z'],
    ['card.delivered', '2026-11-25T00:00:00.000Z'],
    ['card.activated', '2026-11-25T00:00:00.000Z']
  ])
})

t.test('ETAs count business days per method from the order date', async t => {
  const monday = world()
  t.equal(requestPhysicalCard(monday.ctx, 'cus_jordan', { shippingMethod: 'PRIORITY' }).card.shipment?.eta, '2026-11-24')
  const events = advance(monday, '2026-11-24T00:00:00.000Z')
  t.same(events.map(e => e.type), ['card.shipped', 'card.delivered', 'card.activated'], 'PRIORITY ships and arrives the next business day')

  const saturday = world({ now: new Date('2026-11-28T12:00:00.000Z') })
  t.equal(requestPhysicalCard(saturday.ctx, 'cus_jordan', { shippingMethod: 'EXPRESS' }).card.shipment?.eta, '2026-12-02',
    'an order on a weekend counts from the next business day')

  const slow = world({ settings: { shipping: { daysToShip: 2, daysToDeliver: 6 } } })
  const { card: standard } = requestPhysicalCard(slow.ctx, 'cus_jordan', {})
  t.equal(standard.shipment?.eta, '2026-12-04', 'STANDARD follows the shipping settings (2 + 6 business days)')
  t.same(advance(slow, '2026-11-24T12:00:00.000Z'), [], 'handling takes daysToShip business days')
  t.same(advance(slow, '2026-11-25T00:00:00.000Z').map(e => e.type), ['card.shipped'])
})

t.test('the fixture replacement on its way to Sam arrives on its ETA and becomes ACTIVE', async t => {
  const w = world()
  t.match(card(w, 'card_sam_replacement'), { status: 'PENDING_ACTIVATION', shipment: { status: 'SHIPPED', eta: '2026-11-26' } })
  t.same(advance(w, '2026-11-25T23:00:00.000Z'), [])
  const events = advance(w, '2026-11-26T08:00:00.000Z')
  t.same(events.map(e => [e.type, e.entityId]), [['card.delivered', 'card_sam_replacement'], ['card.activated', 'card_sam_replacement']])
  t.equal(card(w, 'card_sam_replacement').status, 'ACTIVE')
})

t.test('a closed card\'s shipment stops where it was', async t => {
  const w = world()
  const { card: first } = requestPhysicalCard(w.ctx, 'cus_jordan', {})
  const replacement = reissueCard(w.ctx, 'cus_jordan', first.id, { reason: 'LOST' })
  const events = advance(w, '2026-12-31T00:00:00.000Z').filter(e => e.entityId !== 'card_sam_replacement')
  t.equal(card(w, first.id).shipment?.status, 'ORDERED')
  t.equal(card(w, first.id).status, 'CLOSED')
  t.ok(events.every(e => e.entityId === replacement.id), 'only the replacement moves')
  t.match(card(w, replacement.id), { status: 'ACTIVE', shipment: { status: 'DELIVERED' } })
})

t.test('reissue gives a LOST card a new number no other card of the customer has', async t => {
  const w = world()
  const old = card(w, 'card_sam_replacement')
  const replacement = reissueCard(w.ctx, 'cus_sam', old.id, { reason: 'LOST' })
  const others = [...w.ctx.state.debitCards.values()].filter(c => c.customerId === 'cus_sam' && c.id !== replacement.id).map(c => c.last4)
  t.notOk(others.includes(replacement.last4))
  t.equal(replacement.maskedPan, `535522******${replacement.last4}`, 'the BIN (and network) of the old card is kept')
  t.equal(replacement.network, 'MASTERCARD')
  t.equal(replacement.accountId, 'acct_sam_checking')
})

t.test('simulations: activate, ship and deliver any customer\'s card now', async t => {
  const w = world()
  t.equal(activateCard(w.ctx, 'card_sam_replacement').status, 'ACTIVE')
  t.throws(() => activateCard(w.ctx, 'card_sam_replacement'), { code: 'invalid_card_state' }, 'an ACTIVE card cannot be activated')
  t.throws(() => activateCard(w.ctx, 'card_sam_lost'), { code: 'card_closed' })
  t.throws(() => activateCard(w.ctx, 'card_nope'), { code: 'card_not_found' })

  const { card: ordered } = requestPhysicalCard(w.ctx, 'cus_jordan', {})
  const shipped = shipCard(w.ctx, ordered.id)
  t.match(shipped.shipment, { status: 'SHIPPED', shippedAt: NOW.toISOString(), trackingNumber: /^\d{22}$/ })
  t.throws(() => shipCard(w.ctx, ordered.id), { code: 'invalid_card_state' }, 'only an ORDERED shipment ships')
  const delivered = deliverCard(w.ctx, ordered.id)
  t.match(delivered, { status: 'ACTIVE', shipment: { status: 'DELIVERED', deliveredAt: NOW.toISOString() } })
  t.throws(() => deliverCard(w.ctx, ordered.id), { code: 'invalid_card_state' }, 'a delivered card is not delivered again')

  const other = world()
  const { card: fresh } = requestPhysicalCard(other.ctx, 'cus_jordan', {})
  t.match(deliverCard(other.ctx, fresh.id), { status: 'ACTIVE', shipment: { status: 'DELIVERED', trackingNumber: /^\d{22}$/ } }, 'an ORDERED card is shipped and delivered at once')
  t.throws(() => shipCard(other.ctx, 'card_jordan_virtual'), { code: 'invalid_card_state', message: /no shipment/ })
  t.throws(() => deliverCard(other.ctx, 'card_maya_physical'), { code: 'invalid_card_state' })
})

t.test('a card activated before delivery stays as the cardholder left it', async t => {
  const w = world()
  const { card: ordered } = requestPhysicalCard(w.ctx, 'cus_jordan', {})
  activateCard(w.ctx, ordered.id)
  lockCard(w.ctx, 'cus_jordan', ordered.id)
  advance(w, '2026-12-31T00:00:00.000Z')
  t.match(card(w, ordered.id), { status: 'LOCKED', shipment: { status: 'DELIVERED' } })
})

t.test('a set-PIN link expires after the TTL and is purged a day later', async t => {
  const w = world()
  const link = createSetPinLink(w.ctx, 'cus_jordan', 'card_jordan_virtual')
  t.equal(link.expiresAt, '2026-11-23T15:05:00.000Z')
  t.match(link.token, /^[A-Za-z0-9]{32}$/)

  advance(w, '2026-11-23T15:04:59.000Z')
  t.equal(openPinLink(w.ctx, link.token).card.id, 'card_jordan_virtual', 'usable until its expiry')

  t.same(advance(w, '2026-11-23T15:05:00.000Z'), [], 'an expired link is kept for a while')
  t.throws(() => setPinWithLink(w.ctx, link.token, '2580'), { code: 'pin_link_expired' })
  t.equal(card(w, 'card_jordan_virtual').pinStatus, 'NOT_SET')

  const purgeAt = new Date(Date.parse(link.expiresAt) + PIN_LINK_RETENTION_MS).toISOString()
  advance(w, new Date(Date.parse(purgeAt) - 1000).toISOString())
  t.equal(w.ctx.state.pinLinks.size, 1, 'kept until the retention ends')
  t.same(advance(w, purgeAt), [], 'housekeeping, which makes no event')
  t.equal(w.ctx.state.pinLinks.size, 0)
  t.throws(() => setPinWithLink(w.ctx, link.token, '2580'), { code: 'pin_link_not_found' })
})

t.test('the link TTL is a setting; a used link is single-use, then purged too', async t => {
  const w = world({ settings: { pinLinkTtlSeconds: 60 } })
  const link = createSetPinLink(w.ctx, 'cus_maya', 'card_maya_physical')
  t.equal(link.expiresAt, '2026-11-23T15:01:00.000Z')
  t.throws(() => setPinWithLink(w.ctx, link.token, '1111'), { code: 'invalid_pin', errors: [{ pointer: '/pin' }] })
  setPinWithLink(w.ctx, link.token, '8024')
  t.equal(w.ctx.state.pinLinks.get(link.token)?.usedAt, NOW.toISOString())
  t.throws(() => setPinWithLink(w.ctx, link.token, '8024'), { code: 'pin_link_used' })
  advance(w, '2026-11-25T00:00:00.000Z')
  t.equal(w.ctx.state.pinLinks.size, 0)
})

t.test('a PIN is 4 digits and not guessable', async t => {
  for (const pin of ['2580', '1357', '0420', '9012', '1123', '8901']) t.equal(pinProblem(pin), undefined, `${pin} is accepted`)
  for (const pin of ['0000', '7777', '0123', '1234', '6789', '9876', '4321', '3210']) t.ok(pinProblem(pin), `${pin} is refused`)
  for (const pin of ['123', '12345', '12a4', '', '١٢٣٤']) t.match(pinProblem(pin), /4 digits/, `${JSON.stringify(pin)} is not 4 digits`)
})
