import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onRouteHookHandler } from 'fastify'
import { ADMIN_CHALLENGE, adminTokenProblem, givenAdminToken, hasAdminCookie } from '../../core/admin-token.js'
import { sendProblem } from './problem.js'

export { ADMIN_TOKEN_HEADER } from '../../core/admin-token.js'

/**
 * Guards the control plane (`/__mock/*` but the PIN page) when `--admin-token` is set. The token
 * comes in `x-mock-admin-token`, `Authorization: Bearer`, or `?token=` (EventSource cannot send
 * headers), or as the dashboard's cookie (given for the token at /__mock/ui, so its page's URLs carry
 * none). Digests are compared in constant time, so neither the token nor its length leaks.
 * `?token=` is removed from the query either way, so it never fails a route's strict query schema.
 */
export function adminTokenGuard (adminToken: string | undefined): onRequestAsyncHookHandler {
  const expected = adminToken === undefined ? undefined : digest(adminToken)
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, unknown> | undefined
    const given = givenAdminToken(request.headers, query)
    if (query !== undefined) delete query.token
    if (expected === undefined) return
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return
    if (given === undefined && hasAdminCookie(request.headers, adminToken as string)) return
    reply.header('www-authenticate', ADMIN_CHALLENGE)
    return sendProblem(reply, adminTokenProblem(given, request.url.split('?')[0] ?? request.url))
  }
}

/** What a guarded route asks for, in OpenAPI terms: the admin token (schemes in openapi.ts) when one is set, else nothing. */
export function adminSecurity (tokenSet: boolean): Record<string, string[]>[] {
  return [{ adminToken: [] }, { adminTokenQuery: [] }, ...(tokenSet ? [] : [{}])]
}

/** Declares the token on each route registered beside adminTokenGuard, so the document says what the guard asks. */
export function documentAdminToken (adminToken: string | undefined): onRouteHookHandler {
  const security = adminSecurity(adminToken !== undefined)
  return route => { route.schema = { ...route.schema, security } }
}

function digest (value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}
