import type { FastifyInstance } from 'fastify'
import { writesByMethod } from '../../core/exchange.js'
import type { CoreServices } from '../../core/services.js'

/**
 * Tells the core's listeners (the dashboard's event feed) about every request answered. Nobody
 * listens while no event stream is open, and then a request pays one check.
 */
export function installFinishedRequests (app: FastifyInstance, services: CoreServices): void {
  const finished = services.finishedRequests
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    if (finished.active) {
      const writes = request.routeOptions.config.writes ?? writesByMethod(request.method)
      const path = request.url.split('?')[0] ?? request.url
      finished.notify({ method: request.method, path, status: reply.statusCode, writes, session: request.mockSession })
    }
    done()
  })
}
