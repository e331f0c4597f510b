import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * A persona token kept as a salted hash (`sha256:<salt>:<hex>`), as `baas-mock record` writes
 * the tokens it saw: the fixtures select the customer without holding the secret in clear.
 */
export const TOKEN_HASH = /^sha256:([A-Za-z0-9_-]{8,64}):([0-9a-f]{64})$/

export function hashToken (token: string, salt: string): string {
  return `sha256:${salt}:${bytesToHex(sha256(utf8ToBytes(`${salt}:${token}`)))}`
}

/** The customer a token selects through a hashed entry of `tokens`, one hash per salt in use. */
export function customerByTokenHash (tokens: ReadonlyMap<string, string>, token: string): string | undefined {
  const salts = new Set<string>()
  for (const key of tokens.keys()) {
    const salt = TOKEN_HASH.exec(key)?.[1]
    if (salt !== undefined) salts.add(salt)
  }
  for (const salt of salts) {
    const found = tokens.get(hashToken(token, salt))
    if (found !== undefined) return found
  }
  return undefined
}
