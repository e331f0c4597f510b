import type { OperationExamples, ResponseExample, TemplateContext } from '../fixtures/responses.js'
import type { ResolvedRoute } from '../config/route-config.js'
import type { Session } from '../world/sessions.js'
import { snapshot } from '../world/snapshot.js'
import { redactHeaders } from '../world/journal.js'
import { SOURCE_HEADER } from './faults.js'
import type { RequestDelay } from './delay.js'
import { parsePrefer, preferenceApplied, type Preferences } from './prefer.js'
import { HttpProblem, problem, problemAnswer, retryAfterFor } from './problem.js'
import { pathOf, type Answer, type CoreRequest } from './exchange.js'

/** Statuses that carry no body (RFC 9110). */
const BODILESS = new Set([204, 205, 304])

/** RFC 9110 field-value: visible characters, spaces and tabs; no CR or LF that would split the header. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/**
 * Answers from a response example or a forced status instead of the domain, when the `Prefer`
 * header or a default example asks for it; undefined to let the operation run (after any delay).
 * The caller only comes here when there is a Prefer header or a default example, so plain
 * requests never pay for parsing or templates.
 */
export async function answerFromOverrides (
  request: CoreRequest, session: Session, route: ResolvedRoute,
  customerId: string, examples: OperationExamples | undefined, headers: Record<string, string>, delay: RequestDelay
): Promise<Answer | { reshape: ResponseExample } | undefined> {
  const prefs = parsePrefer(request.headers.prefer)
  const op = route.operation
  const choice = choose(prefs, op.id, [op.success.status, ...(op.success.alternatives ?? [])], examples)
  // Fault rules may have used some of the request's delay cap already: the rest is what is left.
  const waitMs = delay.allowance(prefs.delay ?? choice.example?.delay ?? 0)
  // Preference-Applied names the delay waited, which fault delays may have shortened or used up.
  const delayHonoured = prefs.delay !== undefined && (waitMs > 0 || prefs.delay === 0)
  const applied = preferenceApplied({ ...prefs, delay: waitMs }, { example: choice.example !== undefined, code: choice.example !== undefined || choice.forced, delay: delayHonoured })
  if (applied !== undefined) headers['preference-applied'] = applied
  await delay.wait(waitMs)

  // A reshaping example lets the operation run: the caller renders its success afterwards (reshapedAnswer).
  if (choice.example?.mode === 'reshape') return { reshape: choice.example }
  if (choice.example !== undefined) return exampleAnswer(request, templateContext(request, session, op.id, customerId), choice.example, op.success.status, headers)
  if (choice.forced && prefs.code !== undefined) {
    headers[SOURCE_HEADER] = 'prefer'
    // The mock has no body for a status it does not document: an error gets a problem, anything
    // else (a 204, a 302) goes out empty; a response example can give it a body and headers.
    if (prefs.code < 400) return { status: prefs.code, headers }
    return problemAnswer(problem(prefs.code, 'forced_status', `Answered ${prefs.code} because the request sent Prefer: code=${prefs.code} and ${op.id} has no example with that status.`, {
      instance: pathOf(request.url)
    }), retryAfterFor(prefs.code), headers)
  }
  return undefined
}

interface Choice { example: ResponseExample | undefined; forced: boolean }

function choose (prefs: Preferences, operationId: string, successStatuses: readonly number[], examples: OperationExamples | undefined): Choice {
  if (prefs.example !== undefined) {
    const example = examples?.examples.get(prefs.example)
    if (example === undefined) {
      const known = [...(examples?.examples.keys() ?? [])]
      throw new HttpProblem(problem(400, 'unknown_example', `${operationId} has no response example named ${prefs.example}; ${known.length === 0 ? 'it has none' : `known: ${known.join(', ')}`}.`, {
        errors: [{ pointer: '/headers/prefer', message: `example ${prefs.example} does not exist for ${operationId}` }]
      }))
    }
    return { example, forced: false }
  }
  if (prefs.code !== undefined) {
    const code = prefs.code
    const candidates = [...(examples?.examples.values() ?? [])]
    const byStatus = (e: ResponseExample): boolean => (e.status ?? successStatuses[0]) === code
    const example = candidates.find(e => e.isDefault && byStatus(e)) ?? candidates.find(byStatus)
    if (example !== undefined) return { example, forced: false }
    // A success status the operation documents: the real handler answers (preferences are hints).
    return { example: undefined, forced: !successStatuses.includes(code) }
  }
  return { example: examples?.defaultExample, forced: false }
}

/**
 * A reshaping example's answer: the operation's success rendered through the example's template,
 * which sees what replacing ones do plus `answer` (the mock's own body, as the API writes it) and
 * `status`. The operation's errors are answered as they are.
 */
export function reshapedAnswer (
  request: CoreRequest, session: Session, operationId: string, customerId: string,
  example: ResponseExample, done: Answer, serialize: (status: number, body: unknown) => string
): Answer {
  if (done.status >= 300 || done.body === undefined) return done
  const context = templateContext(request, session, operationId, customerId)
  context.answer = JSON.parse(serialize(done.status, done.body))
  context.status = done.status
  return exampleAnswer(request, context, example, done.status, { ...done.headers })
}

function exampleAnswer (
  request: CoreRequest, context: TemplateContext,
  example: ResponseExample, successStatus: number, headers: Record<string, string>
): Answer {
  headers[SOURCE_HEADER] = 'override'
  let body: string | undefined
  const rendered: Record<string, string> = {}
  try {
    for (const [name, render] of example.headers) {
      const value = String(render(context))
      // A value rendered from request data may hold a newline: fail here, as a problem, not in the transport's writer.
      if (!HEADER_VALUE.test(value)) throw new TypeError(`Invalid character in header content ["${name}"]`)
      rendered[name.toLowerCase()] = value
    }
    body = example.body?.(context)
  } catch (error) {
    return problemAnswer(problem(500, 'template_failed', `Response example ${example.name} in ${example.file} failed to render: ${(error as Error).message}`, {
      instance: pathOf(request.url)
    }), undefined, headers)
  }
  const status = example.status ?? successStatus
  const merged = { ...rendered, ...headers }
  if (body === undefined || BODILESS.has(status)) return { status, headers: merged }
  // An example's own content-type (text/csv, say) wins; otherwise the transport's JSON default.
  return { status, headers: merged, text: body, contentType: rendered['content-type'] ?? 'application/json; charset=utf-8' }
}

function templateContext (request: CoreRequest, session: Session, operationId: string, customerId: string): TemplateContext {
  const world = session.world
  let state: unknown
  return {
    request: {
      method: request.method,
      path: pathOf(request.url),
      params: request.params ?? {},
      query: request.query ?? {},
      body: request.body ?? null,
      headers: redactHeaders(request.headers)
    },
    customer: world.ctx.state.customers.get(customerId) ?? null,
    // The snapshot copies the whole world: only templates that read `state` pay for it.
    get state () {
      state ??= snapshot(world)
      return state
    },
    now: world.clock.now().toISOString(),
    session: session.id,
    operationId
  }
}
