import { Type } from 'typebox'
import type { DomainEvent, EventType } from '../domain/events.js'
import type { EventOverrides } from '../fixtures/events.js'
import type { EventPresentation, EventView } from '../world/event-log.js'
import { lazySerializerFactory } from './serializers.js'
import { SERIALIZED_AS, SHARED_SCHEMAS } from './schemas/index.js'
import { Statement } from './schemas/statement.js'

/**
 * The API schema each event's `data` is written with: the resource as the API answers it, by the
 * same serializer, so masking and field order are the answers' own (a card's maskedPan, an ACH
 * counterparty's last 4 digits, a transfer without its internal fields).
 */
export const EVENT_DATA_SCHEMAS: Readonly<Record<EventType, string>> = {
  'customer.updated': 'Customer',
  'card.created': 'DebitCard',
  'card.locked': 'DebitCard',
  'card.unlocked': 'DebitCard',
  'card.closed': 'DebitCard',
  'card.shipped': 'DebitCard',
  'card.delivered': 'DebitCard',
  'card.activated': 'DebitCard',
  'card.pin_set': 'DebitCard',
  'statement.created': 'Statement',
  'statement.sent': 'StatementEmailAck',
  'phone_verification.code_sent': 'SendCodeResponse',
  'phone_verification.approved': 'VerifyCodeResponse',
  'phone_verification.expired': 'SendCodeResponse',
  'scheduled_transfer.created': 'ScheduledTransfer',
  'scheduled_transfer.updated': 'ScheduledTransfer',
  'scheduled_transfer.cancelled': 'ScheduledTransfer',
  'scheduled_transfer.deleted': 'ScheduledTransfer',
  'scheduled_transfer.execution_succeeded': 'ScheduledTransfer',
  'scheduled_transfer.execution_failed': 'ScheduledTransfer',
  'scheduled_transfer.completed': 'ScheduledTransfer',
  'scheduled_transfer.execution_settled': 'ScheduledTransfer',
  'scheduled_transfer.execution_returned': 'ScheduledTransfer'
}

type Serialize = (data: unknown) => string

/** Events presented with the API's serializers, reshaped or silenced by the fixtures' event overrides. */
export function createEventPresentation (overrides: EventOverrides, views?: (scenario: string) => EventView | undefined): EventPresentation {
  const shared: Record<string, unknown> = {}
  // Statement is no answer of the API, so it is not among the contract's shared schemas.
  for (const schema of [...SHARED_SCHEMAS, Statement]) shared[(schema as { $id: string }).$id] = schema
  const serializerOf = lazySerializerFactory(SERIALIZED_AS)(shared as never, {} as never)
  const serializers = new Map<string, Serialize>()
  const serializerFor = (schemaId: string): Serialize => {
    let serialize = serializers.get(schemaId)
    if (serialize === undefined) {
      serialize = serializerOf({ schema: Type.Ref(schemaId), method: 'POST', url: '/__mock/webhooks/events', httpStatus: '200' } as never) as Serialize
      serializers.set(schemaId, serialize)
    }
    return serialize
  }
  return {
    data: (event: DomainEvent) => serializerFor(EVENT_DATA_SCHEMAS[event.type])(event.data),
    override: (scenario, type) => overrides.for(scenario, type),
    ...(views === undefined ? {} : { view: views })
  }
}
