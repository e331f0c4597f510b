import type { FastifyInstance, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import { installLazyDocs } from './docs.js'
import { stringify } from 'yaml'
import { OPERATIONS, type OperationTag } from '../../core/operations.js'
import { ADMIN_TOKEN_HEADER } from './admin-auth.js'
import { CONTROL_TAG, HEADERS, PARAMETERS, applyContractRules } from './openapi-rules.js'
import { baseUrlOf } from './request-context.js'

/** Where the committed document points: the mock on its default port. A served document names the mock's own URL instead. */
const DEFAULT_SERVER_URL = 'http://localhost:4010'

const TAG_DESCRIPTIONS: Record<OperationTag, string> = {
  Customers: 'The customer the bearer token stands for',
  'Debit cards': 'The customer\'s cards: ordering, locking, reissuing, PIN',
  Statements: 'Monthly account statements',
  'Phone verification': 'One-time codes by SMS or voice call',
  'Scheduled transfers': 'Recurrent transfers between the customer\'s accounts (INTERNAL) or to and from other banks (ACH)'
}

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'A persona token from the fixtures (a customer\'s `tokens`), or a JWT whose `sub` is a customer id. ' +
      'Open auth (the default): optional, and a missing or unknown token is the default persona. Strict auth (`--auth strict`): required, else 401.'
  },
  adminToken: {
    type: 'apiKey',
    in: 'header',
    name: ADMIN_TOKEN_HEADER,
    description: 'The control plane\'s token, needed only when the mock runs with `--admin-token` (`MOCK_ADMIN_TOKEN`). `Authorization: Bearer <token>` is accepted too.'
  },
  adminTokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'The admin token in the query, for clients that cannot send headers (EventSource)'
  }
} as const

/**
 * OpenAPI 3.1 generated from the route schemas: the document always matches the routes in effect.
 * `shape`, with a dialect in effect, turns it into the team's contract (src/dialect/contract.ts)
 * for /openapi.json, /openapi.yaml and /docs; app.swagger() stays the mock's own.
 */
export async function installOpenApi (app: FastifyInstance, version: string, routerOptions: Parameters<typeof installLazyDocs>[1], publicUrl: string | undefined, shape?: (document: object) => object): Promise<void> {
  const tags = [...new Set(OPERATIONS.map(op => op.tag))].map(name => ({ name, description: TAG_DESCRIPTIONS[name] }))
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'baas-mock',
        version,
        description: 'A stateful mock of a banking-as-a-service API. The customer is implied by the bearer token (a persona); ' +
          'the `x-mock-session` header selects an isolated world. Errors are RFC 9457 problem+json with a stable `code`.',
        license: { name: 'MIT', identifier: 'MIT' }
      },
      servers: [{ url: DEFAULT_SERVER_URL, description: 'The mock on its default port' }],
      tags: [...tags, { name: CONTROL_TAG, description: 'The mock\'s own control plane: state, clock, journal, outbox, faults' }],
      components: { securitySchemes: SECURITY_SCHEMES, parameters: PARAMETERS, headers: HEADERS } as never
    },
    transformObject: document => 'openapiObject' in document ? applyContractRules(document.openapiObject) : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`)
    }
  })
  // Shaped once, on the first request: routes are final by then.
  let shaped: object | undefined
  const document = (): object => shape === undefined ? app.swagger() : (shaped ??= shape(app.swagger()))
  const served = (request: FastifyRequest): object => servedDocument(document(), request, publicUrl)
  installLazyDocs(app, routerOptions, served)
  app.get('/openapi.json', { schema: { hide: true } }, async request => served(request))
  app.get('/openapi.yaml', { schema: { hide: true } }, async (request, reply) =>
    reply.type('application/yaml').send(stringify(served(request), { aliasDuplicateObjects: false })))
}

/** The document as served: its one server is the mock itself, as the client reached it (or --public-url). */
export function servedDocument (doc: object, request: FastifyRequest, publicUrl: string | undefined): object {
  return { ...doc, servers: [{ url: baseUrlOf(request, publicUrl), description: 'This mock' }] }
}
