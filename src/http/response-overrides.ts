import { validateHeaderValue } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { OperationExamples, ResponseExample, TemplateContext } from '../fixtures/responses.js'
import type { ResolvedRoute } from '../route-config.js'
import type { Session } from '../state/sessions.js'
import { snapshot } from '../state/snapshot.js'
import { redactHeaders } from '../state/journal.js'
import type { RequestDelay } from './delay.js'
import { SOURCE_HEADER } from './journal-hook.js'
import { parsePrefer, preferenceApplied, type Preferences } from './prefer.js'
import { HttpProblem, problem, retryAfterFor, sendProblem } from './problem.js'

/** Statuses that carry no body (RFC 9110). */
const BODILESS = new Set([204, 205, 304])

/**
 * Answers from a response example or a forced status instead of the domain, when the `Prefer`
 * header or a default example asks for it. Returns true when it sent the response. The caller
 * only comes here when there is a Prefer header or a default example, so plain requests never pay
 * for parsing or templates.
 */
export async function answerFromOverrides (
  request: FastifyRequest, reply: FastifyReply, session: Session, route: ResolvedRoute,
  customerId: string, examples: OperationExamples | undefined, delay: RequestDelay
): Promise<boolean> {
  const prefs = parsePrefer(request.headers.prefer)
  const op = route.operation
  const choice = choose(prefs, op.id, [op.success.status, ...(op.success.alternatives ?? [])], examples)
  // Fault rules may have used some of the request's delay cap already: the rest is what is left.
  const waitMs = delay.allowance(prefs.delay ?? choice.example?.delay ?? 0)
  // Preference-Applied names the delay waited, which fault delays may have shortened or used up.
  const delayHonoured = prefs.delay !== undefined && (waitMs > 0 || prefs.delay === 0)
  const applied = preferenceApplied({ ...prefs, delay: waitMs }, { example: choice.example !== undefined, code: choice.example !== undefined || choice.forced, delay: delayHonoured })
  if (applied !== undefined) reply.header('preference-applied', applied)
  await delay.wait(waitMs)

  if (choice.example !== undefined) {
    sendExample(request, reply, session, op.id, customerId, choice.example, op.success.status)
    return true
  }
  if (choice.forced && prefs.code !== undefined) {
    reply.header(SOURCE_HEADER, 'prefer')
    // The mock has no body for a status it does not document: an error gets a problem, anything
    // else (a 204, a 302) goes out empty; a response example can give it a body and headers.
    if (prefs.code < 400) {
      reply.code(prefs.code).send()
      return true
    }
    sendProblem(reply, problem(prefs.code, 'forced_status', `Answered ${prefs.code} because the request sent Prefer: code=${prefs.code} and ${op.id} has no example with that status.`, {
      instance: request.url.split('?')[0]
    }), retryAfterFor(prefs.code))
    return true
  }
  return false
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

function sendExample (
  request: FastifyRequest, reply: FastifyReply, session: Session, operationId: string,
  customerId: string, example: ResponseExample, successStatus: number
): void {
  const context = templateContext(request, session, operationId, customerId)
  let body: string | undefined
  const headers: Record<string, string> = {}
  try {
    for (const [name, render] of example.headers) {
      headers[name] = String(render(context))
      // A value rendered from request data may hold a newline: fail here, as a problem, not in Node's writer.
      validateHeaderValue(name, headers[name])
    }
    body = example.body?.(context)
  } catch (error) {
    reply.header(SOURCE_HEADER, 'override')
    sendProblem(reply, problem(500, 'template_failed', `Response example ${example.name} in ${example.file} failed to render: ${(error as Error).message}`, {
      instance: request.url.split('?')[0]
    }))
    return
  }
  const status = example.status ?? successStatus
  reply.code(status).headers(headers).header(SOURCE_HEADER, 'override')
  if (body === undefined || BODILESS.has(status)) reply.send()
  else reply.send(body)
}

function templateContext (request: FastifyRequest, session: Session, operationId: string, customerId: string): TemplateContext {
  const world = session.world
  let state: unknown
  return {
    request: {
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
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
