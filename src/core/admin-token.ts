import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64url } from '../world/digest.js'
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

/** The dashboard's session cookie, which stands for the admin token so that no URL has to carry it. */
export const ADMIN_COOKIE = 'baas-mock-admin'

const COOKIE_LABEL = new TextEncoder().encode('baas-mock dashboard session v1')

/**
 * The cookie's value: an HMAC of a fixed label keyed by the token. Not the token itself (a cookie
 * jar or a proxy that logs cookies does not learn it), not guessable without it, and the same on
 * every replica sharing the token (a per-process key would fail half the requests behind a balancer);
 * a new token makes every issued cookie worthless.
 */
export function adminCookieValue (token: string): string {
  return base64url(hmac(sha256, new TextEncoder().encode(token), COOKIE_LABEL))
}

/** `Set-Cookie` for the dashboard: HTTP-only (no script reads it), sent only by the mock's own pages. */
export function adminCookieHeader (token: string): string {
  // No Path: the default is the folder of the URL that set it, `/__mock` (or `/prefix/__mock` behind a proxy).
  return `${ADMIN_COOKIE}=${adminCookieValue(token)}; HttpOnly; SameSite=Strict`
}

/** Whether the request carries the dashboard cookie of this token. */
export function hasAdminCookie (headers: Headers, token: string): boolean {
  const raw = headers.cookie
  const cookie = Array.isArray(raw) ? raw.join('; ') : raw
  if (cookie === undefined) return false
  const expected = adminCookieValue(token)
  return cookie.split(';').some(pair => {
    const [name, value] = pair.trim().split('=', 2)
    return name === ADMIN_COOKIE && value !== undefined && sameText(value, expected)
  })
}

/** Compares without stopping at the first difference, so the time taken says nothing of where it is. */
export function sameText (a: string, b: string): boolean {
  let differ = a.length ^ b.length
  for (let i = 0; i < b.length; i++) differ |= (a.charCodeAt(i) ^ b.charCodeAt(i))
  return differ === 0
}
