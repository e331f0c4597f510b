import { runDue, runInstantDue } from '../domain/due.js'
import { DEFAULT_SETTINGS, emptyState, type Clock, type DomainContext, type DomainSettings, type WorldState } from '../domain/context.js'
import type { TimelineEvent } from '../domain/timeline.js'
import type { DomainEvent } from '../domain/events.js'
import type { Account, Customer, DebitCard, Statement } from '../domain/model.js'
import { cardWith } from '../domain/card-record.js'
import { maskedPan } from '../domain/masking.js'
import { beginStatementHistory, type BalancesToDerive } from '../domain/statement-history.js'
import { dayAfter, inclusivePeriodEnd } from '../domain/statement-cycle.js'
import type { FixtureSet } from '../fixtures/loader.js'
import { resolveDeep } from '../fixtures/relative-dates.js'
import { VirtualClock, type ClockData } from './clock.js'
import { createIdSource, type SessionIdSource } from './ids.js'
import { restoreScheduledTransfer, type TransferFixture } from './scheduled-transfer-fixtures.js'
import { BoundedOutbox } from './outbox.js'
import { nextRevision } from './revision.js'

export interface WorldOptions {
  scenario: string
  /** Frozen start instant (`--now`); otherwise the clock follows real time. */
  now?: Date | undefined
  seed?: number | undefined
  sessionId: string
  outboxCap: number
  settings?: DomainSettings | undefined
  /** Who records the world's events (its session's log), as they happen; without one they are dropped. */
  onEvents?: ((events: readonly DomainEvent[], scenario: string) => void) | undefined
}

/**
 * A world as a store keeps it, plain JSON: every entity map as its entries (in order, so a restored
 * world answers the same bytes), the clock, the seeded ids' position. The outbox is a part of its own.
 */
export interface WorldData {
  scenario: string
  startedAt: string
  defaultCustomerId: string
  tokens: Array<[string, string]>
  clock: ClockData
  ids: readonly number[] | null
  state: { [K in keyof WorldState]: Array<[string, WorldState[K] extends Map<string, infer V> ? V : never]> }
}


/** One isolated world: entities, clock, outbox, personas. A session owns exactly one. */
export class World {
  readonly ctx: DomainContext
  readonly clock: VirtualClock
  readonly outbox: BoundedOutbox
  readonly ids: SessionIdSource
  /** Bearer token → customer id. */
  readonly tokens: Map<string, string>
  readonly defaultCustomerId: string
  readonly scenario: string
  readonly startedAt: Date

  /** UTC day (epoch days) the daily processors last ran for, and whether the world was written since. */
  private settledDay = Number.NaN
  private changed = true
  private readonly onEvents: WorldOptions['onEvents']
  /** Bumped when due work or an advance changed the world outside a write request, so a store saves it then too. */
  private changes = nextRevision()

  /** Made from a scenario's fixtures, or restored from what a store kept (`{ restore }`). */
  constructor (source: FixtureSet | { restore: WorldData }, options: WorldOptions) {
    const restored = 'restore' in source ? source.restore : undefined
    this.clock = new VirtualClock(options.now)
    if (restored !== undefined) this.clock.restore(restored.clock)
    this.startedAt = restored === undefined ? this.clock.now() : new Date(restored.startedAt)
    this.ids = createIdSource(options.seed, options.sessionId, restored?.ids)
    this.outbox = new BoundedOutbox(options.outboxCap, this.clock, this.ids)
    this.scenario = restored?.scenario ?? options.scenario
    const { state, tokens, defaultCustomerId, deriveBalances } = 'restore' in source ? unpack(source.restore) : materialize(source, this.startedAt)
    this.tokens = tokens
    this.defaultCustomerId = defaultCustomerId
    this.onEvents = options.onEvents
    this.ctx = { state, clock: this.clock, ids: this.ids, outbox: this.outbox, settings: options.settings ?? DEFAULT_SETTINGS, events: { emit: event => this.recordAll([event]) } }
    // The persona's past statements up to the clock: history, not news, so no events. A restored world has its history.
    if (restored === undefined) beginStatementHistory(this.ctx, deriveBalances)
  }

  private recordAll (events: readonly DomainEvent[]): void {
    if (events.length > 0) this.onEvents?.(events, this.scenario)
  }

  /** What due work did outside a write request: recorded, and a store saves the world then too. */
  private recordChanges (fired: readonly DomainEvent[]): void {
    if (fired.length === 0) return
    this.changes = nextRevision()
    this.recordAll(fired)
  }

  get revision (): number {
    return this.changes
  }

  /** The world as a store keeps it (the outbox apart). */
  toData (): WorldData {
    const { state } = this.ctx
    return {
      scenario: this.scenario,
      startedAt: this.startedAt.toISOString(),
      defaultCustomerId: this.defaultCustomerId,
      tokens: [...this.tokens],
      clock: this.clock.snapshot(),
      ids: this.ids.state(),
      state: {
        customers: [...state.customers],
        accounts: [...state.accounts],
        debitCards: [...state.debitCards],
        statements: [...state.statements],
        statementCycles: [...state.statementCycles],
        scheduledTransfers: [...state.scheduledTransfers],
        phoneVerifications: [...state.phoneVerifications],
        phoneSendLog: [...state.phoneSendLog],
        pinLinks: [...state.pinLinks]
      }
    }
  }

  /** Something may have been written: the next settle runs every processor. */
  markChanged (): void {
    this.changed = true
  }

  /**
   * Moves the clock to `target` and applies what falls due on the way, all or nothing: the work is
   * done on a copy of the state with a clock standing at `target`, and only once it has finished
   * are the clock moved and the copy put in place. Nothing a processor throws leaves the world
   * half-advanced (only the id source, shared, may have drawn a tracking number). The caller bounds
   * the work first (see advance-budget.ts).
   */
  advanceTo (target: Date): TimelineEvent[] {
    const at = target.getTime()
    const standing: Clock = { now: () => new Date(at), nowMs: () => at }
    // Processors return their events rather than emit them: they are recorded once the advance has succeeded.
    const draft: DomainContext = { ...this.ctx, state: structuredClone(this.ctx.state), clock: standing, events: { emit: () => {} } }
    const fired = runDue(draft, target)
    // A running clock may have passed `target` while the work was done: it never goes back.
    this.clock.advanceTo(new Date(Math.max(at, this.clock.nowMs())))
    Object.assign(this.ctx.state, draft.state)
    this.changes = nextRevision()
    this.changed = false
    this.settledDay = Math.floor(at / 86_400_000)
    this.recordAll(fired)
    return fired
  }

  /**
   * Brings the world up to its clock before a request. Shipments and transfers only fall due at
   * day boundaries, so within a day and with no write since, only instant expiries are checked.
   */
  settle (): void {
    const now = this.clock.nowMs()
    const day = Math.floor(now / 86_400_000)
    if (this.changed || day !== this.settledDay) {
      this.changed = false
      this.settledDay = day
      this.recordChanges(runDue(this.ctx, new Date(now)))
    } else {
      this.recordChanges(runInstantDue(this.ctx, new Date(now)))
    }
  }
}

interface Materialized {
  state: WorldState
  tokens: Map<string, string>
  defaultCustomerId: string
  /** Fixture statements written without a balance: worked out from the accounts and executions. */
  deriveBalances: Map<string, BalancesToDerive>
}

/** A world from what a store kept: its statements are history already, nothing to derive. */
function unpack (data: WorldData): Materialized {
  const { state } = data
  return {
    state: {
      customers: new Map(state.customers),
      accounts: new Map(state.accounts),
      debitCards: new Map(state.debitCards),
      statements: new Map(state.statements),
      statementCycles: new Map(state.statementCycles),
      scheduledTransfers: new Map(state.scheduledTransfers),
      phoneVerifications: new Map(state.phoneVerifications),
      phoneSendLog: new Map(state.phoneSendLog),
      pinLinks: new Map(state.pinLinks)
    },
    tokens: new Map(data.tokens),
    defaultCustomerId: data.defaultCustomerId,
    deriveBalances: new Map()
  }
}

function materialize (fixtures: FixtureSet, start: Date): Materialized {
  const set = resolveDeep(fixtures, start)
  const now = start.toISOString()
  const state = emptyState()
  const tokens = new Map<string, string>()
  for (const { tokens: own, tokenHashes, persona: _p, description: _d, default: _default, ...c } of set.customers) {
    const customer: Customer = { phoneVerified: false, status: 'ACTIVE', createdAt: now, updatedAt: now, ...c }
    state.customers.set(customer.id, customer)
    for (const token of own) tokens.set(token, customer.id)
    for (const hash of tokenHashes ?? []) tokens.set(hash, customer.id)
  }
  const defaultCustomerId = (set.customers.find(c => c.default === true) ?? set.customers[0])?.id ?? ''
  for (const a of set.accounts) {
    const account: Account = { currency: 'USD', ...a }
    state.accounts.set(account.id, account)
  }
  for (const { bin, ...c } of set['debit-cards']) {
    const card = cardWith({
      network: 'VISA', pinStatus: 'NOT_SET', createdAt: now, updatedAt: now, ...c,
      maskedPan: maskedPan(bin ?? '411111', c.last4)
    } as DebitCard)
    state.debitCards.set(card.id, card)
  }
  const deriveBalances = new Map<string, BalancesToDerive>()
  for (const { openingBalance, closingBalance, ...s } of set.statements) {
    const customerId = s.customerId ?? state.accounts.get(s.accountId)?.customerId ?? ''
    if (openingBalance === undefined || closingBalance === undefined) deriveBalances.set(s.id, { opening: openingBalance === undefined, closing: closingBalance === undefined })
    const periodEnd = inclusivePeriodEnd(s.periodStart, s.periodEnd)
    const statement: Statement = {
      currency: 'USD', createdAt: `${dayAfter(periodEnd)}T06:00:00.000Z`, ...s, periodEnd, customerId, openingBalance: openingBalance ?? 0, closingBalance: closingBalance ?? 0
    }
    state.statements.set(statement.id, statement)
  }
  for (const x of set['scheduled-transfers']) {
    state.scheduledTransfers.set(x.id, restoreScheduledTransfer(x as unknown as TransferFixture, now.slice(0, 10), now))
  }
  return { state, tokens, defaultCustomerId, deriveBalances }
}
