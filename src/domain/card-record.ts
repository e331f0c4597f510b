import type { DebitCard } from './model.js'

/**
 * `card` with `changes` applied, built as one object literal with one property order; a change
 * given as `undefined` removes an optional field. The obvious `{ ...card, lockedAt }` (a spread,
 * then a property the source lacks) makes V8 mint a new hidden class at every lock: about a
 * microsecond each, and every reader of cards (the serializer, the journal) goes megamorphic.
 * Built this way, all cards share a few shapes. test/domain/card-record.test.ts fails to compile
 * when DebitCard gains a field, so a new one cannot be silently dropped here.
 */
export function cardWith (card: DebitCard, changes: Partial<DebitCard> = {}): DebitCard {
  const next: DebitCard = {
    id: changes.id ?? card.id,
    customerId: changes.customerId ?? card.customerId,
    accountId: changes.accountId ?? card.accountId,
    form: changes.form ?? card.form,
    network: changes.network ?? card.network,
    last4: changes.last4 ?? card.last4,
    maskedPan: changes.maskedPan ?? card.maskedPan,
    expirationMonth: changes.expirationMonth ?? card.expirationMonth,
    expirationYear: changes.expirationYear ?? card.expirationYear,
    status: changes.status ?? card.status,
    pinStatus: changes.pinStatus ?? card.pinStatus,
    createdAt: changes.createdAt ?? card.createdAt,
    updatedAt: changes.updatedAt ?? card.updatedAt
  }
  const closedReason = 'closedReason' in changes ? changes.closedReason : card.closedReason
  if (closedReason !== undefined) next.closedReason = closedReason
  const lockedAt = 'lockedAt' in changes ? changes.lockedAt : card.lockedAt
  if (lockedAt !== undefined) next.lockedAt = lockedAt
  const replacementFor = 'replacementFor' in changes ? changes.replacementFor : card.replacementFor
  if (replacementFor !== undefined) next.replacementFor = replacementFor
  const replacedBy = 'replacedBy' in changes ? changes.replacedBy : card.replacedBy
  if (replacedBy !== undefined) next.replacedBy = replacedBy
  const shipment = 'shipment' in changes ? changes.shipment : card.shipment
  if (shipment !== undefined) next.shipment = shipment
  return next
}
