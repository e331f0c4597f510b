import type {
  Account, Customer, DebitCard, OutboxMessage, PhoneVerification, PinLink, ScheduledTransfer, Statement, StatementCycle
} from './model.js'
import type { EventSink } from './events.js'
import { isoAt } from './iso-time.js'

/** Everything one isolated mock world holds. Mutated only through domain functions. */
export interface WorldState {
  customers: Map<string, Customer>
  accounts: Map<string, Account>
  debitCards: Map<string, DebitCard>
  statements: Map<string, Statement>
  /** Per account id: its open statement period (statement-cycle.ts). */
  statementCycles: Map<string, StatementCycle>
  scheduledTransfers: Map<string, ScheduledTransfer>
  phoneVerifications: Map<string, PhoneVerification>
  /** Send instants (epoch ms) per phone number, for the per-number send limit. */
  phoneSendLog: Map<string, number[]>
  pinLinks: Map<string, PinLink>
}

/** The virtual clock of a world. Domain code reads time only from here. */
export interface Clock {
  now (): Date
  nowMs (): number
}

export type IdPrefix = 'cus' | 'card' | 'stmt' | 'acct' | 'sxfer' | 'ver' | 'msg' | 'pin'

/** Injected so that tests and `--seed` runs get reproducible ids and codes. */
export interface IdSource {
  id (prefix: IdPrefix): string
  /** A numeric code of `digits` digits (MFA codes, card numbers). */
  digits (count: number): string
  /** An opaque URL-safe token (PIN links, tracking numbers). */
  token (length: number): string
}

/** Where the mock "sends" e-mails and SMS. */
export interface Outbox {
  deliver (message: Omit<OutboxMessage, 'id' | 'sentAt'>): OutboxMessage
}

export interface VerificationSettings {
  codeLength: number
  ttlSeconds: number
  maxChecks: number
  resendCooldownSeconds: number
  maxSendsPerWindow: number
  sendWindowSeconds: number
  /** When set, every code is this value (CI determinism). */
  fixedCode?: string | undefined
  /**
   * Phone numbers one world keeps verification state for (a code, or sends the limits still
   * count): sending to a new number past it forgets a number with no pending code, or is refused.
   */
  maxVerifications: number
}

export interface DomainSettings {
  verification: VerificationSettings
  pinLinkTtlSeconds: number
  /** Set-PIN links one world keeps (live, used or expired); see pin-link.ts. */
  maxPinLinks: number
  /** Cards one customer may hold, closed ones included (a reissue closes one and adds one). */
  maxCardsPerCustomer: number
  /** Upper bound of a single transfer amount, minor units. */
  maxTransferAmount: number
  /** Business days from order to shipped, and from shipped to delivered (standard shipping). */
  shipping: { daysToShip: number; daysToDeliver: number }
}

export const DEFAULT_SETTINGS: DomainSettings = {
  verification: {
    codeLength: 6,
    ttlSeconds: 600,
    maxChecks: 5,
    resendCooldownSeconds: 30,
    maxSendsPerWindow: 5,
    sendWindowSeconds: 600,
    maxVerifications: 20
  },
  pinLinkTtlSeconds: 300,
  maxPinLinks: 100,
  maxCardsPerCustomer: 50,
  maxTransferAmount: 2_500_000,
  shipping: { daysToShip: 1, daysToDeliver: 4 }
}

export interface DomainContext {
  readonly state: WorldState
  readonly clock: Clock
  readonly ids: IdSource
  readonly outbox: Outbox
  readonly settings: DomainSettings
  /** Where operations report what they changed (see events.ts). */
  readonly events: EventSink
}

export function emptyState (): WorldState {
  return {
    customers: new Map(),
    accounts: new Map(),
    debitCards: new Map(),
    statements: new Map(),
    statementCycles: new Map(),
    scheduledTransfers: new Map(),
    phoneVerifications: new Map(),
    phoneSendLog: new Map(),
    pinLinks: new Map()
  }
}

export function nowIso (ctx: DomainContext): string {
  return isoAt(ctx.clock.nowMs())
}

/** The world's current calendar date (UTC), YYYY-MM-DD. */
export function today (ctx: DomainContext): string {
  return nowIso(ctx).slice(0, 10)
}
