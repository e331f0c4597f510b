import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { Config } from '../../config/config.js'
import { isOwnOrigin, originMatcher } from '../../config/origins.js'
import { isLoopbackHost, isRebindableHost } from '../../config/network-token.js'
import { HttpProblem, problem } from './problem.js'
import { isControlPath } from '../../control/control-path.js'

/** Methods a page may send: every method the API and the control plane answer. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE'
/** Headers a page may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'Retry-After, Location, X-Mock-Source, X-Mock-Fault, Preference-Applied, X-Mock-Session-Created, X-Mock-Persona, Idempotent-Replayed'
/** How long a browser may reuse a preflight's answer, seconds. */
const PREFLIGHT_MAX_AGE = '600'

interface CorsPolicy {
  allows: (origin: string) => boolean
  credentials: boolean
}

/**
 * CORS in two policies. The API answers any origin, with credentials: a frontend on any port,
 * cookies included, is what the mock is for. The control plane (`/__mock/*`: MFA codes, PIN links,
 * reset, faults) answers only the configured origins (loopback by default) and never with
 * credentials, so a page the developer happens to visit cannot read or drive their mock.
 * A request without Origin (curl, a test runner) is no CORS request and gets no CORS headers.
 *
 * One hook of its own rather than @fastify/cors: that plugin picks a policy per request only through
 * its delegator, which rebuilds and spreads its options object for every request, Origin or not,
 * and cost a quarter of a GET's time (npm run bench). Here a request without Origin costs one header.
 */
export function installCors (app: FastifyInstance, config: Pick<Config, 'controlOrigins'>): void {
  const api: CorsPolicy = { allows: () => true, credentials: true }
  const control: CorsPolicy = { allows: originMatcher(config.controlOrigins), credentials: false }
  app.addHook('onRequest', (request, reply, done) => {
    // The grant depends on Origin, so caches must key on it, also for answers to requests without one.
    reply.header('vary', 'Origin')
    const origin = request.headers.origin
    if (origin === undefined) return done()
    const policy = isControlPath(request.url) ? control : api
    // Not granted: no CORS headers, so the browser hides the answer (and a preflight finds no route: 404).
    if (!policy.allows(origin)) return done()
    reply.header('access-control-allow-origin', origin)
    if (policy.credentials) reply.header('access-control-allow-credentials', 'true')
    reply.header('access-control-expose-headers', EXPOSED_HEADERS)
    if (request.method !== 'OPTIONS') return done()
    if (request.headers['access-control-request-method'] === undefined) {
      reply.code(400).type('text/plain').send('Invalid Preflight Request')
      return
    }
    reply.header('access-control-allow-methods', ALLOWED_METHODS)
    reply.header('vary', 'Origin, Access-Control-Request-Headers')
    const requested = request.headers['access-control-request-headers']
    if (requested !== undefined) reply.header('access-control-allow-headers', requested)
    reply.header('access-control-max-age', PREFLIGHT_MAX_AGE)
    // Safari waits for a body on a 204 without Content-Length.
    reply.code(204).header('content-length', '0').send()
  })
  // Lets the router take OPTIONS at all: a granted preflight is answered by the hook above, anything else is a 404.
  app.options('*', { schema: { hide: true } }, (_request, reply) => { reply.callNotFound() })
}

/**
 * Refuses a control-plane request sent by a page of another origin than the mock's own and the
 * configured ones. CORS only hides answers from such a page; a request a browser sends without
 * asking first (a POST without a body, a form) would still reset the mock or change its state.
 *
 * An open mock on loopback also refuses a Host that is a foreign DNS name: a page can rebind its
 * own name to 127.0.0.1 and then reach the mock as its "own origin" (or with no Origin at all on a
 * GET), reading MFA codes. IP literals, localhost and the public URL's host cannot be rebound.
 * With an admin token the page cannot pass the guard anyway, and a mock opened to the network on
 * purpose is reachable without rebinding, so the check applies to the open loopback mock only.
 */
export function controlOriginGuard (config: Pick<Config, 'controlOrigins' | 'publicUrl' | 'host' | 'adminToken'>): onRequestAsyncHookHandler {
  const allowed = originMatcher(config.controlOrigins)
  const checkHost = config.adminToken === undefined && isLoopbackHost(config.host)
  const publicHost = config.publicUrl === undefined ? undefined : new URL(config.publicUrl).hostname.toLowerCase()
  return async (request: FastifyRequest) => {
    // The Host header itself: a rebound page is same-origin, so it could also send X-Forwarded-Host.
    const hostname = hostnameOf(request.headers.host ?? '')
    if (checkHost && isRebindableHost(hostname) && hostname !== publicHost) {
      throw new HttpProblem(problem(403, 'host_not_allowed',
        `The control plane of a mock on loopback answers only for localhost, IP addresses and --public-url, not for host ${hostname}; set --public-url (MOCK_PUBLIC_URL) or --admin-token to use it under that name.`))
    }
    const origin = request.headers.origin
    const trusted = origin !== undefined && (allowed(origin) || isOwnOrigin(origin, request.host, config.publicUrl))
    if (origin !== undefined && !trusted) {
      throw new HttpProblem(problem(403, 'origin_not_allowed',
        `A page of ${origin} may not use the control plane; allow its origin with --control-origins (MOCK_CONTROL_ORIGINS).`))
    }
    const site = request.headers['sec-fetch-site']
    if (site !== 'same-site' && site !== 'cross-site') return
    // A browser says where a request comes from even when it sends no Origin: an <img>, a link or a
    // form GET of another site's page (no-cors, navigate). Only a page's fetch with its Origin
    // allowed may come from another site; curl and scripts send no Sec-Fetch-* and pass as before.
    const mode = request.headers['sec-fetch-mode']
    if (trusted && (mode === 'cors' || mode === 'same-origin')) return
    throw new HttpProblem(problem(403, 'cross_site_not_allowed',
      `A ${mode ?? 'browser'} request from another site (Sec-Fetch-Site: ${site}) may not use the control plane; a page of an origin in --control-origins may, with fetch.`))
  }
}

/** `example.com:4010` → `example.com`; `[::1]:4010` → `[::1]`. */
function hostnameOf (host: string): string {
  return host.toLowerCase().replace(/:\d*$/, '')
}
