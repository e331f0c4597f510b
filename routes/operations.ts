import type { FastifyInstance } from 'fastify'
import { OPERATION_HANDLERS } from '../src/core/build.js'
import { operationRoutes } from '../src/core/route-definition.js'
import { registerDefinitions } from '../src/transports/fastify/register-routes.js'
import { shapedRoutes } from '../src/dialect/routes.js'
import type { MockServices } from '../src/transports/fastify/services.js'

/** The API's operations, at the routes in effect, as Fastify routes over the core's pipeline. */
export function registerOperations (app: FastifyInstance, services: MockServices): void {
  registerDefinitions(app, shapedRoutes(services, operationRoutes(services, OPERATION_HANDLERS)), services)
}
