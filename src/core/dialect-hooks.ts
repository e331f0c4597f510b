import type { EventView } from '../world/event-log.js'
import type { FieldPath } from './secret-fields.js'

export type { EventView }

/**
 * What the core and the world below it need of a team's dialect (src/dialect), handed down as
 * functions so that nothing below imports it, as events.yaml overrides reach the event log.
 */

/** The control plane's snapshot as a scenario's dialect shows it (the dashboard's raw view). */
export type StateView = (scenario: string, snapshot: Record<string, unknown>) => Record<string, unknown>

/**
 * Where an operation's secret fields (writeOnly: a verification code, a PIN) sit in a body sent in
 * a scenario's dialect, given where they sit in the mock's own body: the journal redacts the body
 * the team sent. Undefined when the scenario has no dialect or reads the mock's own body.
 */
export type SecretView = (scenario: string, operationId: string, fields: readonly FieldPath[]) => readonly FieldPath[] | undefined

/** Made from the dialects loadCore loaded. */
export interface DialectHooks {
  events: (scenario: string) => EventView | undefined
  state: StateView
  secrets: SecretView
}
