import { envRoutes } from './env.js'
import { pinRoutes } from './pin.js'
import { scenarioRoutes } from './scenarios.js'
import { simulationRoutes } from './simulations.js'
import { stateRoutes } from './state.js'
import type { ControlRoute } from './route.js'

/** Every route of the control plane (`/__mock`), transport-free. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...stateRoutes, ...scenarioRoutes, ...envRoutes, ...simulationRoutes, ...pinRoutes
]
