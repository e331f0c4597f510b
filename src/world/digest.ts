import { sha256 } from '@noble/hashes/sha2.js'

// SHA-256 in plain JavaScript (not node:crypto), so that the core runs in a browser too; the
// digests are the same, so seeded ids and fault draws stay what they were.

const encoder = new TextEncoder()

/** The SHA-256 digest of `text` (UTF-8). */
export function sha256Bytes (...parts: string[]): Uint8Array {
  return sha256(encoder.encode(parts.join('')))
}

/** A 32-bit PRNG seed from `text`: its digest's first four bytes, little-endian. */
export function seedFrom (text: string): number {
  const digest = sha256Bytes(text)
  return new DataView(digest.buffer, digest.byteOffset, digest.byteLength).getInt32(0, true)
}

/** Standard base64 of bytes, with the web's btoa rather than Buffer. */
export function base64 (bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
}

/** URL-safe base64 without padding (RFC 4648 §5), as Node's `base64url`. */
export function base64url (bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
