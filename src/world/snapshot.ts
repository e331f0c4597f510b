import type { World } from './world.js'

/** The whole world as JSON, for `GET /__mock/state` and the dashboard. */
export function snapshot (world: World): Record<string, unknown> {
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
