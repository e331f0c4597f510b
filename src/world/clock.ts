import type { Clock } from '../domain/context.js'

/** A clock as a store keeps it: a frozen instant, or the offset a running clock keeps from real time. */
export type ClockData = { frozenAtMs: number } | { offsetMs: number }

/**
 * A world's virtual clock. Running: real time plus an offset, so a demo left for days sees days
 * pass. Frozen (when a start instant is given): time moves only when advanced, so CI runs repeat.
 */
export class VirtualClock implements Clock {
  private offsetMs = 0
  private frozenAtMs: number | undefined

  constructor (start?: Date, private readonly realNow: () => number = Date.now) {
    if (start !== undefined) this.frozenAtMs = start.getTime()
  }

  get frozen (): boolean {
    return this.frozenAtMs !== undefined
  }

  now (): Date {
    return new Date(this.nowMs())
  }

  nowMs (): number {
    return this.frozenAtMs ?? this.realNow() + this.offsetMs
  }

  /** A running clock keeps its offset, so time went on while the process was down, as it does for a demo left running. */
  snapshot (): ClockData {
    return this.frozenAtMs === undefined ? { offsetMs: this.offsetMs } : { frozenAtMs: this.frozenAtMs }
  }

  restore (data: ClockData): void {
    if ('frozenAtMs' in data) {
      this.frozenAtMs = data.frozenAtMs
    } else {
      this.frozenAtMs = undefined
      this.offsetMs = data.offsetMs
    }
  }

  /** Moves to `instant`; the clock never goes backwards. */
  advanceTo (instant: Date): void {
    const target = instant.getTime()
    if (target < this.nowMs()) throw new RangeError('The mock clock cannot move backwards.')
    if (this.frozenAtMs !== undefined) this.frozenAtMs = target
    else this.offsetMs = target - this.realNow()
  }
}
