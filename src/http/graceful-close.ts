import type { FastifyInstance } from 'fastify'

/**
 * Lets `app.close()` end once the requests in flight are answered, whatever the clients keep open.
 *
 * Node's `server.close()` closes only the keep-alive connections idle at that moment. One that is
 * answering a request goes back to idle afterwards, kept alive, and holds the close until its
 * keep-alive time-out (72 s): a keep-alive client (Node's fetch, a proxy's pool) turned every
 * SIGTERM during a request into a kill by timeout. So, once closing has begun:
 * - every answer says `Connection: close`, and Node ends its connection after it;
 * - an answer whose headers left before closing began (a stream) could not say so: its connection
 *   is ended once it is written;
 * - whatever is still open `graceMs` after closing began (a request delayed for 30 s, a client
 *   that never finishes its headers) is cut, so that the process still exits, and exits 0.
 */
export function installGracefulClose (app: FastifyInstance, graceMs: number): void {
  let closing = false
  // Callback hooks, not async ones: no promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  app.addHook('onResponse', (request, _reply, done) => {
    // end(), not destroy(): what is still buffered for the client is written first.
    if (closing && request.raw.socket?.writable === true) request.raw.socket.end()
    done()
  })
  // Root hooks run first among the preClose hooks: closing is set before the dashboard's streams end.
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
