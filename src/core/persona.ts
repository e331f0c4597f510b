import type { World } from '../world/world.js'
import { HttpProblem, problem } from './problem.js'
import { customerByTokenHash, TOKEN_HASH } from './token-hash.js'
import type { Persona } from '../world/persona.js'

export type AuthMode = 'open' | 'strict'

export type { Persona, PersonaVia } from '../world/persona.js'

/** The response header naming the customer that answered. */
export const PERSONA_HEADER = 'x-mock-persona'

/**
 * Why a request that sent something in Authorization got the default persona: the token is no
 * persona's (`unknown`), the header has no `Bearer ` scheme (`no-scheme`) or is not `Bearer <token>`
 * (`malformed`), or it is a JWT whose `sub` is nobody (`unknown-sub`).
 */
export type FallbackReason = 'unknown' | 'no-scheme' | 'malformed' | 'unknown-sub'

export interface Fallback {
  readonly reason: FallbackReason
  /** The token as sent (the whole header value when it has no scheme); never logged whole when long. */
  readonly token: string
  readonly sub?: string | undefined
}

export interface Resolution {
  /** Undefined only in strict mode: the caller answers 401 (personaOf does). */
  readonly persona: Persona | undefined
  /** Set when open mode answered as the default though the request sent a credential. */
  readonly fallback?: Fallback | undefined
}

/**
 * The bearer token selects the customer. A JWT is matched by its `sub` too (as a token or a
 * customer id), so a frontend's real-looking tokens work. Open auth falls back to the default
 * persona, and says why (the fallback) when a credential was sent; strict auth has no persona then.
 */
export function resolvePersona (world: World, authorization: string | undefined, mode: AuthMode): Resolution {
  const token = bearerToken(authorization)
  let fallback: Fallback | undefined
  if (token !== undefined) {
    // A hash sent as the token would match its own entry: only the token it was made from selects.
    const hashed = TOKEN_HASH.test(token)
    const direct = hashed ? undefined : world.tokens.get(token)
    if (direct !== undefined) return { persona: { customerId: direct, via: 'token' } }
    const byHash = hashed ? undefined : customerByTokenHash(world.tokens, token)
    if (byHash !== undefined) return { persona: { customerId: byHash, via: 'token-hash' } }
    const sub = jwtSubject(token)
    if (sub !== undefined) {
      const bySub = world.tokens.get(sub) ?? (world.ctx.state.customers.has(sub) ? sub : undefined)
      if (bySub !== undefined) return { persona: { customerId: bySub, via: 'jwt-sub' } }
    }
    fallback = sub === undefined ? { reason: 'unknown', token } : { reason: 'unknown-sub', token, sub }
  } else if (authorization !== undefined && authorization.trim() !== '') {
    const value = authorization.trim()
    fallback = { reason: /^bearer(\s|$)/i.test(value) ? 'malformed' : 'no-scheme', token: value }
  }
  if (mode === 'open') return { persona: { customerId: world.defaultCustomerId, via: 'default' }, fallback }
  return { persona: undefined }
}

/** The persona, or the 401 that strict auth answers without one. */
export function personaOf (resolution: Resolution, authorization: string | undefined): Persona {
  if (resolution.persona !== undefined) return resolution.persona
  throw new HttpProblem(problem(401, 'unauthenticated', bearerToken(authorization) === undefined
    ? 'Send Authorization: Bearer <token> with a persona token (see GET /__mock/state or the README).'
    : 'The bearer token does not belong to any persona.'))
}

export function bearerToken (authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  return match?.[1]
}

function jwtSubject (token: string): string | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || parts[1] === undefined) return undefined
  try {
    const payload = JSON.parse(decodeBase64Url(parts[1])) as unknown
    if (payload !== null && typeof payload === 'object' && typeof (payload as { sub?: unknown }).sub === 'string') {
      return (payload as { sub: string }).sub
    }
  } catch {
    // Not a JWT after all: treated as an unknown opaque token.
  }
  return undefined
}

/** base64url to UTF-8 text with the web's atob, not Buffer, so personas resolve in a browser too. */
function decodeBase64Url (text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64 + '='.repeat((4 - base64.length % 4) % 4))
  return new TextDecoder().decode(Uint8Array.from(binary, c => c.charCodeAt(0)))
}
