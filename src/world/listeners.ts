/**
 * Live listeners of a journal or an outbox (the dashboard's event stream). Usually there are none,
 * and then notifying costs one check. The list is replaced, never mutated, so a listener may
 * unsubscribe while being called.
 */
export class Listeners<T> {
  private list: ((value: T) => void)[] | undefined

  /** Calls `listener` (which must not throw) with every value notified from now on; returns the unsubscribe. */
  subscribe (listener: (value: T) => void): () => void {
    this.list = [...(this.list ?? []), listener]
    return () => {
      const rest = (this.list ?? []).filter(l => l !== listener)
      this.list = rest.length === 0 ? undefined : rest
    }
  }

  get active (): boolean {
    return this.list !== undefined
  }

  notify (value: T): void {
    if (this.list !== undefined) for (const listener of this.list) listener(value)
  }

  get count (): number {
    return this.list?.length ?? 0
  }
}
