import type { FastifyRequest } from 'fastify'
import { sessionIdFrom } from '../../core/session-id.js'
import { firstHeader, forwardedPrefix } from '../../core/forwarded-prefix.js'

export { SESSION_CREATED_HEADER, SESSION_HEADER } from '../../core/session-id.js'

export function sessionIdOf (request: FastifyRequest): string {
  return sessionIdFrom(request.headers)
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * Forwarded values that are not an http(s) scheme, a host[:port] or a plain path are ignored, so a
 * junk header never turns the links the mock hands out (the PIN page) into broken URLs.
 */
export function baseUrlOf (request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl.replace(/\/+$/, '')
  const forwardedProto = firstHeader(request.headers['x-forwarded-proto'])
  const forwardedHost = firstHeader(request.headers['x-forwarded-host'])
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : request.protocol
  const host = [forwardedHost, request.host].find(h => h !== undefined && HOST.test(h)) ?? 'localhost'
  return `${proto}://${host}${forwardedPrefix(request.headers['x-forwarded-prefix'])}`
}
