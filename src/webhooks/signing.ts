import { Webhook } from 'standardwebhooks'

/**
 * Standard Webhooks signing, by its reference library: `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.payload">`, keyed with the secret's bytes (the part
 * after `whsec_`, base64). Receivers verify with the same library in any language.
 */

const SECRET_BYTES = 24
/** What a secret given to the mock must be: `whsec_` and the base64 of 16 to 64 bytes. */
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{22,88}={0,2}$/
export const SECRET_RULE = 'must be whsec_ followed by the base64 of 16 to 64 random bytes (as Standard Webhooks secrets are)'

/** A new secret: `whsec_` and the base64 of 24 random bytes. */
export function generateSecret (): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/** Why `secret` cannot sign, or undefined when it can. */
export function secretProblem (secret: string): string | undefined {
  if (!SECRET_PATTERN.test(secret)) return SECRET_RULE
  try {
    const bytes = atob(secret.slice('whsec_'.length)).length
    return bytes >= 16 && bytes <= 64 ? undefined : SECRET_RULE
  } catch {
    return SECRET_RULE
  }
}

/** One signer per secret: the key is decoded once. */
const signers = new Map<string, Webhook>()

/** The headers of one delivery attempt; `at` is real time, as receivers check it against their own clock. */
export function signedHeaders (secret: string, id: string, payload: string, at: Date): Record<string, string> {
  let signer = signers.get(secret)
  if (signer === undefined) {
    if (signers.size >= 256) signers.clear()
    signer = new Webhook(secret)
    signers.set(secret, signer)
  }
  return {
    'content-type': 'application/json',
    'user-agent': 'baas-mock-webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, payload)
  }
}
