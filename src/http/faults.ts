import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Session } from '../state/sessions.js'
import type { RequestDelay } from './delay.js'
import { FAULT_HEADER, journalRequest, SOURCE_HEADER } from './journal-hook.js'
import { problem, retryAfterFor, sendProblem } from './problem.js'
import type { MockServices } from './services.js'

/** What the fault rules did to a request: nothing that ends it, an answer (a problem), or a dropped connection. */
export type FaultResult = 'continue' | 'answered' | 'dropped'

/**
 * Applies the session's fault rules to one API request, after waiting their delays (within the
 * request's cap). Unless it answers `continue`, the operation must not run. Only called when the
 * session has rules.
 */
export async function injectFaults (
  services: MockServices, session: Session, operationId: string, request: FastifyRequest, reply: FastifyReply, delay: RequestDelay
): Promise<FaultResult> {
  const outcome = session.faults.evaluate(operationId)
  if (outcome.fired.length === 0) return 'continue'
  reply.header(FAULT_HEADER, outcome.fired.join(', '))
  await delay.wait(outcome.delayMs)
  const rule = outcome.terminal
  if (rule === undefined) return 'continue'

  if (rule.reset) {
    // No response follows, so the journal is written here; hijack keeps Fastify from answering.
    journalRequest(services, request, 0, reply.elapsedTime, 'fault', outcome.fired)
    reply.hijack()
    reply.raw.destroy()
    return 'dropped'
  }
  const status = rule.status ?? 500
  reply.header(SOURCE_HEADER, 'fault')
  const detail = rule.detail ?? `Injected by fault rule ${rule.id} (see GET /__mock/faults).`
  sendProblem(reply, problem(status, rule.code ?? 'fault_injected', detail, { faultId: rule.id, instance: request.url.split('?')[0] }), retryAfterFor(status, rule.retryAfter))
  return 'answered'
}
