import type { Sleep } from '../../src/core/delay.js'

/**
 * A stand-in for the server's timer: every wait is recorded, and ends when the test says so
 * (`release`), or at once when made with `instant`. Tests of delays then wait on nothing.
 */
export class HeldSleep {
  /** The milliseconds of every wait asked for, in order. */
  readonly waits: number[] = []
  private held: (() => void)[] = []
  private watchers: (() => void)[] = []

  constructor (private readonly instant = false) {}

  readonly sleep: Sleep = async ms => {
    this.waits.push(ms)
    this.wake()
    if (!this.instant) await new Promise<void>(resolve => this.held.push(resolve))
  }

  /** Resolves once `count` waits have begun. */
  async begun (count = 1): Promise<void> {
    while (this.waits.length < count) await new Promise<void>(resolve => this.watchers.push(resolve))
  }

  /** Ends every wait under way. */
  release (): void {
    const held = this.held
    this.held = []
    for (const end of held) end()
  }

  private wake (): void {
    const watchers = this.watchers
    this.watchers = []
    for (const wake of watchers) wake()
  }
}
