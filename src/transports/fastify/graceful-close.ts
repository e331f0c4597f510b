import type { FastifyInstance } from 'fastify'

/**
 * Lets `app.close()` end once the requests in flight are answered, whatever the clients keep open.
 *
 * Node's `server.close()` closes only the keep-alive connections idle at that moment. One that is
 * answering a request goes back to idle afterwards, kept alive, and holds the close until its
 * keep-alive time-out (72 s): a keep-alive client (Node's fetch, a proxy's pool) turned every
 * SIGTERM during a request into a kill by timeout. So, once closing has begun:
 * - every answer says `Connection: close`, and Node ends its connection after it (the dashboard's
 *   streams, whose headers left before, are ended by their feed before the server closes);
 * - whatever is still busy `graceMs` after closing began (a request delayed for 30 s, a client
 *   that never finishes its headers, a /docs file still being sent) is cut, so that the process
 *   still exits, and exits 0.
 */
export function installGracefulClose (app: FastifyInstance, graceMs: number): void {
  let closing = false
  // A callback hook, not an async one: no promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  app.addHook('preClose', done => {
    closing = true
    const server = app.server
    if (server.listening) {
      const deadline = setTimeout(() => {
        app.log.warn(`shutting down: connections still busy ${graceMs / 1000} s after the signal are closed`)
        server.closeAllConnections()
      }, graceMs)
      deadline.unref()
      server.once('close', () => clearTimeout(deadline))
    }
    done()
  })
}
