import { stateRoutes } from '../../routes/mock/state.js'
import type { ControlRoute } from './route.js'

/** Every route of the control plane (`/__mock`), transport-free. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...stateRoutes
]
