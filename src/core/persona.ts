import type { World } from '../world/world.js'
import { HttpProblem, problem } from './problem.js'
import { customerByTokenHash, TOKEN_HASH } from './token-hash.js'

export type AuthMode = 'open' | 'strict'

/**
 * The bearer token selects the customer. A JWT is matched by its `sub` too (as a token or a
 * customer id), so a frontend's real-looking tokens work. Open auth falls back to the default
 * persona; strict auth answers 401.
 */
export function resolveCustomerId (world: World, authorization: string | undefined, mode: AuthMode): string {
  const token = bearerToken(authorization)
  if (token !== undefined) {
    // A hash sent as the token would match its own entry: only the token it was made from selects.
    const known = TOKEN_HASH.test(token) ? undefined : world.tokens.get(token) ?? customerByTokenHash(world.tokens, token)
    if (known !== undefined) return known
    const sub = jwtSubject(token)
    if (sub !== undefined) {
      const bySub = world.tokens.get(sub) ?? (world.ctx.state.customers.has(sub) ? sub : undefined)
      if (bySub !== undefined) return bySub
    }
  }
  if (mode === 'open') return world.defaultCustomerId
  throw new HttpProblem(problem(401, 'unauthenticated', token === undefined
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
