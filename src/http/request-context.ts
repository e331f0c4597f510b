import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DomainContext } from '../domain/context.js'
import type { ResolvedRoute } from '../route-config.js'
import type { Session } from '../state/sessions.js'
import type { World } from '../state/world.js'
import { HttpProblem, problem } from './problem.js'

/** What a route handler gets: the caller's world and persona, already resolved. */
export interface MockContext {
  session: Session
  world: World
  ctx: DomainContext
  customerId: string
  route: ResolvedRoute
  /** `--public-url`: with the request, gives the base URL links are made from (see baseUrlOf). */
  publicUrl: string | undefined
}

/** Returns the response body (or a promise of it), which the caller sends; it may set the status on `reply`. */
export type OperationHandler = (mock: MockContext, request: FastifyRequest, reply: FastifyReply) => unknown

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/

export const SESSION_HEADER = 'x-mock-session'

/** `true` on the first answer from a session made from the scenario: its first use, or after it was dropped (evicted, idle, deleted). */
export const SESSION_CREATED_HEADER = 'x-mock-session-created'

export function sessionIdOf (request: FastifyRequest): string {
  const raw = request.headers[SESSION_HEADER]
  if (raw === undefined || raw === '') return 'default'
  const value = Array.isArray(raw) ? raw[0] ?? '' : raw
  if (!SESSION_ID.test(value)) {
    throw new HttpProblem(problem(400, 'invalid_session_id', `${SESSION_HEADER} must be 1-128 characters of letters, digits and . _ : -`, {
      errors: [{ pointer: `/headers/${SESSION_HEADER}`, message: 'must match ^[A-Za-z0-9._:-]{1,128}$' }]
    }))
  }
  return value
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/
const PATH_PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/

/**
 * Forwarded values that are not an http(s) scheme, a host[:port] or a plain path are ignored, so a
 * junk header never turns the links the mock hands out (the PIN page) into broken URLs.
 */
export function baseUrlOf (request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl.replace(/\/+$/, '')
  const forwardedProto = firstHeader(request.headers['x-forwarded-proto'])
  const forwardedHost = firstHeader(request.headers['x-forwarded-host'])
  const forwardedPrefix = (firstHeader(request.headers['x-forwarded-prefix']) ?? '').replace(/\/+$/, '')
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : request.protocol
  const host = [forwardedHost, request.host].find(h => h !== undefined && HOST.test(h)) ?? 'localhost'
  return `${proto}://${host}${PATH_PREFIX.test(forwardedPrefix) ? forwardedPrefix : ''}`
}

function firstHeader (value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value
  return v === undefined || v === '' ? undefined : v.split(',')[0]?.trim()
}
