import { OPERATIONS_BY_ID } from '../core/operations.js'
import { isThenable, pathOf, type Answer, type CoreRequest } from '../core/exchange.js'
import type { RouteDefinition } from '../core/route-definition.js'
import type { CoreServices } from '../core/services.js'
import { SOURCE_HEADER } from '../core/faults.js'
import { IDEMPOTENT_REPLAYED_HEADER } from '../core/idempotency.js'
import { problem, problemAnswer, type ProblemBody } from '../core/problem.js'
import { createValidatorCompiler, validationProblem, type Validator } from '../core/validation.js'
import { SHARED_SCHEMAS } from '../core/schemas/index.js'
import { sessionIdFrom } from '../core/session-id.js'
import type { DialectHooks } from '../core/dialect-hooks.js'
import type { Dialects } from '../fixtures/dialect.js'
import type { CompiledShape, ReadProblem } from './compile.js'
import { currentEntity, mergeCurrent, readRouteOf } from './merge.js'
import { compiledDialects, eventViews, requestReader, stateViews, type ScenarioDialect } from './view.js'

/** What loadCore is handed to show events and the state in a dialect. */
export function dialectHooks (dialects: Dialects): DialectHooks {
  return { events: eventViews(dialects), state: stateViews(dialects) }
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
      let input = request
      for (const [part, validate] of validators) {
        let data = part === 'querystring' ? request.query : part === 'params' ? request.params : input.body
        if (part === 'body' && reader !== undefined) {
          const problems: ReadProblem[] = []
          data = reader.read(data, '', problems)
          if (problems.length > 0) return refused(readProblem(problems), request, dialect, undefined)
          if (current !== undefined) data = mergeCurrent(current, data)
          input = withBody(request, data)
        }
        if (!validate(data)) {
          return refused({ ...validationProblem(validate.errors as never, part), instance: pathOf(request.url) }, request, dialect, part === 'body' ? reader : undefined)
        }
      }
      const given = core(input)
      const render = (done: Answer): Answer => {
        const scenario = request.session?.world.scenario ?? before
        const now = scenario === before ? dialect : compiled.get(scenario)
        return now === undefined ? done : rendered(done, now, successShape, now === dialect ? reader : undefined)
      }
      return isThenable(given) ? Promise.resolve(given).then(render) : render(given)
    }
    return { ...definition, answer: (request: CoreRequest) => answer(request), validatedByAnswer: true }
  })
}

/** The scenario whose dialect reads a request: its session's (as this process holds it), else the one new sessions start from. */
function scenarioOf (services: CoreServices, request: CoreRequest): string {
  if (request.session !== null) return request.session.world.scenario
  try {
    return services.sessions.peek(sessionIdFrom(request.headers))?.world.scenario ?? services.activeScenario
  } catch {
    return services.activeScenario // a malformed session id: the core answers it
  }
}

/** The request as the operation reads it: the mock's input in place of the team's body; the session still lands on the transport's request. */
function withBody (request: CoreRequest, body: unknown): CoreRequest {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    params: request.params,
    query: request.query,
    body,
    sentBody: request.sentBody,
    clientAddress: request.clientAddress,
    baseUrl: () => request.baseUrl(),
    get session () { return request.session },
    set session (session) { request.session = session },
    get sessionCreated () { return request.sessionCreated },
    set sessionCreated (created) { request.sessionCreated = created }
  }
}

function readProblem (problems: readonly ReadProblem[]): ProblemBody {
  const first = problems[0] as ReadProblem
  return problem(400, 'validation_failed', `The request body is invalid: ${first.pointer === '' ? '' : `${first.pointer} `}${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}.`, {
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
 * written; a replay is rendered from the mock's stored text as its first answer was.
 */
function rendered (answer: Answer, dialect: ScenarioDialect, successShape: string | undefined, reader: CompiledShape | undefined): Answer {
  if (answer.drop === true || answer.stream !== undefined || answer.headers?.[SOURCE_HEADER] === 'override') return answer
  if (answer.text !== undefined) {
    if (answer.contentType?.startsWith(PROBLEM_TYPE) === true) {
      const shape = dialect.problem
      if (shape === undefined && reader === undefined) return answer
      const body = JSON.parse(answer.text) as ProblemBody
      // The fields a problem names are the team's, as the request was.
      if (reader !== undefined && body.errors !== undefined) body.errors = body.errors.map(e => ({ ...e, pointer: reader.teamPointer(e.pointer) ?? e.pointer }))
      if (shape === undefined) return { ...answer, text: JSON.stringify(body) }
      return { ...answer, text: JSON.stringify(shape.render(body, true)), contentType: shape.contentType ?? 'application/json; charset=utf-8' }
    }
    if (answer.headers?.[IDEMPOTENT_REPLAYED_HEADER] !== 'true' || answer.status >= 300) return answer
    const shape = successShape === undefined ? undefined : dialect.shapes.get(successShape)
    if (shape === undefined) return answer
    return { ...answer, text: JSON.stringify(shape.render(JSON.parse(answer.text), true)), contentType: shape.contentType ?? answer.contentType }
  }
  if (answer.body === undefined || answer.status >= 300 || successShape === undefined) return answer
  const shape = dialect.shapes.get(successShape)
  if (shape === undefined) return answer
  const { body: _body, ...rest } = answer
  return { ...rest, text: JSON.stringify(shape.render(answer.body, true)), contentType: shape.contentType ?? 'application/json; charset=utf-8' }
}
