import { pathOf, type Answer, type Headers } from '../core/exchange.js'
import type { CoreServices } from '../core/services.js'
import type { ProblemBody } from '../core/problem.js'
import { renderedProblem, scenarioFor } from './routes.js'
import { compiledDialects } from './view.js'

/** What a transport knows of a request it refuses before any operation runs. */
export interface RefusedRequest {
  readonly url: string
  readonly headers: Headers
}

/** A problem as the team's error shape writes it. */
export interface ShapedProblem {
  text: string
  contentType: string
}

/**
 * The problems a transport answers before an operation runs (an unknown route, a 405, a malformed
 * URL, the body parser's 415, 413 and malformed JSON) in the dialect in effect: the session's
 * scenario's, else the one new sessions start from, as an operation's own problems are.
 */
export interface Refusals {
  /** The problem in the team's shape; undefined: send it as problem+json. */
  shape: (body: ProblemBody, request: RefusedRequest) => ShapedProblem | undefined
  /** A problem answer (problemAnswer's, always text) in the team's shape. */
  answer: (answer: Answer, request: RefusedRequest) => Answer
}

/**
 * Undefined without any dialect: the transports answer as they always have. Only paths under the
 * API's (the first segment of an operation's route, `/baas` by default) are the team's; the
 * control plane and the mock's own pages keep problem+json.
 */
export function refusals (services: CoreServices): Refusals | undefined {
  if (!services.dialects.any) return undefined
  const compiled = compiledDialects(services.dialects)
  const roots = new Set(services.routes.map(route => rootOf(route.url)))
  const shape = (body: ProblemBody, request: RefusedRequest): ShapedProblem | undefined => {
    // The control plane and the mock's own pages are reserved paths no route may take (route-config.ts).
    if (!roots.has(rootOf(pathOf(request.url)))) return undefined
    const problem = compiled.get(scenarioFor(services, request.headers))?.problem
    return problem === undefined ? undefined : renderedProblem(body, problem)
  }
  return {
    shape,
    answer: (answer, request) => {
      const shaped = shape(JSON.parse(answer.text as string) as ProblemBody, request)
      return shaped === undefined ? answer : { ...answer, ...shaped }
    }
  }
}

/** `/baas` of `/baas/debit-cards/:cardId/lock`. */
function rootOf (path: string): string {
  return path.split('/', 2).join('/')
}
