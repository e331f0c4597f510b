import { cardWith } from './card-record.js'
import { deliveredEvents, markDelivered, markShipped, orderShipment, shippedEvent } from './card-shipping.js'
import { nowIso, type DomainContext } from './context.js'
import { getCustomer, getWritableCustomer } from './customer.js'
import { capReached, DomainError, fieldError } from './errors.js'
import { changed, created } from './card-events.js'
import { maskedPan } from './masking.js'
import type { Address, CardForm, ClosedReason, DebitCard, PinLink, ShippingMethod } from './model.js'
import { issuePinLink } from './pin-link.js'

// Debit card lifecycle: PENDING_ACTIVATION → ACTIVE ⇄ LOCKED; any → CLOSED (terminal).

export const REISSUE_REASONS = ['DAMAGED', 'EXPIRED', 'LOST', 'STOLEN'] as const
export type ReissueReason = typeof REISSUE_REASONS[number]

export interface ShippingChoice {
  shippingAddress?: Address | undefined
  shippingMethod?: ShippingMethod | undefined
}

export interface ReissueRequest extends ShippingChoice {
  reason: ReissueReason
}

const DEFAULT_BIN = '411111' // VISA test BIN
const CARD_VALIDITY_YEARS = 4

const CLOSED_REASON: Record<ReissueReason, ClosedReason> = { DAMAGED: 'REPLACED', EXPIRED: 'REPLACED', LOST: 'LOST', STOLEN: 'STOLEN' }

/** The customer's card; another customer's card is "not found" too, so its existence does not leak. */
export function getCard (ctx: DomainContext, customerId: string, cardId: string): DebitCard {
  const card = ctx.state.debitCards.get(cardId)
  if (card === undefined || card.customerId !== customerId) throw new DomainError('card_not_found', `No card ${cardId} for customer ${customerId}.`)
  return card
}

/** ACTIVE → LOCKED. Locking a LOCKED card changes nothing. */
export function lockCard (ctx: DomainContext, customerId: string, cardId: string): DebitCard {
  const card = writableCard(ctx, customerId, cardId)
  if (card.status === 'LOCKED') return card
  if (card.status !== 'ACTIVE') throw invalidState(card, 'Only an ACTIVE card can be locked')
  const at = nowIso(ctx)
  return changed(ctx, 'card.locked', card, save(ctx, cardWith(card, { status: 'LOCKED', lockedAt: at, updatedAt: at })), 'Locked')
}

/** LOCKED → ACTIVE. Unlocking an ACTIVE card changes nothing. */
export function unlockCard (ctx: DomainContext, customerId: string, cardId: string): DebitCard {
  const card = writableCard(ctx, customerId, cardId)
  if (card.status === 'ACTIVE') return card
  if (card.status !== 'LOCKED') throw invalidState(card, 'Only a LOCKED card can be unlocked')
  return changed(ctx, 'card.unlocked', card, save(ctx, cardWith(card, { status: 'ACTIVE', lockedAt: undefined, updatedAt: nowIso(ctx) })), 'Unlocked')
}

/**
 * Closes the card and issues its replacement on the same account. DAMAGED/EXPIRED keep the number
 * (and so the PIN); LOST/STOLEN get a new number and no PIN.
 */
export function reissueCard (ctx: DomainContext, customerId: string, cardId: string, request: ReissueRequest): DebitCard {
  const old = writableCard(ctx, customerId, cardId)
  if (old.form === 'VIRTUAL') rejectShippingForVirtual(request)
  checkRoomForCard(ctx, customerId)
  const sameNumber = request.reason === 'DAMAGED' || request.reason === 'EXPIRED'
  const last4 = sameNumber ? old.last4 : freshLast4(ctx, customerId)
  const replacement = issueCard(ctx, {
    customerId,
    accountId: old.accountId,
    form: old.form,
    network: old.network,
    last4,
    maskedPan: sameNumber ? old.maskedPan : maskedPan(old.maskedPan.slice(0, 6), last4),
    pinStatus: sameNumber ? old.pinStatus : 'NOT_SET',
    replacementFor: old.id,
    shipping: request
  })
  const closed = save(ctx, cardWith(old, { status: 'CLOSED', closedReason: CLOSED_REASON[request.reason], lockedAt: undefined, replacedBy: replacement.id, updatedAt: replacement.createdAt }))
  changed(ctx, 'card.closed', old, closed, `Closed (${closed.closedReason ?? ''}), replaced by ${replacement.id}`)
  return created(ctx, save(ctx, replacement), `Issued to replace ${old.id} (${request.reason})`)
}

/**
 * Idempotent: the customer's open physical card if there is one (created: false), otherwise a new
 * one on their checking account, shipped to the given address or the one on file.
 */
export function requestPhysicalCard (ctx: DomainContext, customerId: string, request: ShippingChoice): { card: DebitCard; created: boolean } {
  getWritableCustomer(ctx, customerId)
  const existing = [...ctx.state.debitCards.values()]
    .filter(c => c.customerId === customerId && c.form === 'PHYSICAL' && c.status !== 'CLOSED')
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))[0]
  if (existing !== undefined) return { card: existing, created: false }
  checkRoomForCard(ctx, customerId)
  const account = [...ctx.state.accounts.values()].find(a => a.customerId === customerId && a.type === 'CHECKING')
  if (account === undefined) throw new DomainError('account_not_found', `Customer ${customerId} has no checking account to issue a card on.`)
  const last4 = freshLast4(ctx, customerId)
  const card = issueCard(ctx, {
    customerId,
    accountId: account.id,
    form: 'PHYSICAL',
    network: 'VISA',
    last4,
    maskedPan: maskedPan(DEFAULT_BIN, last4),
    pinStatus: 'NOT_SET',
    shipping: request
  })
  return { card: created(ctx, save(ctx, card), `Physical card ordered, ${card.shipment?.method ?? ''} shipping`), created: true }
}

/** A single-use link to the PIN page for one of the customer's open cards. */
export function createSetPinLink (ctx: DomainContext, customerId: string, cardId: string): PinLink {
  return issuePinLink(ctx, writableCard(ctx, customerId, cardId))
}

// Simulations for the control plane: they act on any customer's card, as the bank's back office would.

/** PENDING_ACTIVATION → ACTIVE, as when the cardholder activates a received card. */
export function activateCard (ctx: DomainContext, cardId: string): DebitCard {
  const card = openCard(ctx, cardId)
  if (card.status !== 'PENDING_ACTIVATION') throw invalidState(card, 'Only a PENDING_ACTIVATION card can be activated')
  return changed(ctx, 'card.activated', card, save(ctx, cardWith(card, { status: 'ACTIVE', updatedAt: nowIso(ctx) })), 'Activated')
}

/** Ships an ORDERED card now instead of waiting for its ship date. */
export function shipCard (ctx: DomainContext, cardId: string): DebitCard {
  const card = openCard(ctx, cardId)
  if (card.shipment?.status !== 'ORDERED') throw invalidState(card, shipmentProblem(card, 'ORDERED'))
  const at = nowIso(ctx)
  const shipped = save(ctx, markShipped(ctx, card, at))
  ctx.events.emit(shippedEvent(card, shipped, at))
  return shipped
}

/** Delivers a card now (shipping it first if needed); delivery activates a PENDING_ACTIVATION card. */
export function deliverCard (ctx: DomainContext, cardId: string): DebitCard {
  const card = openCard(ctx, cardId)
  const status = card.shipment?.status
  if (status !== 'ORDERED' && status !== 'SHIPPED') throw invalidState(card, shipmentProblem(card, 'ORDERED or SHIPPED'))
  const at = nowIso(ctx)
  const shipped = status === 'ORDERED' ? markShipped(ctx, card, at) : card
  if (shipped !== card) ctx.events.emit(shippedEvent(card, shipped, at))
  const delivered = save(ctx, markDelivered(shipped, at))
  for (const event of deliveredEvents(shipped, delivered, at)) ctx.events.emit(event)
  return delivered
}

/** Moves shipments (delivery activates the card) and forgets old set-PIN links. */

interface NewCard {
  customerId: string
  accountId: string
  form: CardForm
  network: DebitCard['network']
  last4: string
  maskedPan: string
  pinStatus: DebitCard['pinStatus']
  replacementFor?: string
  shipping: ShippingChoice
}

/** A virtual card works at once; a physical one waits for delivery. Expiry: this month, some years out. */
function issueCard (ctx: DomainContext, spec: NewCard): DebitCard {
  const now = ctx.clock.now()
  const at = now.toISOString()
  const card: DebitCard = {
    id: ctx.ids.id('card'),
    customerId: spec.customerId,
    accountId: spec.accountId,
    form: spec.form,
    network: spec.network,
    last4: spec.last4,
    maskedPan: spec.maskedPan,
    expirationMonth: now.getUTCMonth() + 1,
    expirationYear: now.getUTCFullYear() + CARD_VALIDITY_YEARS,
    status: spec.form === 'VIRTUAL' ? 'ACTIVE' : 'PENDING_ACTIVATION',
    pinStatus: spec.pinStatus,
    createdAt: at,
    updatedAt: at
  }
  if (spec.replacementFor !== undefined) card.replacementFor = spec.replacementFor
  if (spec.form === 'PHYSICAL') {
    const address = spec.shipping.shippingAddress ?? getCustomer(ctx, spec.customerId).address
    card.shipment = orderShipment(ctx, spec.shipping.shippingMethod ?? 'STANDARD', address)
  }
  return card
}

/**
 * A customer holds at most `maxCardsPerCustomer` cards, closed ones included: a closed card stays
 * readable (the replacement names it), so a chain of reissues is capped rather than forgotten.
 * Checked before anything is drawn or changed.
 */
function checkRoomForCard (ctx: DomainContext, customerId: string): void {
  const max = ctx.settings.maxCardsPerCustomer
  let held = 0
  for (const card of ctx.state.debitCards.values()) if (card.customerId === customerId) held++
  if (held >= max) {
    throw capReached('too_many_cards',
      `Customer ${customerId} holds ${held} cards, closed ones included, the most one customer may (--max-cards ${max}, maxCards); reset the session (POST /__mock/reset) to start over.`,
      'maxCardsPerCustomer', max)
  }
}

/** New last 4 digits that none of the customer's cards has, so the cards stay tellable apart. */
function freshLast4 (ctx: DomainContext, customerId: string): string {
  const taken = new Set([...ctx.state.debitCards.values()].filter(c => c.customerId === customerId).map(c => c.last4))
  let value = Number(ctx.ids.digits(4))
  for (let i = 0; i < 10_000 && taken.has(pad4(value)); i++) value = (value + 1) % 10_000
  return pad4(value)
}

function pad4 (value: number): string {
  return String(value).padStart(4, '0')
}

function rejectShippingForVirtual (request: ReissueRequest): void {
  for (const field of ['shippingAddress', 'shippingMethod'] as const) {
    if (request[field] !== undefined) throw fieldError('invalid_field', `/${field}`, 'A virtual card is not shipped; leave this out.')
  }
}

/** The caller's card, open, and a customer allowed to change it. */
function writableCard (ctx: DomainContext, customerId: string, cardId: string): DebitCard {
  const card = getCard(ctx, customerId, cardId)
  getWritableCustomer(ctx, customerId)
  if (card.status === 'CLOSED') throw closedCard(card)
  return card
}

function openCard (ctx: DomainContext, cardId: string): DebitCard {
  const card = ctx.state.debitCards.get(cardId)
  if (card === undefined) throw new DomainError('card_not_found', `No card ${cardId}.`)
  if (card.status === 'CLOSED') throw closedCard(card)
  return card
}

function save (ctx: DomainContext, card: DebitCard): DebitCard {
  ctx.state.debitCards.set(card.id, card)
  return card
}

function closedCard (card: DebitCard): DomainError {
  return new DomainError('card_closed', `Card ${card.id} is closed${card.closedReason === undefined ? '' : ` (${card.closedReason})`}; closed cards cannot change.`, {
    extensions: { cardStatus: card.status }
  })
}

function invalidState (card: DebitCard, why: string): DomainError {
  return new DomainError('invalid_card_state', `${why}; card ${card.id} is ${card.status}.`, { extensions: { cardStatus: card.status } })
}

function shipmentProblem (card: DebitCard, wanted: string): string {
  return card.shipment === undefined ? 'The card has no shipment' : `The shipment must be ${wanted}, it is ${card.shipment.status}`
}
