import { OPERATIONS_BY_ID } from '../core/operations.js'
import { isThenable, pathOf, type Answer, type CoreRequest, type Headers } from '../core/exchange.js'
import type { RouteDefinition } from '../core/route-definition.js'
import type { CoreServices } from '../core/services.js'
import { SOURCE_HEADER } from '../core/faults.js'
import { IDEMPOTENT_REPLAYED_HEADER } from '../core/idempotency.js'
import { problem, problemAnswer, type ProblemBody } from '../core/problem.js'
import type { FieldError } from '../domain/errors.js'
import { createValidatorCompiler, validationProblem, type Validator } from '../core/validation.js'
import { SHARED_SCHEMAS } from '../core/schemas/index.js'
import { sessionIdFrom } from '../core/session-id.js'
import type { DialectHooks } from '../core/dialect-hooks.js'
import type { Dialects } from '../fixtures/dialect.js'
import type { CompiledShape, ReadProblem } from './compile.js'
import { currentEntity, mergeCurrent, readRouteOf } from './merge.js'
import { compiledDialects, eventViews, requestReader, secretViews, stateViews, type ScenarioDialect } from './view.js'

/** What loadCore is handed to show events and the state in a dialect. */
export function dialectHooks (dialects: Dialects): DialectHooks {
  return { events: eventViews(dialects), state: stateViews(dialects), secrets: secretViews(dialects) }
}

/**
 * The API's routes speaking each scenario's dialect: the request read from the team's shape into
 * the operation's input and validated (the transports leave validation to it then, so that an
 * error names the team's pointers), the core's answer rendered in the team's shape, and every
 * problem through the error shape. Without any dialect the definitions are returned as they are:
 * nothing on the request path changes.
 */
export function shapedRoutes (services: CoreServices, definitions: readonly RouteDefinition[]): RouteDefinition[] {
  if (!services.dialects.any) return [...definitions]
  const compiled = compiledDialects(services.dialects)
  const validation = createValidatorCompiler()
  for (const schema of SHARED_SCHEMAS) validation.addSchema(schema)
  return definitions.map(definition => {
    const op = definition.operationId === null ? undefined : OPERATIONS_BY_ID.get(definition.operationId)
    if (op === undefined) return definition
    const core = definition.answer
    // Fastify's order: path parameters, then the body, then the query string.
    const validators: Array<['params' | 'body' | 'querystring', Validator]> = []
    for (const part of ['params', 'body', 'querystring'] as const) {
      const schema = definition.schema[part]
      if (schema !== undefined) validators.push([part, validation.compiler({ schema, httpPart: part })])
    }
    const successShape = op.success.schema

    const read = readRouteOf(definitions, definition)
    const answer = (request: CoreRequest, current?: Record<string, unknown>): Answer | Promise<Answer> => {
      const before = scenarioOf(services, request)
      const dialect = compiled.get(before)
      // A partial update (merge: true): the entity as it is first, to fill what the body leaves out.
      if (current === undefined && read !== undefined && dialect?.merges.has(op.id) === true) {
        return currentEntity(read, request).then(entity => answer(request, entity ?? {}))
      }
      const reader = dialect === undefined ? undefined : requestReader(dialect, op.id)
      let body = request.body
      for (const [part, validate] of validators) {
        let data = part === 'querystring' ? request.query : part === 'params' ? request.params : body
        if (part === 'body' && reader !== undefined) {
          const problems: ReadProblem[] = []
          data = reader.read(data, '', problems)
          if (problems.length > 0) return refused(readProblem(problems), request, dialect, undefined)
          if (current !== undefined) data = mergeCurrent(current, data)
          body = data
        }
        if (!validate(data)) {
          return refused({ ...validationProblem(validate.errors as never, part), instance: pathOf(request.url) }, request, dialect, part === 'body' ? reader : undefined)
        }
      }
      // Rendered once: by the pipeline before it stores a kept answer (then it is final), else here.
      let final = false
      const render = (done: Answer): Answer => {
        if (final || done.headers?.[IDEMPOTENT_REPLAYED_HEADER] === 'true') return done
        final = true
        const scenario = request.session?.world.scenario ?? before
        const now = scenario === before ? dialect : compiled.get(scenario)
        return now === undefined ? done : rendered(done, now, successShape, now === dialect ? reader : undefined)
      }
      const given = core(derived(request, body, render))
      return isThenable(given) ? Promise.resolve(given).then(render) : render(given)
    }
    return { ...definition, answer: (request: CoreRequest) => answer(request), validatedByAnswer: true }
  })
}

/** The scenario whose dialect reads a request: its session's (as this process holds it), else the one new sessions start from. */
function scenarioOf (services: CoreServices, request: CoreRequest): string {
  return request.session !== null ? request.session.world.scenario : scenarioFor(services, request.headers)
}

/** The scenario of the session `x-mock-session` names, as this process holds it; else the one new sessions start from. */
export function scenarioFor (services: CoreServices, headers: Headers): string {
  try {
    return services.sessions.peek(sessionIdFrom(headers))?.world.scenario ?? services.activeScenario
  } catch {
    return services.activeScenario // a malformed session id: the core answers it
  }
}

/** The request as the operation reads it: the mock's input in place of the team's body, and how to render its answer; the session still lands on the transport's request. */
function derived (request: CoreRequest, body: unknown, render: (answer: Answer) => Answer): CoreRequest {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    params: request.params,
    query: request.query,
    body,
    sentBody: request.sentBody,
    clientAddress: request.clientAddress,
    signal: request.signal,
    render,
    baseUrl: () => request.baseUrl(),
    get session () { return request.session },
    set session (session) { request.session = session },
    get sessionCreated () { return request.sessionCreated },
    set sessionCreated (created) { request.sessionCreated = created },
    // The persona lands on the transport's request too: its answer and journal entry name it.
    get persona () { return request.persona },
    set persona (persona) { request.persona = persona }
  }
}

function readProblem (problems: readonly ReadProblem[]): ProblemBody {
  const first = problems[0] as ReadProblem
  return problem(400, 'validation_failed', `The request body is invalid: ${first.pointer === '' ? '' : `${first.pointer} `}${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}${first.message.endsWith('?') && problems.length === 1 ? '' : '.'}`, {
    errors: problems.map(p => ({ pointer: p.pointer, message: p.message }))
  })
}

function refused (body: ProblemBody, request: CoreRequest, dialect: ScenarioDialect | undefined, reader: CompiledShape | undefined): Answer {
  const answer = problemAnswer({ ...body, instance: body.instance ?? pathOf(request.url) })
  return dialect === undefined ? answer : rendered(answer, dialect, undefined, reader)
}

const PROBLEM_TYPE = 'application/problem+json'

/**
 * An answer in the dialect: a success body through the shape of the operation's schema (with
 * its envelope), a problem through the error shape. What a response example wrote is sent as
 * written, never parsed; a replay is never seen here (its stored text was rendered before it was kept).
 */
function rendered (answer: Answer, dialect: ScenarioDialect, successShape: string | undefined, reader: CompiledShape | undefined): Answer {
  if (answer.drop === true || answer.stream !== undefined || answer.headers?.[SOURCE_HEADER] === 'override') return answer
  if (answer.text !== undefined) {
    if (answer.contentType?.startsWith(PROBLEM_TYPE) === true) {
      const shape = dialect.problem
      if (shape === undefined && reader === undefined) return answer
      const body = JSON.parse(answer.text) as ProblemBody
      // The fields a problem names are the team's, as the request was.
      if (reader !== undefined && body.errors !== undefined) teamFields(body as ProblemBody & { errors: FieldError[] }, reader)
      if (shape === undefined) return { ...answer, text: JSON.stringify(body) }
      return { ...answer, ...renderedProblem(body, shape) }
    }
    return answer // written as sent (the core renders only JSON bodies)
  }
  if (answer.body === undefined || answer.status >= 300 || successShape === undefined) return answer
  const shape = dialect.shapes.get(successShape)
  if (shape === undefined) return answer
  const { body: _body, ...rest } = answer
  return { ...rest, text: JSON.stringify(shape.render(answer.body, true)), contentType: shape.contentType ?? 'application/json; charset=utf-8' }
}

/** A problem in the team's error shape: the status stays the answer's, the content type is the shape's. */
export function renderedProblem (body: ProblemBody, shape: CompiledShape): { text: string; contentType: string } {
  return { text: JSON.stringify(shape.render(body, true)), contentType: shape.contentType ?? 'application/json; charset=utf-8' }
}

/**
 * A problem's fields named by the team's pointers, in its errors and in the sentences that quote
 * them (`/email must match format "email"`), so that a message never names a field the team does not have.
 */
function teamFields (body: ProblemBody & { errors: FieldError[] }, reader: CompiledShape): void {
  const renamed = new Map<string, string>()
  body.errors = body.errors.map(e => {
    const team = reader.teamPointer(e.pointer)
    if (team === undefined || team === e.pointer) return e
    renamed.set(e.pointer, team)
    return { ...e, pointer: team }
  })
  if (renamed.size === 0) return
  // One pass, the longest first (`/address/city` before `/address`); a pointer only where it stands whole.
  const alternatives = [...renamed.keys()].sort((a, b) => b.length - a.length).map(p => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const mock = new RegExp(`(?<![\\w/~-])(?:${alternatives.join('|')})(?![\\w/~-])`, 'g')
  const translate = (text: string): string => text.replace(mock, found => renamed.get(found) as string)
  body.errors = body.errors.map(e => ({ ...e, message: translate(e.message) }))
  body.detail = translate(body.detail)
}
