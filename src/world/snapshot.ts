import type { World } from './world.js'
import type { Account, Customer, DebitCard, OutboxMessage, PhoneVerification, PinLink, ScheduledTransfer, Statement } from '../domain/model.js'

/** The whole world as `GET /__mock/state` answers it, typed from the domain model the API's schemas take their fields from. */
export interface WorldSnapshot {
  scenario: string
  now: string
  defaultCustomerId: string
  personas: Array<{ token: string; customerId: string }>
  customers: Customer[]
  accounts: Account[]
  debitCards: DebitCard[]
  statements: Statement[]
  scheduledTransfers: Array<Omit<ScheduledTransfer, 'nextIndex'>>
  phoneVerifications: PhoneVerification[]
  pinLinks: PinLink[]
  outbox: OutboxMessage[]
}

/** The whole world as JSON, for `GET /__mock/state` and the dashboard. */
export function snapshot (world: World): WorldSnapshot {
  const { state } = world.ctx
  return {
    scenario: world.scenario,
    now: world.clock.now().toISOString(),
    defaultCustomerId: world.defaultCustomerId,
    personas: [...world.tokens].map(([token, customerId]) => ({ token, customerId })),
    customers: [...state.customers.values()],
    accounts: [...state.accounts.values()],
    debitCards: [...state.debitCards.values()],
    statements: [...state.statements.values()],
    scheduledTransfers: [...state.scheduledTransfers.values()].map(({ nextIndex: _n, ...rest }) => rest),
    phoneVerifications: [...state.phoneVerifications.values()],
    pinLinks: [...state.pinLinks.values()],
    outbox: world.outbox.list()
  }
}
