import { Type, type TSchema } from 'typebox'
import { Enum } from '../core/schemas/common.js'
import { HttpProblem, problem } from '../core/problem.js'
import { OPERATIONS } from '../core/operations.js'
import { LIST_ORDERS } from '../world/journal.js'

/** Shared pieces of the control plane's route schemas (tag 'Mock control'). */
export const CONTROL_TAGS = ['Mock control']

const PROBLEM_TEXT: Record<number, string> = {
  400: 'Invalid request (query, body or x-mock-session)',
  401: 'Admin token missing or wrong (only with --admin-token)',
  403: 'Sent by a web page of an origin not allowed (--control-origins)',
  404: 'Not found',
  409: 'Not allowed in the current state',
  410: 'Gone',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Semantically invalid'
}

/** Success responses plus problem+json for 400, 401, 403 and the given statuses. */
export function responses (success: Record<number, TSchema | { description: string; content: Record<string, { schema: TSchema }> }>, ...problems: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = { ...success }
  for (const status of [400, 401, 403, ...problems]) out[status] = { ...Type.Ref('Problem'), description: PROBLEM_TEXT[status] ?? 'Problem' }
  return out
}

/**
 * Fastify reads the body of a DELETE too, so a DELETE sent with a large or non-JSON body answers 413
 * or 415 before the route runs: the document lists them.
 */
export const BODY_PROBLEMS = [413, 415] as const

export const NoContent = (description: string): TSchema => Type.Unsafe({ type: 'null', description })

/** An operation id or a configuration name (which may name several operations). */
export const OperationName = Enum([...new Set(OPERATIONS.flatMap(op => [op.id, op.configName]))], {
  description: 'An operation id (lockCard) or a configuration name (API_BAAS_CUSTOMER_CARD_LOCK, which covers every operation sharing it)'
})

/** The operation ids an operation id or configuration name stands for. */
export function operationIdsFor (name: string): string[] {
  const ids = OPERATIONS.filter(op => op.id === name || op.configName === name).map(op => op.id)
  if (ids.length === 0) {
    throw new HttpProblem(problem(400, 'unknown_operation', `${name} is neither an operation id nor a configuration name.`, {
      errors: [{ pointer: '/operation', message: 'is not a known operation' }]
    }))
  }
  return ids
}

export const ListOrder = Enum(LIST_ORDERS, { description: 'desc (default): newest first; asc: oldest first' })

/**
 * Page sizes of the control plane's lists (journal, outbox, events). The default page holds a whole
 * journal or outbox at their default caps, as the lists answered before they were paged.
 */
export const CONTROL_LIST_LIMITS = { defaultLimit: 1000, maxLimit: 10_000 } as const
