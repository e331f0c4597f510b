import { random } from 'nanoid'
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import type { IdPrefix, IdSource } from '../domain/context.js'
import { seedFrom } from './digest.js'

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const ID_LENGTH = 16

/** Fills `into` with random bytes. */
type FillBytes = (into: Uint8Array) => void

/** An id source whose position a store can keep: a seeded session restarted goes on where it was, instead of handing out its ids again. */
export interface SessionIdSource extends IdSource {
  /** The seeded generator's state (plain JSON); null when unseeded (nothing to keep). */
  state (): readonly number[] | null
  /** `prefix` and a token of `length` characters, as one string (event ids: `evt_…`). */
  prefixedToken (prefix: string, length: number): string
}

/**
 * Ids, codes and tokens. Unseeded: nanoid's secure randomness. Seeded: a PRNG derived from the
 * seed and the session id, so every session replays the same sequence whatever the others do;
 * `state` (from `state()`) resumes it where a stored session left it.
 */
export function createIdSource (seed?: number, sessionId = 'default', state?: readonly number[] | null): SessionIdSource {
  const rng = seed === undefined ? undefined : state === undefined || state === null ? xoroshiro128plus(seedFrom(`${seed}:${sessionId}`)) : xoroshiro128plusFromState(state)
  const fill: FillBytes = rng === undefined
    ? into => { into.set(random(into.length)) }
    : into => {
      for (let i = 0; i < into.length; i++) into[i] = rng.next() & 0xff
    }
  const alnum = tokenMaker(ALPHANUMERIC, ID_LENGTH, fill)
  const digits = tokenMaker(DIGITS, 6, fill)
  return {
    id: (prefix: IdPrefix) => alnum(ID_LENGTH, `${prefix}_`),
    digits: (count: number) => digits(count, ''),
    token: (length: number) => alnum(length, ''),
    prefixedToken: (prefix: string, length: number) => alnum(length, prefix),
    state: () => rng === undefined ? null : rng.getState()
  }
}

/**
 * nanoid's customRandom, drawing the same bytes and choosing the same characters (a seeded
 * session's ids stay what they were), but writing the result as one flat string. nanoid appends a
 * character at a time: past 12 characters each append is a V8 cons string, so an event id was a
 * chain of ten small objects that every event kept, and the young-generation collector copied.
 */
function tokenMaker (alphabet: string, defaultSize: number, fill: FillBytes): (size: number, prefix: string) => string {
  // Bytes at or above the cutoff are skipped, so that every character is equally likely. (nanoid
  // masks bytes instead for an alphabet of 2, 4, … 256 characters; both alphabets here are not such.)
  const cutoff = 256 - (256 % alphabet.length)
  const bytes = new Uint8Array(Math.ceil((1.6 * 256 * defaultSize) / cutoff))
  const codes: number[] = []
  return (size, prefix) => {
    codes.length = 0
    for (let i = 0; i < prefix.length; i++) codes.push(prefix.charCodeAt(i))
    const end = prefix.length + size
    while (codes.length < end) {
      fill(bytes)
      // nanoid reads each batch from its end.
      for (let i = bytes.length - 1; i >= 0 && codes.length < end; i--) {
        const byte = bytes[i] as number
        if (byte < cutoff) codes.push(alphabet.charCodeAt(byte % alphabet.length))
      }
    }
    return String.fromCharCode.apply(null, codes)
  }
}
