import { envRoutes } from '../../routes/mock/env.js'
import { pinRoutes } from '../../routes/mock/pin.js'
import { scenarioRoutes } from '../../routes/mock/scenarios.js'
import { simulationRoutes } from '../../routes/mock/simulations.js'
import { stateRoutes } from '../../routes/mock/state.js'
import type { ControlRoute } from './route.js'

/** Every route of the control plane (`/__mock`), transport-free. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...stateRoutes, ...scenarioRoutes, ...envRoutes, ...simulationRoutes, ...pinRoutes
]
