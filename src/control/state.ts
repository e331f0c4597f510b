import { Type } from 'typebox'
import { controlRoute, type ControlRoute } from './route.js'
import { snapshot } from '../world/snapshot.js'
import { StrictObject } from '../core/schemas/common.js'
import { CONTROL_TAGS, responses } from './schemas.js'

const ResetBody = StrictObject({
  scenario: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'Rebuild from this scenario (GET /__mock/scenarios) instead of the session\'s current one' }))
})

const ResetResult = Type.Object({
  session: Type.String(),
  scenario: Type.String(),
  now: Type.String({ description: 'The rebuilt world\'s clock' })
}, { description: 'The session as rebuilt' })

const StateQuery = StrictObject({
  view: Type.Optional(Type.Union([Type.Literal('mock'), Type.Literal('dialect')], {
    description: 'mock (default): the mock\'s own model; dialect: customers, cards, statements and scheduled transfers as the session\'s scenario\'s dialect shows them (the mock\'s own without one)'
  }))
})

/** Read the world, and put it back as the fixtures describe it. */
export const stateRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/state',
    schema: {
      operationId: 'mockGetState',
      tags: CONTROL_TAGS,
      summary: 'Snapshot of the session\'s world (all entities, outbox, clock)',
      description: 'The scenario, the clock, the persona tokens, and every customer, account, card, statement, scheduled transfer, pending phone verification, PIN link and outbox message, unmasked, as the session holds them now. For tests that assert on state and for the dashboard; the API itself never shows this much. ' +
        'Always in the mock\'s own model (the control plane is the mock\'s), unless `?view=dialect` asks for the team\'s shapes.',
      querystring: StateQuery,
      response: responses({
        200: Type.Object({ scenario: Type.String(), now: Type.String() }, { additionalProperties: true, description: 'Every entity of the world, unmasked' })
      })
    },
    handle: ({ world, query, services }) => {
      const state = snapshot(world())
      const view = services.stateView
      return query.view === 'dialect' && view !== undefined ? view(state.scenario, { ...state }) : state
    }
  }),
  controlRoute({
    method: 'POST',
    url: '/__mock/reset',
    schema: {
      operationId: 'mockReset',
      tags: CONTROL_TAGS,
      summary: 'Rebuild the session\'s world from its scenario (or another one)',
      description: 'Entities, clock and outbox start over from the fixtures and the session\'s fault rules are removed; the request journal is kept. ' +
        'Without a body the session keeps its current scenario; `{"scenario": "new-customer"}` switches this session only (other sessions and new ones are unaffected).',
      body: ResetBody,
      response: responses({ 200: ResetResult }, 404, 413, 415)
    },
    handle: ({ services, session, body }) => {
      const current = session()
      const target = services.scenario(body.scenario ?? current.world.scenario).name
      const rebuilt = services.sessions.reset(current.id, target)
      return { session: rebuilt.id, scenario: rebuilt.world.scenario, now: rebuilt.world.clock.now().toISOString() }
    }
  })
]
