import { Type, type Static } from 'typebox'
import { compiledCheck } from './compiled-check.js'
import { nextRevision } from './revision.js'

/**
 * What one session keeps of the answers given to `Idempotency-Key` requests. A key is stored per
 * customer (two personas may use the same key), for IDEMPOTENCY_LIMITS.ttlMs of the session's
 * clock, with a fingerprint of the request it answered (operation, path parameters, body).
 * Bounded by count and by bytes: past either, the oldest answers go first.
 */
export const IDEMPOTENCY_LIMITS = {
  /** Hours of mock time a stored answer is replayed for (Stripe's 24 h). */
  ttlMs: 24 * 3_600_000,
  /** Answers kept per session. */
  keys: 200,
  /** Accounted bytes of the answers kept per session: key, fingerprint, headers and body text, plus ACCOUNTED_PER_ANSWER each. */
  bytes: 256 * 1024
} as const

/** What an answer costs besides its characters: the record and its strings. */
const ACCOUNTED_PER_ANSWER = 256

/** An answer as it went out the first time: replayed as these bytes. */
export const StoredAnswer = Type.Object({
  status: Type.Integer(),
  /** Headers of the answer itself; the mock's diagnostics (x-mock-fault, Preference-Applied) are not kept. */
  headers: Type.Record(Type.String(), Type.String()),
  contentType: Type.String(),
  text: Type.String()
})
export type StoredAnswer = Static<typeof StoredAnswer>

const StoredRecord = Type.Object({
  customerId: Type.String(),
  key: Type.String(),
  fingerprint: Type.String(),
  /** Session clock, epoch ms, when the answer was stored. */
  storedAtMs: Type.Number(),
  answer: StoredAnswer
})
type StoredRecord = Static<typeof StoredRecord>

/** The store as plain JSON, oldest answer first; requests in flight are not part of it. */
export const IdempotencySnapshot = Type.Object({
  version: Type.Literal(1),
  records: Type.Array(StoredRecord)
})
export type IdempotencySnapshot = Static<typeof IdempotencySnapshot>
const isIdempotencySnapshot = compiledCheck(IdempotencySnapshot)

/** A key held by a request in flight: completing or releasing it ends the hold. */
export interface Reservation {
  readonly customerId: string
  readonly key: string
  readonly fingerprint: string
}

export type Lookup =
  /** Answered before with the same request: send this again. */
  | { kind: 'replay'; answer: StoredAnswer }
  /** Used before, or in flight, with another request (other operation, parameters or body). */
  | { kind: 'reused' }
  /** The same request is still being answered. */
  | { kind: 'in_flight' }
  /** First use (or expired): the caller holds the key until it completes or releases it. */
  | { kind: 'new'; reservation: Reservation }

export class IdempotencyStore {
  /** By scoped id, oldest first (answers are stored as the session clock moves forward). */
  private readonly records = new Map<string, StoredRecord & { bytes: number }>()
  private readonly inFlight = new Map<string, Reservation>()
  private heldBytes = 0
  /** Bumped by every change to the stored answers (holds are not kept), so a store saves them only then. */
  private changes = nextRevision()

  constructor (private readonly limits: { ttlMs: number; keys: number; bytes: number } = IDEMPOTENCY_LIMITS) {}

  /** Looks the key up for `customerId`, and holds it when it is new. */
  begin (customerId: string, key: string, fingerprint: string, nowMs: number): Lookup {
    this.expire(nowMs)
    const id = scopedId(customerId, key)
    const held = this.inFlight.get(id)
    if (held !== undefined) return held.fingerprint === fingerprint ? { kind: 'in_flight' } : { kind: 'reused' }
    const record = this.records.get(id)
    if (record !== undefined) return record.fingerprint === fingerprint ? { kind: 'replay', answer: record.answer } : { kind: 'reused' }
    const reservation: Reservation = { customerId, key, fingerprint }
    this.inFlight.set(id, reservation)
    return { kind: 'new', reservation }
  }

  /**
   * Stores the answer of a held key, unless the answer alone is over the byte bound. Answers
   * whether it was stored.
   */
  complete (reservation: Reservation, answer: StoredAnswer, nowMs: number): boolean {
    const id = scopedId(reservation.customerId, reservation.key)
    if (this.inFlight.get(id) !== reservation) return false
    this.inFlight.delete(id)
    const { customerId, key, fingerprint } = reservation
    return this.add({ customerId, key, fingerprint, storedAtMs: nowMs, answer })
  }

  /** Ends a hold without storing anything: the next request with the key runs. */
  release (reservation: Reservation): void {
    const id = scopedId(reservation.customerId, reservation.key)
    if (this.inFlight.get(id) === reservation) this.inFlight.delete(id)
  }

  /**
   * Forgets every stored answer (`POST /__mock/reset`). Holds stay: a request in flight acts on
   * the world as it is when its delay ends, the rebuilt one, so its answer is kept for its retry.
   */
  clear (): void {
    this.records.clear()
    this.heldBytes = 0
    this.changes = nextRevision()
  }

  get revision (): number {
    return this.changes
  }

  get size (): number {
    return this.records.size
  }

  /** Accounted bytes of the answers kept. */
  get bytes (): number {
    return this.heldBytes
  }

  snapshot (): IdempotencySnapshot {
    return { version: 1, records: [...this.records.values()].map(({ bytes: _b, ...record }) => structuredClone(record)) }
  }

  /** Replaces the answers with those of a snapshot; the bounds apply again. */
  restore (json: unknown): void {
    if (!isIdempotencySnapshot(json)) throw new TypeError('Not an idempotency snapshot (version 1).')
    this.clear()
    for (const record of json.records) this.add(structuredClone(record))
  }

  private add (record: StoredRecord): boolean {
    const bytes = accountedBytes(record)
    if (bytes > this.limits.bytes) return false
    const id = scopedId(record.customerId, record.key)
    const replaced = this.records.get(id)
    if (replaced !== undefined) this.drop(id, replaced.bytes)
    this.records.set(id, { ...record, bytes })
    this.heldBytes += bytes
    this.changes = nextRevision()
    for (const [oldId, old] of this.records) {
      if (this.records.size <= this.limits.keys && this.heldBytes <= this.limits.bytes) break
      this.drop(oldId, old.bytes)
    }
    return true
  }

  /** Answers stored longer ago than the time to live go; the oldest come first, so the scan stops at the first fresh one. */
  private expire (nowMs: number): void {
    for (const [id, record] of this.records) {
      if (nowMs - record.storedAtMs < this.limits.ttlMs) break
      this.drop(id, record.bytes)
    }
  }

  private drop (id: string, bytes: number): void {
    this.records.delete(id)
    this.heldBytes -= bytes
    this.changes = nextRevision()
  }
}

// A customer id never holds a NUL (fixture ids are checked, generated ones are nanoids).
function scopedId (customerId: string, key: string): string {
  return `${customerId}\u0000${key}`
}

function accountedBytes (record: StoredRecord): number {
  let bytes = ACCOUNTED_PER_ANSWER + record.customerId.length + record.key.length + record.fingerprint.length + record.answer.text.length + record.answer.contentType.length
  for (const [name, value] of Object.entries(record.answer.headers)) bytes += name.length + value.length
  return bytes
}
