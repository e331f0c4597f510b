import { isWrite } from './operations.js'
import { routeSchema, takesBody } from './operation-schema.js'
import type { Answerer, OperationHandlers } from './pipeline.js'
import { operationAnswerer } from './pipeline.js'
import type { CoreServices } from './services.js'
import type { RouteSchema } from './route-schema.js'

export type { RouteSchema } from './route-schema.js'

/** A schema key: a route says its body is needed although every field is optional (clock advance: by or to). */
export const BODY_OPTIONAL = 'x-body-optional'

/** One route as every transport registers it: where, what it validates and serialises, and who answers. */
export interface RouteDefinition {
  method: string
  /** find-my-way syntax: `/baas/debit-cards/:cardId/lock`. */
  url: string
  schema: RouteSchema
  /** API operations are journaled under their id; control-plane routes (null) are not. */
  operationId: string | null
  /** GET routes also answer HEAD; a write moved to GET does not (prefetchers, link checkers). */
  exposeHead: boolean
  /** Behind the admin token, when one is set (the control plane but the PIN page). */
  adminOnly: boolean
  /** Whether it changes state, whatever method it answers on (the dashboard's feed shows writes). */
  writes: boolean
  answer: Answerer
  /** The answerer validates the request itself (a dialect reads the team's body first): the transport leaves it unvalidated. */
  validatedByAnswer?: true
}

/** The API's operations at the routes in effect (moved or not), each answered by the core's pipeline. */
export function operationRoutes (services: CoreServices, handlers: OperationHandlers): RouteDefinition[] {
  return services.routes.map(route => {
    const handler = handlers[route.operation.id]
    if (handler === undefined) throw new Error(`No handler for operation ${route.operation.id}`)
    const op = route.operation
    return {
      method: route.method,
      url: route.url,
      schema: routeSchema(route, takesBody(route)) as RouteSchema,
      operationId: op.id,
      exposeHead: !isWrite(op),
      adminOnly: false,
      writes: isWrite(op),
      answer: operationAnswerer(services, route, handler)
    }
  })
}
