import { customRandom, random } from 'nanoid'
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import type { IdPrefix, IdSource } from '../domain/context.js'
import { seedFrom } from './digest.js'

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const ID_LENGTH = 16

type RandomBytes = (count: number) => Uint8Array

/** An id source whose position a store can keep: a seeded session restarted goes on where it was, instead of handing out its ids again. */
export interface SessionIdSource extends IdSource {
  /** The seeded generator's state (plain JSON); null when unseeded (nothing to keep). */
  state (): readonly number[] | null
}

/**
 * Ids, codes and tokens. Unseeded: nanoid's secure randomness. Seeded: a PRNG derived from the
 * seed and the session id, so every session replays the same sequence whatever the others do;
 * `state` (from `state()`) resumes it where a stored session left it.
 */
export function createIdSource (seed?: number, sessionId = 'default', state?: readonly number[] | null): SessionIdSource {
  const rng = seed === undefined ? undefined : state === undefined || state === null ? xoroshiro128plus(seedFrom(`${seed}:${sessionId}`)) : xoroshiro128plusFromState(state)
  const bytes: RandomBytes = rng === undefined
    ? random
    : count => {
      const out = new Uint8Array(count)
      for (let i = 0; i < count; i++) out[i] = rng.next() & 0xff
      return out
    }
  const alnum = customRandom(ALPHANUMERIC, ID_LENGTH, bytes)
  const digits = customRandom(DIGITS, 6, bytes)
  return {
    id: (prefix: IdPrefix) => `${prefix}_${alnum()}`,
    digits: (count: number) => digits(count),
    token: (length: number) => alnum(length),
    state: () => rng === undefined ? null : rng.getState()
  }
}
