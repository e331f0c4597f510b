import type { Answer, CoreRequest } from '../../core/exchange.js'
import { isThenable, pathOf, writesByMethod } from '../../core/exchange.js'
import { ADMIN_CHALLENGE, adminTokenProblem, givenAdminToken, hasAdminCookie } from '../../core/admin-token.js'
import { FAULT_HEADER, SOURCE_HEADER } from '../../core/faults.js'
import { journalExchange } from '../../core/journal-exchange.js'
import { IDEMPOTENT_REPLAYED_HEADER } from '../../core/idempotency.js'
import { SESSION_CREATED_HEADER } from '../../core/session-id.js'
import { forwardedPrefix } from '../../core/forwarded-prefix.js'
import { PERSONA_HEADER } from '../../core/persona.js'
import { answerForError, HttpProblem, problem, problemAnswer } from '../../core/problem.js'
import { untilAborted } from '../../core/delay.js'
import type { RouteDefinition } from '../../core/route-definition.js'
import type { CoreServices } from '../../core/services.js'
import { validationProblem } from '../../core/validation.js'
import { SHARED_SCHEMAS } from '../../core/schemas/index.js'
import type { Session } from '../../world/sessions.js'
import { isJournalSource } from '../../world/journal.js'
import { readJsonBody } from './body.js'
import { refusals } from '../../dialect/refusals.js'
import { createFetchRouter, type FetchRoute } from './router.js'
import { isControlPath } from '../../control/control-path.js'

/** `mock.fetch`: a Fetch API Request in, the Response the HTTP server would send out. */
export type FetchHandler = (request: Request) => Promise<Response>

/** Bodiless by definition (RFC 9110): the Response constructor refuses a body for them. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/**
 * The mock as a Fetch handler: the same routes, validation, pipeline, problems and journal as the
 * HTTP server, with no socket. A fault that drops the connection rejects with a TypeError, as
 * `fetch` does when the connection resets.
 */
export function createFetchHandler (services: CoreServices, definitions: readonly RouteDefinition[]): FetchHandler {
  const router = createFetchRouter(definitions, SHARED_SCHEMAS)
  const publicUrl = services.config.publicUrl?.replace(/\/+$/, '')
  const adminToken = services.config.adminToken
  const shaping = refusals(services)
  /** A problem answered before the operation ran, in the dialect's error shape under the API's paths (as the server does). */
  const refused = (answer: Answer, core: CoreRequest): Answer => shaping === undefined ? answer : shaping.answer(answer, core)

  const handle = async (request: Request): Promise<Response> => {
    // As fetch does: an aborted signal rejects with its reason, and nothing is sent (nor journaled).
    request.signal.throwIfAborted()
    const started = performance.now()
    const url = new URL(request.url)
    const headers = headersOf(request.headers)
    const found = findRoute(request.method, url.pathname)
    const core: CoreRequest = {
      method: request.method,
      url: url.pathname + url.search,
      headers,
      params: found.route === undefined ? {} : found.params,
      query: queryOf(url.searchParams),
      body: undefined,
      sentBody: headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined,
      // As the server: under a proxy's (or MSW's base URL's) path, the links the mock hands out carry it.
      baseUrl: () => publicUrl ?? url.origin + forwardedPrefix(headers['x-forwarded-prefix']),
      session: null,
      sessionCreated: false,
      persona: null,
      signal: request.signal
    }
    const answer = found.route === undefined ? refused(found.problem, core) : await untilAborted(answerRoute(found.route, request, core), request.signal)
    const operationId = found.route?.definition.operationId ?? null
    // API requests are journaled, and so are requests no route answered outside the control plane.
    if (operationId !== null || (found.route === undefined && !isControlPath(url.pathname))) {
      journal(core, answer, operationId, performance.now() - started)
    }
    // A dropped connection is no answer, as on the server (a hijacked reply has no onResponse).
    if (services.finishedRequests.active && answer.drop !== true) {
      const writes = found.route?.definition.writes ?? writesByMethod(request.method)
      services.finishedRequests.notify({ method: request.method, path: url.pathname, status: answer.status, writes, session: core.session })
    }
    if (answer.drop === true) throw new TypeError('fetch failed: the mock dropped the connection (a fault rule with reset)')
    const response = responseOf(answer, found.route, request.method)
    if (core.sessionCreated) response.headers.set(SESSION_CREATED_HEADER, 'true')
    if (core.persona !== null) response.headers.set(PERSONA_HEADER, core.persona.customerId)
    return response
  }
  return handle

  type Found = { route: FetchRoute; params: Record<string, string> } | { route: undefined; problem: Answer }

  function findRoute (method: string, path: string): Found {
    try {
      const found = router.find(method, path)
      return found ?? { route: undefined, problem: notFound(method, path) }
    } catch {
      return { route: undefined, problem: problemAnswer({ ...problem(400, 'malformed_url', 'The path is not a valid URL: check its %-escapes.'), instance: path }) }
    }
  }

  function notFound (method: string, path: string): Answer {
    const allowed = router.allowed(path)
    if (allowed.length > 0) {
      return problemAnswer(problem(405, 'method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${method}.`, { instance: path }), undefined, { allow: allowed.join(', ') })
    }
    return problemAnswer(problem(404, 'route_not_found', `No operation answers ${method} ${path}. See /openapi.json for the routes in effect.`, { instance: path }))
  }

  async function answerRoute (route: FetchRoute, request: Request, core: CoreRequest): Promise<Answer> {
    const path = pathOf(core.url)
    if (route.definition.adminOnly) {
      const query = core.query as Record<string, unknown>
      const given = givenAdminToken(core.headers, query)
      delete query.token
      // In-process, there is no network to time the comparison from.
      if (adminToken !== undefined && given !== adminToken && !(given === undefined && hasAdminCookie(core.headers, adminToken))) return problemAnswer(adminTokenProblem(given, path), undefined, { 'www-authenticate': ADMIN_CHALLENGE })
    }
    try {
      const mutable = core as { -readonly [K in keyof CoreRequest]: CoreRequest[K] }
      mutable.body = await readJsonBody(request, services.config.bodyLimit)
      // A missing body is read as {}, so that a 400 names the field that is missing (as the server does).
      if (mutable.body === undefined && route.definition.schema.body !== undefined) mutable.body = {}
      // Fastify's order: path parameters, then the body, then the query string.
      if (route.definition.validatedByAnswer !== true) for (const part of ['params', 'body', 'querystring'] as const) {
        const validate = route.validate(part)
        const data = part === 'querystring' ? core.query : core[part]
        if (validate !== undefined && !validate(data)) {
          return problemAnswer({ ...validationProblem(validate.errors as never, part), instance: path })
        }
      }
      const answer = route.definition.answer(core)
      return isThenable(answer) ? await answer : answer
    } catch (error) {
      // An abort is the caller's, not a failure: the caller's fetch rejects with its reason (untilAborted).
      if (request.signal.aborted) throw error
      const known = answerForError(error, path)
      if (known !== undefined) return refused(known, core)
      console.error(`baas-mock: ${core.method} ${path} failed:`, error)
      return refused(problemAnswer(problem(500, 'internal_error', 'The mock failed to answer this request; the server log has the details.', { instance: path })), core)
    }
  }

  function journal (core: CoreRequest, answer: Answer, operationId: string | null, elapsedMs: number): void {
    const source = answer.headers?.[SOURCE_HEADER]
    journalExchange(services, { method: core.method, url: core.url, headers: core.headers, body: core.body, session: core.session as Session | null, persona: core.persona }, {
      status: answer.drop === true ? 0 : answer.status,
      elapsedMs,
      operationId,
      source: isJournalSource(source) ? source : answer.headers?.[IDEMPOTENT_REPLAYED_HEADER] === 'true' ? 'replay' : undefined,
      faults: answer.headers?.[FAULT_HEADER]?.split(', ')
    })
  }
}

function responseOf (answer: Answer, route: FetchRoute | undefined, method: string): Response {
  const headers = new Headers(answer.headers)
  let body: string | ReadableStream<Uint8Array> | null = null
  if (answer.stream !== undefined) {
    body = answer.stream
    headers.set('content-type', answer.contentType ?? 'application/octet-stream')
  } else if (answer.text !== undefined) {
    body = answer.text
    headers.set('content-type', withCharset(answer.contentType ?? 'application/json'))
  } else if (answer.body !== undefined) {
    body = route === undefined ? JSON.stringify(answer.body) : route.serialize(answer.status)(answer.body)
    headers.set('content-type', 'application/json; charset=utf-8')
  }
  if (NULL_BODY_STATUSES.has(answer.status) || method === 'HEAD') {
    // Nobody will read it: a stream lets go of what it was following.
    if (typeof body === 'object' && body !== null) void body.cancel()
    body = null
  }
  return new Response(body, { status: answer.status, headers })
}

/** Text goes out as UTF-8 and says so, as Fastify's reply does for a string. */
function withCharset (contentType: string): string {
  return contentType.includes('charset') ? contentType : `${contentType.trim().replace(/;$/, '')}; charset=utf-8`
}

/** Lower-case names, as Node hands them to Fastify. */
function headersOf (headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => { out[name] = value })
  return out
}

/** A repeated key becomes an array, as Fastify's query string parser does. */
function queryOf (params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  for (const [key, value] of params) {
    const held = query[key]
    query[key] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value]
  }
  return query
}

export { HttpProblem }
