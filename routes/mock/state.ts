import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { MockServices } from '../../src/http/services.js'
import { snapshot } from '../../src/state/snapshot.js'
import { StrictObject } from '../../src/http/schemas/common.js'

const TAG = ['Mock control']

const ResetBody = StrictObject({
  scenario: Type.Optional(Type.String({ description: 'Rebuild this session from the named scenario instead of the active one' }))
})

/** Read the world, and put it back as the fixtures describe it. */
export async function stateRoutes (app: FastifyInstance, { services }: { services: MockServices }): Promise<void> {
  app.get('/state', {
    schema: { operationId: 'mockGetState', tags: TAG, summary: 'Snapshot of the session\'s world (all entities, outbox, clock)' }
  }, async (request) => snapshot(services.sessionOf(request).world))

  app.post('/reset', {
    schema: { operationId: 'mockReset', tags: TAG, summary: 'Rebuild the session\'s world from the active (or given) scenario', body: ResetBody },
    preValidation: async (request) => { if (request.body === undefined || request.body === null) request.body = {} }
  }, async (request) => {
    const { scenario } = request.body as { scenario?: string }
    const sessionId = services.sessionOf(request).id
    if (scenario !== undefined) services.scenario(scenario)
    const session = services.sessions.reset(sessionId, scenario)
    return { session: session.id, scenario: session.world.scenario, now: session.world.clock.now().toISOString() }
  })
}
