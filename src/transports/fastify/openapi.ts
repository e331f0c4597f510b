import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { installLazyDocs } from './docs.js'
import { stringify } from 'yaml'
import { OPERATIONS } from '../../core/operations.js'

export const CONTROL_TAG = 'Mock control'

/** OpenAPI 3.1 generated from the route schemas: the document always matches the routes in effect. */
export async function installOpenApi (app: FastifyInstance, version: string, routerOptions: Parameters<typeof installLazyDocs>[1]): Promise<void> {
  const tags = [...new Set(OPERATIONS.map(op => op.tag))].map(name => ({ name }))
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'baas-mock',
        version,
        description: 'A stateful mock of a banking-as-a-service API. The customer is implied by the bearer token (a persona); ' +
          'the `x-mock-session` header selects an isolated world. Errors are RFC 9457 problem+json with a stable `code`.'
      },
      tags: [...tags, { name: CONTROL_TAG, description: 'The mock\'s own control plane: state, clock, journal, outbox, faults' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A persona token from the fixtures' } } }
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`)
    }
  })
  installLazyDocs(app, routerOptions)
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  app.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/yaml').send(stringify(app.swagger(), { aliasDuplicateObjects: false })))
}
