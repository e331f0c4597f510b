import { clockRoutes } from './clock.js'
import { envRoutes } from './env.js'
import { eventRoutes } from './events.js'
import { faultRoutes } from './faults.js'
import { journalRoutes } from './journal.js'
import { outboxRoutes } from './outbox.js'
import { sessionRoutes } from './sessions.js'
import { pinRoutes } from './pin.js'
import { scenarioRoutes } from './scenarios.js'
import { simulationRoutes } from './simulations.js'
import { stateRoutes } from './state.js'
import { uiRoutes } from './ui.js'
import { webhookEventRoutes } from './webhook-events.js'
import { webhookEndpointRoutes } from './webhook-endpoints.js'
import { webhookDeliveryRoutes } from './webhook-deliveries.js'
import type { ControlRoute } from './route.js'

/** Every route of the control plane (`/__mock`), transport-free. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...stateRoutes, ...scenarioRoutes, ...envRoutes, ...simulationRoutes, ...pinRoutes, ...clockRoutes, ...journalRoutes, ...outboxRoutes, ...faultRoutes, ...sessionRoutes,
  ...eventRoutes, ...uiRoutes(), ...webhookEventRoutes, ...webhookEndpointRoutes, ...webhookDeliveryRoutes
]
