import type { Session } from '../world/sessions.js'
import { problem, problemAnswer, retryAfterFor } from './problem.js'
import type { RequestDelay } from './delay.js'
import { pathOf, type Answer, type CoreRequest } from './exchange.js'

export const SOURCE_HEADER = 'x-mock-source'
export const FAULT_HEADER = 'x-mock-fault'

/**
 * Applies the session's fault rules to one API request, after waiting their delays (within the
 * request's cap). Answers the fault (a problem, or a dropped connection) when one ends the request;
 * undefined to carry on, with the fired rules named in `headers`. Only called when the session has rules.
 */
export async function applyFaults (
  session: Session, operationId: string, request: CoreRequest, headers: Record<string, string>, delay: RequestDelay
): Promise<Answer | undefined> {
  const outcome = session.faults.evaluate(operationId)
  if (outcome.fired.length === 0) return undefined
  headers[FAULT_HEADER] = outcome.fired.join(', ')
  await delay.wait(outcome.delayMs)
  const rule = outcome.terminal
  if (rule === undefined) return undefined
  headers[SOURCE_HEADER] = 'fault'
  if (rule.reset) return { status: 0, headers, drop: true }
  const status = rule.status ?? 500
  const detail = rule.detail ?? `Injected by fault rule ${rule.id} (see GET /__mock/faults).`
  return problemAnswer(problem(status, rule.code ?? 'fault_injected', detail, { faultId: rule.id, instance: pathOf(request.url) }), retryAfterFor(status, rule.retryAfter), headers)
}
