/**
 * First in, first out over an array: push and shift in amortised O(1), with no allocation per
 * operation (a Set's iterator costs one per look at its oldest item, on every request). The
 * consumed front is cut off once it is half the array, so a queue holds at most twice its items.
 */
export class Queue<T> {
  private items: Array<T | undefined> = []
  private head = 0

  get size (): number {
    return this.items.length - this.head
  }

  push (item: T): void {
    this.items.push(item)
  }

  /** The oldest item, left in place. */
  peek (): T | undefined {
    return this.items[this.head]
  }

  /** The newest item, left in place. */
  peekLast (): T | undefined {
    return this.head === this.items.length ? undefined : this.items[this.items.length - 1]
  }

  /** The item `index` places after the oldest. */
  at (index: number): T | undefined {
    return index < 0 || index >= this.size ? undefined : this.items[this.head + index]
  }

  /** Takes the oldest item out. */
  shift (): T | undefined {
    if (this.head === this.items.length) return undefined
    const item = this.items[this.head]
    this.items[this.head++] = undefined
    if (this.head === this.items.length) this.clear()
    else if (this.head >= 16 && this.head * 2 >= this.items.length) this.dropConsumed()
    return item
  }

  /** Moves the items down over the consumed front, in place: no new array, no call per item. */
  private dropConsumed (): void {
    this.items.copyWithin(0, this.head)
    this.items.length -= this.head
    this.head = 0
  }

  /** Keeps only the items `wanted` accepts, in order. */
  keep (wanted: (item: T) => boolean): void {
    const kept: T[] = []
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i] as T
      if (wanted(item)) kept.push(item)
    }
    this.items = kept
    this.head = 0
  }

  /** Oldest first. */
  toArray (): T[] {
    return this.items.slice(this.head) as T[]
  }

  clear (): void {
    this.items = []
    this.head = 0
  }
}
