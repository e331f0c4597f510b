import { isBodiless, type HttpMethod, type Operation } from '../core/operations.js'

/**
 * Where each operation answers. A configuration name's value may be a path or a full URL (its
 * path is used), may start with a method (`DELETE /x/$TRANSFER_ID`), and may write parameters
 * as `$CARD_ID`, `{cardId}` or `:cardId`, an operation's one parameter under any name (`:id`) —
 * so a frontend's own `.env` works unchanged.
 */
export interface ResolvedRoute {
  operation: Operation
  method: HttpMethod
  /** Fastify form, parameters named as the operation names them: `/baas/debit-cards/:cardId/lock`. */
  url: string
  /** Configuration form, as the `.env` export writes it, parameters named as the value named them: `/baas/debit-cards/$CARD_ID/lock`. */
  envPath: string
  /** True when a configuration value moved it. */
  overridden: boolean
}

/** A route problem and the configuration names it concerns, so an error can say where each was set. */
export interface RouteProblem { message: string; configNames: readonly string[] }

/** Problems listed in one message; the rest are counted (as fixture problems are). */
const LISTED_PROBLEMS = 20

/**
 * One or more route problems: a team moving its routes sees every one that is wrong in one run,
 * not one per restart. One problem keeps its one-line message.
 */
export class RouteConfigError extends Error {
  readonly problems: readonly string[]
  constructor (problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems
    const unlisted = list.length - LISTED_PROBLEMS
    super(list.length === 1
      ? list[0]
      : [`Invalid routes, ${list.length} problems:`, ...list.slice(0, LISTED_PROBLEMS).map(p => `  ${p}`), ...unlisted > 0 ? [`  and ${unlisted} more`] : []].join('\n'))
    this.name = 'RouteConfigError'
    this.problems = list
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

/** As resolveRoutes; each problem also says where the configuration names it names were set. */
export function resolveConfiguredRoutes (operations: readonly Operation[], overrides: Readonly<Record<string, string | undefined>>, sources: Readonly<Record<string, string>>): ResolvedRoute[] {
  const { routes, problems } = checkRoutes(operations, overrides)
  if (problems.length > 0) throw new RouteConfigError(withSources(problems, sources))
  return routes
}

/** Applies overrides (configuration name → value) to the table; throws every conflict at once. */
export function resolveRoutes (operations: readonly Operation[], overrides: Readonly<Record<string, string | undefined>>): ResolvedRoute[] {
  const { routes, problems } = checkRoutes(operations, overrides)
  if (problems.length > 0) throw new RouteConfigError(problems.map(p => p.message))
  return routes
}

/** Each problem's message, followed by where the names it concerns were set. */
export function withSources (problems: readonly RouteProblem[], sources: Readonly<Record<string, string>>): string[] {
  return problems.map(({ message, configNames }) => {
    const where = configNames.flatMap(name => sources[name] ?? [])
    return where.length === 0 ? message : `${message} (set by ${where.join('; ')})`
  })
}

/** Paths the mock serves itself: an operation moved onto one would clash at startup. */
const RESERVED_PATHS = ['/__mock', '/docs', '/openapi.json', '/openapi.yaml', '/healthz', '/readyz']

/** The routes that could be resolved, and every problem found on the way (each once). */
export function checkRoutes (operations: readonly Operation[], overrides: Readonly<Record<string, string | undefined>>): { routes: ResolvedRoute[]; problems: RouteProblem[] } {
  const sharing = new Map<string, Operation[]>()
  for (const op of operations) sharing.set(op.configName, [...(sharing.get(op.configName) ?? []), op])
  const problems = new Map<string, RouteProblem>()
  const report = (message: string, ...configNames: string[]): void => { if (!problems.has(message)) problems.set(message, { message, configNames }) }

  const routes: ResolvedRoute[] = []
  for (const operation of operations) {
    try {
      routes.push(resolveOne(operation, overrides[operation.configName], sharing.get(operation.configName) ?? []))
    } catch (error) {
      if (!(error instanceof RouteConfigError)) throw error
      for (const message of error.problems) report(message, operation.configName)
    }
  }

  const taken = new Map<string, ResolvedRoute>()
  for (const route of routes) {
    const reserved = RESERVED_PATHS.find(path => route.url === path || route.url.startsWith(`${path}/`))
    if (reserved !== undefined) {
      report(`${route.operation.configName}=${route.url}: ${reserved} is the mock's own (control plane, docs, contract or health); choose another path.`, route.operation.configName)
      continue
    }
    // Parameter names do not distinguish routes: /a/:x and /a/:y are the same route.
    const key = `${route.method} ${route.url.replace(/:[A-Za-z0-9_]+/g, ':')}`
    const other = taken.get(key)
    if (other !== undefined) {
      report(`${other.operation.configName} (${other.operation.id}) and ${route.operation.configName} (${route.operation.id}) both answer ${route.method} ${route.url}; move one of them.`,
        other.operation.configName, route.operation.configName)
      continue
    }
    taken.set(key, route)
  }
  return { routes, problems: [...problems.values()] }
}

/** One operation's route, its default or where `value` moves it; throws what is wrong with the value. */
function resolveOne (operation: Operation, value: string | undefined, shared: readonly Operation[]): ResolvedRoute {
  const expected = parseRouteValue(operation.configName, operation.path)
  if (value === undefined) return { operation, method: operation.method, url: expected.segments, envPath: operation.path, overridden: false }
  const parsed = parseRouteValue(operation.configName, value)
  if (parsed.method !== undefined && shared.length > 1) {
    throw new RouteConfigError(`${operation.configName} names ${shared.length} operations (${shared.map(o => `${o.method} ${o.id}`).join(', ')}); give it a path without a method.`)
  }
  const url = withOperationParams(operation, value, expected.params, parsed)
  if (parsed.method === 'GET' && operation.body !== undefined && !isBodiless(operation)) {
    throw new RouteConfigError(`${operation.configName}=${value}: ${operation.id} takes a JSON body, which a GET request cannot carry; use POST, PUT, PATCH or DELETE.`)
  }
  // The export keeps the team's parameter names, in the configuration form: `:id` → `$ID`.
  const envPath = parsed.segments.replace(/:([A-Za-z][A-Za-z0-9_]*)/g, (_m, p: string) => `$${envParam(p)}`)
  return { operation, method: parsed.method ?? operation.method, url, envPath, overridden: true }
}

/**
 * The router's path for a moved route, its parameters named as the operation names them: the
 * router names a parameter from the path, and the operation's schema and handler read it by the
 * operation's name. A team's path may name an operation's one parameter as it likes (`:id`,
 * `{id}`, `$ID`); where an operation takes several, the names tell them apart and must match.
 */
function withOperationParams (operation: Operation, value: string, expected: readonly string[], parsed: ParsedRoute): string {
  const written = parsed.params
  const [only] = expected
  if (only !== undefined && expected.length === 1 && written.length === 1) return parsed.segments.replace(/:[A-Za-z][A-Za-z0-9_]*/, `:${only}`)
  const missing = expected.filter(p => !written.includes(p))
  const extra = written.filter(p => !expected.includes(p))
  if (missing.length === 0 && extra.length === 0) return parsed.segments
  const named = (params: readonly string[]): string => params.map(p => `$${envParam(p)}`).join(', ')
  const takes = expected.length === 0
    ? 'no parameters'
    : expected.length === 1 ? `one parameter, ${named(expected)} (named as you like)` : named(expected)
  throw new RouteConfigError(`${operation.configName}=${value}: ${operation.id} takes ${takes}${extra.length > 0 ? `, not ${named(extra)}` : ''}.`)
}
