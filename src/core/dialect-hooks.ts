import type { EventView } from '../world/event-log.js'

export type { EventView }

/**
 * What the core and the world below it need of a team's dialect (src/dialect), handed down as
 * functions so that nothing below imports it, as events.yaml overrides reach the event log.
 */

/** The control plane's snapshot as a scenario's dialect shows it (the dashboard's raw view). */
export type StateView = (scenario: string, snapshot: Record<string, unknown>) => Record<string, unknown>

/** Made from the dialects loadCore loaded. */
export interface DialectHooks {
  events: (scenario: string) => EventView | undefined
  state: StateView
}
