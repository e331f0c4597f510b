import type { DomainContext } from './context.js'
import { previousAttributes, updateEvent, type EventType } from './events.js'
import type { DebitCard } from './model.js'

/** The fields a card event reports the earlier values of. */
const CARD_FIELDS = ['status', 'closedReason', 'lockedAt', 'pinStatus', 'replacedBy', 'shipment'] as const

/** Reports the change of `before` into `after` (stored already); answers `after`. */
export function changed (ctx: DomainContext, type: EventType, before: DebitCard, after: DebitCard, detail: string): DebitCard {
  ctx.events.emit(updateEvent(type, after.updatedAt, after.id, after, previousAttributes(before, after, CARD_FIELDS), detail))
  return after
}

/** Reports a new card (stored already); answers it. */
export function created (ctx: DomainContext, card: DebitCard, detail: string): DebitCard {
  ctx.events.emit({ type: 'card.created', at: card.createdAt, entityId: card.id, data: card, detail })
  return card
}
