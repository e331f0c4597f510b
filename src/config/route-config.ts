import { isBodiless, type HttpMethod, type Operation } from '../core/operations.js'

/**
 * Where each operation answers. A configuration name's value may be a path or a full URL (its
 * path is used), may start with a method (`DELETE /x/$TRANSFER_ID`), and may write parameters
 * as `$CARD_ID`, `{cardId}` or `:cardId` — so a frontend's own `.env` works unchanged.
 */
export interface ResolvedRoute {
  operation: Operation
  method: HttpMethod
  /** Fastify form: `/baas/debit-cards/:cardId/lock`. */
  url: string
  /** Configuration form, as the `.env` export writes it: `/baas/debit-cards/$CARD_ID/lock`. */
  envPath: string
  /** True when a configuration value moved it. */
  overridden: boolean
}

export class RouteConfigError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'RouteConfigError'
  }
}

const METHOD_PREFIX = /^(GET|POST|PUT|PATCH|DELETE)\s+(.+)$/i
// `$NAME` must end where the name ends: in `$CARD_IDs` the router would see a parameter `cardIds`.
const PARAM = /\$([A-Z][A-Z0-9_]*)(?![A-Za-z0-9_])|\{([A-Za-z][A-Za-z0-9_]*)\}|:([A-Za-z][A-Za-z0-9_]*)/g

/** `CARD_ID` / `card_id` / `cardId` → `cardId`. */
export function paramName (raw: string): string {
  if (!raw.includes('_') && /[a-z]/.test(raw)) return raw
  return raw.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())
}

/** `cardId` → `CARD_ID`. */
export function envParam (name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
}

interface ParsedRoute { method: HttpMethod | undefined; segments: string; params: string[] }

export function parseRouteValue (configName: string, value: string): ParsedRoute {
  let rest = value.trim()
  if (rest === '') throw new RouteConfigError(`${configName} is empty; give a path such as /baas/customers.`)
  let method: HttpMethod | undefined
  const withMethod = METHOD_PREFIX.exec(rest)
  if (withMethod !== null) {
    method = (withMethod[1] as string).toUpperCase() as HttpMethod
    rest = (withMethod[2] as string).trim()
  }
  const otherMethod = /^([A-Za-z]+)\s+\S/.exec(rest)?.[1]
  if (withMethod === null && otherMethod !== undefined && !/^https?$/i.test(otherMethod)) {
    throw new RouteConfigError(`${configName}=${value}: ${otherMethod} is not a method a route can take (GET, POST, PUT, PATCH or DELETE).`)
  }
  if (/^https?:\/\//i.test(rest)) {
    // URL parsing percent-encodes `{`, `}` and `$`; decode so parameters survive.
    try {
      rest = decodeURI(new URL(rest).pathname)
    } catch {
      throw new RouteConfigError(`${configName}=${value} is not a valid URL.`)
    }
  }
  if (!rest.startsWith('/')) throw new RouteConfigError(`${configName}=${value} must be a path starting with / or a full URL.`)
  if (/[?#\s]/.test(rest)) throw new RouteConfigError(`${configName}=${value}: a route cannot contain a query, a fragment or spaces.`)
  const params: string[] = []
  const segments = rest.replace(PARAM, (_m, env?: string, braces?: string, colon?: string) => {
    const name = paramName(env ?? braces ?? colon ?? '')
    params.push(name)
    return `:${name}`
  })
  if (/[$:{}]/.test(segments.replace(/:[A-Za-z][A-Za-z0-9_]*/g, ''))) {
    throw new RouteConfigError(`${configName}=${value}: write parameters as $NAME, {name} or :name.`)
  }
  const repeated = params.find((p, i) => params.indexOf(p) !== i)
  // The router would silently keep only the last value of a repeated parameter.
  if (repeated !== undefined) throw new RouteConfigError(`${configName}=${value}: $${envParam(repeated)} appears more than once.`)
  const normalized = segments.length > 1 ? segments.replace(/\/+$/, '') || '/' : segments
  return { method, segments: normalized, params }
}

/** As resolveRoutes; an error also says where each configuration name it names was set. */
export function resolveConfiguredRoutes (operations: readonly Operation[], overrides: Readonly<Record<string, string | undefined>>, sources: Readonly<Record<string, string>>): ResolvedRoute[] {
  try {
    return resolveRoutes(operations, overrides)
  } catch (error) {
    if (!(error instanceof RouteConfigError)) throw error
    const named = Object.keys(sources).filter(name => new RegExp(`\\b${name}\\b`).test(error.message))
    if (named.length === 0) throw error
    throw new RouteConfigError(`${error.message} (set by ${named.map(name => sources[name]).join('; ')})`)
  }
}

/** Paths the mock serves itself: an operation moved onto one would clash at startup. */
const RESERVED_PATHS = ['/__mock', '/docs', '/openapi.json', '/openapi.yaml', '/healthz', '/readyz']

/** Applies overrides (configuration name → value) to the table; throws on any conflict. */
export function resolveRoutes (operations: readonly Operation[], overrides: Readonly<Record<string, string | undefined>>): ResolvedRoute[] {
  const sharing = new Map<string, Operation[]>()
  for (const op of operations) sharing.set(op.configName, [...(sharing.get(op.configName) ?? []), op])

  const routes = operations.map((operation): ResolvedRoute => {
    const expected = parseRouteValue(operation.configName, operation.path)
    const value = overrides[operation.configName]
    if (value === undefined) return { operation, method: operation.method, url: expected.segments, envPath: operation.path, overridden: false }
    const parsed = parseRouteValue(operation.configName, value)
    const shared = sharing.get(operation.configName) ?? []
    if (parsed.method !== undefined && shared.length > 1) {
      throw new RouteConfigError(`${operation.configName} names ${shared.length} operations (${shared.map(o => `${o.method} ${o.id}`).join(', ')}); give it a path without a method.`)
    }
    const missing = expected.params.filter(p => !parsed.params.includes(p))
    const extra = parsed.params.filter(p => !expected.params.includes(p))
    if (missing.length > 0 || extra.length > 0) {
      const want = expected.params.length === 0 ? 'no parameters' : expected.params.map(p => `$${envParam(p)}`).join(', ')
      throw new RouteConfigError(`${operation.configName}=${value}: ${operation.id} takes ${want}${extra.length > 0 ? `, not ${extra.map(p => `$${envParam(p)}`).join(', ')}` : ''}.`)
    }
    if (parsed.method === 'GET' && operation.body !== undefined && !isBodiless(operation)) {
      throw new RouteConfigError(`${operation.configName}=${value}: ${operation.id} takes a JSON body, which a GET request cannot carry; use POST, PUT, PATCH or DELETE.`)
    }
    const envPath = parsed.segments.replace(/:([A-Za-z][A-Za-z0-9_]*)/g, (_m, p: string) => `$${envParam(p)}`)
    return { operation, method: parsed.method ?? operation.method, url: parsed.segments, envPath, overridden: true }
  })

  const taken = new Map<string, ResolvedRoute>()
  for (const route of routes) {
    const reserved = RESERVED_PATHS.find(path => route.url === path || route.url.startsWith(`${path}/`))
    if (reserved !== undefined) {
      throw new RouteConfigError(`${route.operation.configName}=${route.url}: ${reserved} is the mock's own (control plane, docs, contract or health); choose another path.`)
    }
    // Parameter names do not distinguish routes: /a/:x and /a/:y are the same route.
    const key = `${route.method} ${route.url.replace(/:[A-Za-z0-9_]+/g, ':')}`
    const other = taken.get(key)
    if (other !== undefined) {
      throw new RouteConfigError(`${other.operation.configName} (${other.operation.id}) and ${route.operation.configName} (${route.operation.id}) both answer ${route.method} ${route.url}; move one of them.`)
    }
    taken.set(key, route)
  }
  return routes
}
