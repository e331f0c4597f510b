import type { Dialects } from '../fixtures/dialect.js'
import type { DomainEvent } from '../domain/events.js'
import type { EventView, SecretView, StateView } from '../core/dialect-hooks.js'
import type { FieldPath } from '../core/secret-fields.js'
import { pointerOf, pointerTokens } from './mock-schemas.js'
import { EVENT_DATA_SCHEMAS } from '../core/event-presentation.js'
import { compileDialect, compileRequest, type CompiledShape } from './compile.js'

/** One scenario's dialect, compiled: its shapes by the mock's schema name, its request shapes by operation id. */
export interface ScenarioDialect {
  shapes: ReadonlyMap<string, CompiledShape>
  requests: ReadonlyMap<string, CompiledShape>
  /** Operations whose request shape says `merge: true` (a partial update). */
  merges: ReadonlySet<string>
  /** The error shape; undefined: problems stay application/problem+json. */
  problem: CompiledShape | undefined
}

/** Operations whose body is a resource: without a request shape of their own, they read the inverse of its shape. */
export const RESOURCE_BODIES: Readonly<Record<string, string>> = {
  updateCustomer: 'Customer',
  createInternalScheduledTransfer: 'ScheduledTransfer',
  createAchScheduledTransfer: 'ScheduledTransfer',
  updateScheduledTransfer: 'ScheduledTransfer'
}

const COMPILED = new WeakMap<Dialects, Map<string, ScenarioDialect>>()

/** Every scenario's dialect, compiled once per loaded set. */
export function compiledDialects (dialects: Dialects): ReadonlyMap<string, ScenarioDialect> {
  let found = COMPILED.get(dialects)
  if (found === undefined) {
    found = new Map()
    for (const scenario of dialects.scenarios()) {
      const file = dialects.for(scenario)
      if (file === undefined) continue
      const shapes = compileDialect(file)
      const requests = new Map(Object.entries(file.requests ?? {}).map(([id, request]) => [id, compileRequest(request)]))
      const merges = new Set(Object.entries(file.requests ?? {}).filter(([, request]) => request.merge === true).map(([id]) => id))
      found.set(scenario, { shapes, requests, merges, problem: shapes.get('Problem') })
    }
    COMPILED.set(dialects, found)
  }
  return found
}

/** The shape a request body of `operationId` is read through; undefined: read as the mock's own. */
export function requestReader (dialect: ScenarioDialect, operationId: string): CompiledShape | undefined {
  const own = dialect.requests.get(operationId)
  if (own !== undefined) return own
  const resource = RESOURCE_BODIES[operationId]
  return resource === undefined ? undefined : dialect.shapes.get(resource)
}

/**
 * How a scenario's webhook events look in its dialect: `data` through the shape of its resource
 * (no envelope: it is the event's field, not a whole answer), previousAttributes through the same
 * shape, with only the fields it holds. Undefined when the scenario has no dialect.
 */
export function eventViews (dialects: Dialects): (scenario: string) => EventView | undefined {
  const byScenario = new Map<string, EventView>()
  for (const [scenario, dialect] of compiledDialects(dialects)) {
    const shapeOf = (event: DomainEvent): CompiledShape | undefined => dialect.shapes.get(EVENT_DATA_SCHEMAS[event.type])
    byScenario.set(scenario, {
      data: event => {
        const shape = shapeOf(event)
        return shape === undefined ? undefined : JSON.stringify(shape.render(event.data, false))
      },
      previousAttributes: event => {
        const shape = shapeOf(event)
        if (event.previousAttributes === undefined || shape === undefined) return event.previousAttributes
        return shape.renderPrevious(event.previousAttributes) ?? {}
      }
    })
  }
  return scenario => byScenario.get(scenario)
}

/** Where the control plane's snapshot keeps which kind of entity, and the shape that shows it. */
const SNAPSHOT_SHAPES: Readonly<Record<string, string>> = {
  customers: 'Customer', debitCards: 'DebitCard', statements: 'Statement', scheduledTransfers: 'ScheduledTransfer'
}

/** The dashboard's raw view: a snapshot's entities as the scenario's dialect shows them (no envelope), the rest as the mock's. */
export function stateViews (dialects: Dialects): StateView {
  const compiled = compiledDialects(dialects)
  return (scenario, snapshot) => {
    const dialect = compiled.get(scenario)
    if (dialect === undefined) return snapshot
    const shaped: Record<string, unknown> = { ...snapshot }
    for (const [key, name] of Object.entries(SNAPSHOT_SHAPES)) {
      const shape = dialect.shapes.get(name)
      const list = snapshot[key]
      if (shape !== undefined && Array.isArray(list)) shaped[key] = list.map(item => shape.render(item, false))
    }
    return shaped
  }
}

/**
 * Where an operation's secret fields sit in a body sent in a scenario's dialect: each mock path at
 * the team's pointer the request shape maps it from, beside the mock's own (see journal-exchange).
 * Worked out once per scenario and operation.
 */
export function secretViews (dialects: Dialects): SecretView {
  const compiled = compiledDialects(dialects)
  const found = new Map<string, readonly FieldPath[] | undefined>()
  return (scenario, operationId, fields) => {
    const key = `${scenario}\u0000${operationId}`
    if (found.has(key)) return found.get(key)
    const dialect = compiled.get(scenario)
    const reader = dialect === undefined ? undefined : requestReader(dialect, operationId)
    let paths: readonly FieldPath[] | undefined
    if (reader !== undefined) {
      const team: FieldPath[] = [...fields]
      for (const field of fields) {
        const pointer = reader.teamPointer(pointerOf(field))
        if (pointer !== undefined) team.push(pointerTokens(pointer))
      }
      paths = team
    }
    found.set(key, paths)
    return paths
  }
}
