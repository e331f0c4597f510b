import { bearerToken } from './persona.js'
import { problem, type ProblemBody } from './problem.js'
import type { Headers } from './exchange.js'

export const ADMIN_TOKEN_HEADER = 'x-mock-admin-token'

/**
 * The admin token a control-plane request carries: `x-mock-admin-token`, `Authorization: Bearer`,
 * or `?token=` (EventSource cannot send headers).
 */
export function givenAdminToken (headers: Headers, query: Record<string, unknown> | undefined): string | undefined {
  const raw = headers[ADMIN_TOKEN_HEADER]
  const header = Array.isArray(raw) ? raw[0] : raw
  const authorization = headers.authorization
  return (header === '' ? undefined : header) ?? bearerToken(Array.isArray(authorization) ? authorization[0] : authorization) ??
    (typeof query?.token === 'string' ? query.token : undefined)
}

export function adminTokenProblem (given: string | undefined, path: string): ProblemBody {
  return problem(401, 'admin_token_required', given === undefined
    ? `The control plane needs the admin token: send ${ADMIN_TOKEN_HEADER}: <token>, Authorization: Bearer <token>, or ?token=<token>.`
    : 'The admin token does not match.', { instance: path })
}

export const ADMIN_CHALLENGE = 'Bearer realm="baas-mock control plane"'
