import { addBankingDays } from './banking-calendar.js'
import { cardWith } from './card-record.js'
import type { DomainContext } from './context.js'
import { withUpdatedAt, type DomainEvent } from './events.js'
import type { Address, DebitCard, Shipment, ShippingMethod } from './model.js'
import type { DueProcessor, TimelineEvent } from './timeline.js'

// Physical card shipments: ORDERED → SHIPPED → DELIVERED, counted in Federal Reserve business
// days from the order date. Transitions happen at the start of their day (00:00 UTC), so moving the
// clock "one day" from mid-afternoon lands past them.

/** Business days from order to delivery per method (Stripe Issuing's ranges). STANDARD follows the settings. */
function transitDays (ctx: DomainContext, method: ShippingMethod): number {
  switch (method) {
    case 'STANDARD': return ctx.settings.shipping.daysToShip + ctx.settings.shipping.daysToDeliver
    case 'EXPRESS': return 2
    case 'PRIORITY': return 1
  }
}

const TRACKING_NUMBER_DIGITS = 22 // USPS-style

export function orderShipment (ctx: DomainContext, method: ShippingMethod, address: Address): Shipment {
  const orderedAt = ctx.clock.now().toISOString()
  return {
    status: 'ORDERED',
    method,
    trackingNumber: null,
    eta: addBankingDays(orderedAt.slice(0, 10), transitDays(ctx, method)),
    address: { ...address },
    orderedAt
  }
}

/**
 * Ship dates already worked out, per shipment object (every move replaces the object) and for the
 * settings they were worked out with. Worlds settle before every request after a write, and the
 * banking-day math was most of that.
 */
const shipDates = new WeakMap<Shipment, { shipping: DomainContext['settings']['shipping']; date: string }>()

/** The day an ORDERED shipment leaves: after the handling time, but never after its ETA (fast methods). */
export function shipDateOf (ctx: DomainContext, shipment: Shipment): string {
  const { shipping } = ctx.settings
  const known = shipDates.get(shipment)
  if (known?.shipping === shipping) return known.date
  const handled = addBankingDays(shipment.orderedAt.slice(0, 10), shipping.daysToShip)
  const date = handled < shipment.eta ? handled : shipment.eta
  shipDates.set(shipment, { shipping, date })
  return date
}

export function markShipped (ctx: DomainContext, card: DebitCard, at: string): DebitCard {
  const shipment = card.shipment as Shipment
  return cardWith(card, {
    shipment: { ...shipment, status: 'SHIPPED', trackingNumber: shipment.trackingNumber ?? ctx.ids.digits(TRACKING_NUMBER_DIGITS), shippedAt: at },
    updatedAt: at
  })
}

/**
 * Delivery also activates a PENDING_ACTIVATION card. A real cardholder would activate it; the mock
 * does it for them so a frontend is never stuck on a card nobody can activate.
 */
export function markDelivered (card: DebitCard, at: string): DebitCard {
  const shipment = card.shipment as Shipment
  return cardWith(card, {
    status: card.status === 'PENDING_ACTIVATION' ? 'ACTIVE' : card.status,
    shipment: { ...shipment, status: 'DELIVERED', deliveredAt: at },
    updatedAt: at
  })
}

/** card.shipped, from the card before and after it shipped. */
export function shippedEvent (before: DebitCard, shipped: DebitCard, at: string): DomainEvent {
  const shipment = shipped.shipment as Shipment
  return {
    type: 'card.shipped', at, entityId: shipped.id, data: shipped, previousAttributes: withUpdatedAt(before, shipped, { shipment: before.shipment ?? null }),
    detail: `Shipped ${shipment.method}, tracking ${shipment.trackingNumber ?? ''}, ETA ${shipment.eta}`
  }
}

/** card.delivered, and card.activated when delivery activated it. */
export function deliveredEvents (before: DebitCard, delivered: DebitCard, at: string): DomainEvent[] {
  const shipment = delivered.shipment as Shipment
  const events: DomainEvent[] = [{
    type: 'card.delivered', at, entityId: delivered.id, data: delivered, previousAttributes: withUpdatedAt(before, delivered, { shipment: before.shipment ?? null, ...(before.status === delivered.status ? {} : { status: before.status }) }),
    detail: `Delivered to ${shipment.address.line1}, ${shipment.address.city}`
  }]
  if (before.status !== delivered.status) {
    events.push({ type: 'card.activated', at, entityId: delivered.id, data: delivered, previousAttributes: withUpdatedAt(before, delivered, { status: before.status }), detail: 'Activated on delivery' })
  }
  return events
}

function startOf (date: string): string {
  return `${date}T00:00:00.000Z`
}

function later (a: string, b: string): string {
  return a > b ? a : b
}

/** Moves every open card's shipment as far as `until` allows. Closed cards' shipments stay where they are. */
export const advanceShipments: DueProcessor = (ctx, until) => {
  const events: TimelineEvent[] = []
  for (const card of ctx.state.debitCards.values()) {
    if (card.shipment === undefined || card.status === 'CLOSED') continue
    const shipped = card.shipment.status === 'ORDERED' ? shipIfDue(ctx, card, until.iso, events) : card
    if (shipped.shipment?.status === 'SHIPPED') deliverIfDue(ctx, shipped, until.iso, events)
  }
  return events
}

function shipIfDue (ctx: DomainContext, card: DebitCard, limit: string, events: TimelineEvent[]): DebitCard {
  const shipment = card.shipment as Shipment
  const at = later(startOf(shipDateOf(ctx, shipment)), shipment.orderedAt)
  if (at > limit) return card
  const shipped = markShipped(ctx, card, at)
  ctx.state.debitCards.set(card.id, shipped)
  events.push(shippedEvent(card, shipped, at))
  return shipped
}

function deliverIfDue (ctx: DomainContext, card: DebitCard, limit: string, events: TimelineEvent[]): void {
  const shipment = card.shipment as Shipment
  const at = later(startOf(shipment.eta), shipment.shippedAt ?? shipment.orderedAt)
  if (at > limit) return
  const delivered = markDelivered(card, at)
  ctx.state.debitCards.set(card.id, delivered)
  events.push(...deliveredEvents(card, delivered, at))
}
