import type { FastifyRequest } from 'fastify'
import { sessionIdFrom } from '../../core/session-id.js'

export { SESSION_CREATED_HEADER, SESSION_HEADER } from '../../core/session-id.js'

export function sessionIdOf (request: FastifyRequest): string {
  return sessionIdFrom(request.headers)
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
