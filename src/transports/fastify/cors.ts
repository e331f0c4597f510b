import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { Config } from '../../config/config.js'
import { isOwnOrigin, originMatcher } from '../../config/origins.js'
import { isLoopbackHost, isRebindableHost } from '../../config/network-token.js'
import { HttpProblem, problem } from './problem.js'

export const CONTROL_PREFIX = '/__mock'

/**
 * Whether a request is for the control plane, judged on the decoded path: the router takes
 * `/%5F%5Fmock/state` for the control plane too, and a preflight must not be judged more kindly
 * than the request it announces. A path that does not decode counts as control (the strict side).
 */
export function isControlPath (url: string): boolean {
  const query = url.indexOf('?')
  let path = query === -1 ? url : url.slice(0, query)
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path)
    } catch {
      return true
    }
  }
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

/**
 * CORS in two policies. The API answers any origin, with credentials: a frontend on any port,
 * cookies included, is what the mock is for. The control plane (`/__mock/*`: MFA codes, PIN links,
 * reset, faults) answers only the configured origins (loopback by default) and never with
 * credentials, so a page the developer happens to visit cannot read or drive their mock.
 * A request without Origin (curl, a test runner) is no CORS request and gets no CORS headers.
 */
export async function installCors (app: FastifyInstance, config: Pick<Config, 'controlOrigins'>): Promise<void> {
  const shared: FastifyCorsOptions = {
    // Named: @fastify/cors 11 allows only GET, HEAD and POST unless told.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: ['Retry-After', 'Location', 'X-Mock-Source', 'X-Mock-Fault', 'Preference-Applied', 'X-Mock-Session-Created', 'Idempotent-Replayed'],
    maxAge: 600
  }
  const allowedControlOrigin = originMatcher(config.controlOrigins)
  const api: FastifyCorsOptions = { ...shared, credentials: true, origin: (origin, callback) => callback(null, origin !== undefined) }
  const control: FastifyCorsOptions = {
    ...shared,
    credentials: false,
    origin: (origin, callback) => callback(null, origin !== undefined && allowedControlOrigin(origin))
  }
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) =>
      callback(null, isControlPath(request.url) ? control : api)
  })
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
    if (origin === undefined || allowed(origin) || isOwnOrigin(origin, request.host, config.publicUrl)) return
    throw new HttpProblem(problem(403, 'origin_not_allowed',
      `A page of ${origin} may not use the control plane; allow its origin with --control-origins (MOCK_CONTROL_ORIGINS).`))
  }
}

/** `example.com:4010` → `example.com`; `[::1]:4010` → `[::1]`. */
function hostnameOf (host: string): string {
  return host.toLowerCase().replace(/:\d*$/, '')
}
