import { Type } from 'typebox'
import type { Scenario } from '../fixtures/loader.js'
import { controlRoute, type ControlRoute } from './route.js'
import type { CoreServices } from '../core/services.js'
import { CONTROL_TAGS, responses } from './schemas.js'

const ScenarioSummary = Type.Object({
  name: Type.String(),
  description: Type.String(),
  active: Type.Boolean({ description: 'New sessions start from it (--scenario)' }),
  personas: Type.Array(Type.Object({
    customerId: Type.String(),
    name: Type.String(),
    persona: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    tokens: Type.Array(Type.String()),
    default: Type.Boolean({ description: 'Answers when no known token is sent (open auth)' })
  })),
  counts: Type.Object({
    customers: Type.Integer(),
    accounts: Type.Integer(),
    debitCards: Type.Integer(),
    statements: Type.Integer(),
    scheduledTransfers: Type.Integer()
  }),
  responseExamples: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Operation id → names usable with Prefer: example=<name>' })
})

function summary (scenario: Scenario, services: CoreServices): Record<string, unknown> {
  const { fixtures } = scenario
  const defaultId = (fixtures.customers.find(c => c.default === true) ?? fixtures.customers[0])?.id
  return {
    name: scenario.name,
    description: scenario.description,
    active: scenario.name === services.activeScenario,
    personas: fixtures.customers.map(c => ({
      customerId: c.id,
      name: `${c.firstName} ${c.lastName}`,
      ...(c.persona === undefined ? {} : { persona: c.persona }),
      ...(c.description === undefined ? {} : { description: c.description }),
      tokens: c.tokens,
      default: c.id === defaultId
    })),
    counts: {
      customers: fixtures.customers.length,
      accounts: fixtures.accounts.length,
      debitCards: fixtures['debit-cards'].length,
      statements: fixtures.statements.length,
      scheduledTransfers: fixtures['scheduled-transfers'].length
    },
    responseExamples: services.overrides.names(scenario.name)
  }
}

/** The worlds a session can start from: `POST /__mock/reset {"scenario": name}` switches to one. */
export const scenarioRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/scenarios',
    session: 'none',
    schema: {
      operationId: 'mockListScenarios',
      tags: CONTROL_TAGS,
      summary: 'The scenarios: the default world and the overlays in fixtures/scenarios/',
      description: 'Each scenario with its personas (and their tokens), entity counts and the response examples usable with `Prefer: example=<name>`; `active` is the one new sessions start from.',
      response: responses({
        200: Type.Object({ active: Type.String(), scenarios: Type.Array(ScenarioSummary) }, { description: 'The scenarios' })
      })
    },
    handle: ({ services }) => ({
      active: services.activeScenario,
      scenarios: [...services.scenarios.values()].map(s => summary(s, services))
    })
  })
]
