import type { Static } from 'typebox'
import type { JournalEntry } from './journal.js'
import type { LatestCode, OutboxMessageSchema } from './outbox.js'
import type { AdvanceResult, ClockState } from './clock.js'
import type { FaultRequest, FaultRuleSchema } from './faults.js'
import type { WebhookEventSchema } from './webhook-events.js'
import type { DeliverySchema } from './webhook-deliveries.js'

/**
 * What the control plane answers, as types from the same schemas its routes validate and serve
 * (GET /openapi.json): a test reading `session.journal.list()` gets fields, not `unknown`.
 */
export type JournalEntry = Static<typeof JournalEntry>
export type OutboxMessage = Static<typeof OutboxMessageSchema>
export type LatestCode = Static<typeof LatestCode>
export type ClockState = Static<typeof ClockState>
export type AdvanceResult = Static<typeof AdvanceResult>
/** One thing that came due in an advance (a transfer run, a shipment, an expiry). */
export type FiredEvent = AdvanceResult['fired'][number]
export type FaultRequest = Static<typeof FaultRequest>
export type FaultRule = Static<typeof FaultRuleSchema>
export type WebhookEvent = Static<typeof WebhookEventSchema>
export type WebhookDelivery = Static<typeof DeliverySchema>
