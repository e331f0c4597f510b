import { http, type HttpHandler } from 'msw'
import type { Mock } from '../fetch/mock.js'
import { CONTROL_PREFIX, isControlPath } from '../../control/control-path.js'

export interface HandlerOptions {
  /**
   * Where the app sends its API requests: `https://bank.example`, `location.origin`, or with a
   * path prefix (`https://api.example/bank`), which is taken off before routing. Unset: any origin.
   */
  baseUrl?: string
}

/** What the handlers need of a mock: its routes, to match, and its answers. */
export type HandlerTarget = Pick<Mock, 'fetch' | 'routes'>

/**
 * MSW request handlers answered by a mock. Only the mock's own paths match, so a request to any
 * other one is MSW's to handle (the next handler, or onUnhandledRequest). A fault that drops the
 * connection is a network error.
 */
export function handlersFor (mock: HandlerTarget, options: HandlerOptions = {}): HttpHandler[] {
  const base = options.baseUrl === undefined ? undefined : new URL(options.baseUrl)
  const prefix = base?.pathname.replace(/\/+$/, '') ?? ''
  const routePaths = [...new Set(mock.routes().map(route => route.path).filter(path => !isControlPath(path)))]
  // Routes moved to the app's full paths (`/api/v2/cards/:id/lock` from its .env) already carry
  // the base URL's path: they match as written, where the others match after the prefix.
  const carriesPrefix = (path: string): boolean => prefix !== '' && path.startsWith(`${prefix}/`)
  const prefixed = [...routePaths.filter(path => !carriesPrefix(path)).map(pathPattern), `${escape(CONTROL_PREFIX)}(?:/.*)?`]
  const whole = routePaths.filter(carriesPrefix).map(pathPattern)
  const origin = base === undefined ? 'https?://[^/]+' : escape(base.origin)
  const alternatives = [
    ...prefixed.length > 0 ? [`${escape(prefix)}(?:${prefixed.join('|')})`] : [],
    ...whole.length > 0 ? [`(?:${whole.join('|')})`] : []
  ]
  const matcher = new RegExp(`^${origin}(?:${alternatives.join('|')})/?$`)
  const wholeMatcher = new RegExp(`^(?:${whole.join('|')})/?$`)
  return [
    http.all(matcher, async ({ request }) => {
      const url = new URL(request.url)
      const path = whole.length > 0 && wholeMatcher.test(url.pathname) ? url.pathname : url.pathname.slice(prefix.length)
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
      // The base URL's path is taken off for routing and told to the mock as a proxy would, so the
      // links it hands out (the set-PIN page) keep it and come back to these handlers.
      const headers = new Headers(request.headers)
      if (prefix !== '') headers.set('x-forwarded-prefix', prefix)
      try {
        return await mock.fetch(new Request(new URL(path + url.search, url.origin), { method: request.method, headers, body, signal: request.signal }))
      } catch {
        return Response.error()
      }
    })
  ]
}

/** A route in find-my-way syntax as a pattern: a parameter is one non-empty path segment. */
function pathPattern (path: string): string {
  return path.split('/').map(segment => segment.startsWith(':') ? '[^/]+' : escape(segment)).join('/')
}

function escape (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
