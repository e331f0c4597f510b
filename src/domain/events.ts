/**
 * What happened in a world, as data: every state change makes one event (a card locked, a
 * transfer ran). The domain only describes them; the world stamps them with ids, keeps them and
 * hands them to the webhook dispatcher. One vocabulary: the clock-advance answer, the event log and
 * the webhooks all use these types.
 */
export const EVENT_TYPES = [
  'customer.updated',
  'card.created', 'card.locked', 'card.unlocked', 'card.closed', 'card.shipped', 'card.delivered', 'card.activated', 'card.pin_set',
  'statement.created', 'statement.sent',
  'phone_verification.code_sent', 'phone_verification.approved', 'phone_verification.expired',
  'scheduled_transfer.created', 'scheduled_transfer.updated', 'scheduled_transfer.cancelled', 'scheduled_transfer.deleted',
  'scheduled_transfer.execution_succeeded', 'scheduled_transfer.execution_failed', 'scheduled_transfer.completed',
  'scheduled_transfer.execution_settled', 'scheduled_transfer.execution_returned'
] as const

export type EventType = (typeof EVENT_TYPES)[number]

export function isEventType (value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value)
}

export interface DomainEvent {
  type: EventType
  /** The instant of the world's clock it happened: now for a request, the instant it fell due for the clock. */
  at: string
  /** The resource it is about. */
  entityId: string
  /**
   * The resource after the change, as the domain holds it (a copy where the domain goes on
   * mutating it); the world presents it as the API answers it, masked the same way.
   */
  data: object
  /** On an update: the changed fields' values before it (null for a field that was absent). */
  previousAttributes?: Record<string, unknown>
  /** One line for a person (the clock-advance answer, the dashboard). */
  detail: string
}

/** Where operations put the events they make; the world records them as they come. */
export interface EventSink {
  emit (event: DomainEvent): void
}

/**
 * An update's event, its `previousAttributes` undefined when nothing it reports changed. One
 * literal with every field, in the order the other emitters use: a spread made a temporary object
 * and copied it, and a field added afterwards would give the object a second layout.
 */
export function updateEvent (type: EventType, at: string, entityId: string, data: object, previous: Record<string, unknown> | undefined, detail: string): DomainEvent {
  return { type, at, entityId, data, previousAttributes: previous, detail }
}

/**
 * The previous values of the `fields` that differ between `before` and `after`, and `updatedAt`
 * whenever one of them did (a receiver syncing on previousAttributes must see every field that
 * changed); undefined when none of `fields` did (a no-op update that only stamped updatedAt).
 */
export function previousAttributes<T extends object> (before: T, after: T, fields: readonly (keyof T & string)[]): Record<string, unknown> | undefined {
  let previous: Record<string, unknown> | undefined
  for (const field of fields) {
    const was = before[field]
    const now = after[field]
    if (was === now || (typeof was === 'object' && typeof now === 'object' && JSON.stringify(was) === JSON.stringify(now))) continue
    previous ??= {}
    previous[field] = was === undefined ? null : was
  }
  return previous === undefined ? undefined : withUpdatedAt(before, after, previous)
}

/** `previous` with the entity's earlier `updatedAt` when the change moved it. */
export function withUpdatedAt (before: object, after: object, previous: Record<string, unknown>): Record<string, unknown> {
  const was = (before as { updatedAt?: unknown }).updatedAt
  if (was !== undefined && was !== (after as { updatedAt?: unknown }).updatedAt) previous.updatedAt = was
  return previous
}
