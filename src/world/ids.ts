import { customRandom, random } from 'nanoid'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'
import type { IdPrefix, IdSource } from '../domain/context.js'
import { seedFrom } from './digest.js'

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const ID_LENGTH = 16

type RandomBytes = (count: number) => Uint8Array

/**
 * Ids, codes and tokens. Unseeded: nanoid's secure randomness. Seeded: a PRNG derived from the
 * seed and the session id, so every session replays the same sequence whatever the others do.
 */
export function createIdSource (seed?: number, sessionId = 'default'): IdSource {
  const bytes = seed === undefined ? random : seededBytes(seed, sessionId)
  const alnum = customRandom(ALPHANUMERIC, ID_LENGTH, bytes)
  const digits = customRandom(DIGITS, 6, bytes)
  return {
    id: (prefix: IdPrefix) => `${prefix}_${alnum()}`,
    digits: (count: number) => digits(count),
    token: (length: number) => alnum(length)
  }
}

function seededBytes (seed: number, sessionId: string): RandomBytes {
  const salt = seedFrom(`${seed}:${sessionId}`)
  const rng = xoroshiro128plus(salt)
  return (count: number) => {
    const out = new Uint8Array(count)
    for (let i = 0; i < count; i++) out[i] = rng.next() & 0xff
    return out
  }
}
