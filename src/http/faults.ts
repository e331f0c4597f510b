import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Session } from '../state/sessions.js'
import { FAULT_HEADER, journalRequest, SOURCE_HEADER } from './journal-hook.js'
import { problem, retryAfterFor, sendProblem } from './problem.js'
import type { MockServices } from './services.js'

/**
 * Applies the session's fault rules to one API request. Returns true when the fault answered (a
 * problem) or dropped the connection, so the operation must not run; false to carry on (after any
 * delay). Only called when the session has rules.
 */
export async function injectFaults (services: MockServices, session: Session, operationId: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const outcome = session.faults.evaluate(operationId)
  if (outcome.fired.length === 0) return false
  reply.header(FAULT_HEADER, outcome.fired.join(', '))
  if (outcome.delayMs > 0) await sleep(outcome.delayMs)
  const rule = outcome.terminal
  if (rule === undefined) return false

  if (rule.reset) {
    // No response follows, so the journal is written here; hijack keeps Fastify from answering.
    journalRequest(services, request, 0, reply.elapsedTime, 'fault', outcome.fired)
    reply.hijack()
    reply.raw.destroy()
    return true
  }
  const status = rule.status ?? 500
  reply.header(SOURCE_HEADER, 'fault')
  const detail = rule.detail ?? `Injected by fault rule ${rule.id} (see GET /__mock/faults).`
  sendProblem(reply, problem(status, rule.code ?? 'fault_injected', detail, { faultId: rule.id, instance: request.url.split('?')[0] }), retryAfterFor(status, rule.retryAfter))
  return true
}
