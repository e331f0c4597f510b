import { seedFrom } from './digest.js'
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import { nextRevision } from './revision.js'

/** Latency of a fault: a fixed number of milliseconds or a range drawn uniformly. */
export type FaultDelay = number | { min: number; max: number }

/** What a client asks for with `POST /__mock/faults`. */
export interface FaultSpec {
  /** Operation id or configuration name as given; undefined = every operation. */
  operation?: string | undefined
  /** The operation ids the rule applies to; undefined = every operation. */
  operationIds?: readonly string[] | undefined
  status?: number | undefined
  code?: string | undefined
  detail?: string | undefined
  retryAfter?: number | undefined
  delay?: FaultDelay | undefined
  reset?: boolean | undefined
  probability?: number | undefined
  count?: number | undefined
}

export interface FaultRule {
  id: string
  operation: string | null
  operationIds: readonly string[] | null
  status: number | null
  code: string | null
  detail: string | null
  retryAfter: number | null
  delay: FaultDelay | null
  reset: boolean
  probability: number
  /** Firings left before the rule expires; null = never expires. */
  remaining: number | null
  hits: number
  createdAt: string
}

/** What the rules decided for one request: wait, then maybe answer with a status or drop the connection. */
export interface FaultOutcome {
  delayMs: number
  /** The fired rule that ends the request (status or reset), if any. */
  terminal: FaultRule | undefined
  /** Ids of every rule that fired, in order. */
  fired: string[]
}

/** A session's rules as a store keeps them, with the seeded draws' position (null when unseeded). */
export interface FaultRulesData {
  rules: FaultRule[]
  nextId: number
  random: readonly number[] | null
}

/**
 * One session's fault rules. Rules are checked in the order they were added; each one that
 * matches the operation and wins its probability draw fires: its delay adds up, and the first
 * status or reset ends the request. Seeded servers draw from a generator of their own (seed and
 * session id), so adding a fault never shifts the world's ids and a run repeats exactly.
 */
export class FaultRules {
  private rules: FaultRule[] = []
  private nextId = 1
  private random: SeededUnit | (() => number)
  /** Bumped by every change (a rule added, removed, fired, or a draw made), so a store writes the rules only then. */
  private changes = nextRevision()

  constructor (seed: number | undefined, sessionId: string) {
    this.random = seed === undefined ? Math.random : SeededUnit.fromSeed(seed, sessionId)
  }

  get revision (): number {
    return this.changes
  }

  snapshot (): FaultRulesData {
    return { rules: this.rules.map(rule => ({ ...rule })), nextId: this.nextId, random: this.random instanceof SeededUnit ? this.random.state() : null }
  }

  /** Puts back what a store kept; seeded draws go on from where they were. */
  restore (data: FaultRulesData): void {
    this.rules = data.rules.map(rule => ({ ...rule }))
    this.nextId = data.nextId
    if (this.random instanceof SeededUnit && data.random !== null) this.random = SeededUnit.fromState(data.random)
    this.changes = nextRevision()
  }

  get size (): number {
    return this.rules.length
  }

  add (spec: FaultSpec, now: Date): FaultRule {
    const rule: FaultRule = {
      id: `fault_${this.nextId++}`,
      operation: spec.operation ?? null,
      operationIds: spec.operationIds ?? null,
      status: spec.status ?? null,
      code: spec.status === undefined ? null : spec.code ?? 'fault_injected',
      detail: spec.detail ?? null,
      retryAfter: spec.retryAfter ?? null,
      delay: spec.delay ?? null,
      reset: spec.reset === true,
      probability: spec.probability ?? 1,
      remaining: spec.count ?? null,
      hits: 0,
      createdAt: now.toISOString()
    }
    this.rules.push(rule)
    this.changes = nextRevision()
    return rule
  }

  list (): FaultRule[] {
    return [...this.rules]
  }

  remove (id: string): boolean {
    const before = this.rules.length
    this.rules = this.rules.filter(rule => rule.id !== id)
    this.changes = nextRevision()
    return this.rules.length < before
  }

  clear (): void {
    this.rules = []
    this.changes = nextRevision()
  }

  /** Fires the rules that apply to `operationId`, consuming their counts. */
  evaluate (operationId: string): FaultOutcome {
    const outcome: FaultOutcome = { delayMs: 0, terminal: undefined, fired: [] }
    if (this.rules.length > 0) this.changes = nextRevision()
    for (const rule of [...this.rules]) {
      if (rule.operationIds !== null && !rule.operationIds.includes(operationId)) continue
      if (rule.probability < 1 && this.draw() >= rule.probability) continue
      rule.hits++
      if (rule.remaining !== null && --rule.remaining <= 0) this.remove(rule.id)
      outcome.fired.push(rule.id)
      outcome.delayMs += this.delayOf(rule.delay)
      if (rule.status !== null || rule.reset) {
        outcome.terminal = rule
        break
      }
    }
    return outcome
  }

  private delayOf (delay: FaultDelay | null): number {
    if (delay === null) return 0
    if (typeof delay === 'number') return delay
    return delay.min + Math.floor(this.draw() * (delay.max - delay.min + 1))
  }

  private draw (): number {
    return this.random instanceof SeededUnit ? this.random.next() : this.random()
  }
}

/** A reproducible stream of numbers in [0, 1) for one session, resumable from its state. */
class SeededUnit {
  private constructor (private readonly rng: ReturnType<typeof xoroshiro128plus>) {}

  static fromSeed (seed: number, sessionId: string): SeededUnit {
    return new SeededUnit(xoroshiro128plus(seedFrom(`${seed}:${sessionId}:faults`)))
  }

  static fromState (state: readonly number[]): SeededUnit {
    return new SeededUnit(xoroshiro128plusFromState(state))
  }

  next (): number {
    return (this.rng.next() >>> 0) / 2 ** 32
  }

  state (): readonly number[] {
    return this.rng.getState()
  }
}
