/**
 * A bounded, insertion-ordered buffer: the oldest entry goes when the cap is reached. Storage grows
 * with the entries instead of being reserved up front: most sessions send a handful of requests,
 * and thousands of them each holding an empty 500-slot journal add up.
 */
export class RingBuffer<T> {
  private items: T[] = []
  /** Index of the oldest entry; moves only once the buffer is full. */
  private start = 0

  constructor (readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer')
  }

  get size (): number {
    return this.items.length
  }

  push (item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item)
      return
    }
    this.items[this.start] = item
    this.start = (this.start + 1) % this.capacity
  }

  /** Oldest first. */
  toArray (): T[] {
    return this.start === 0 ? this.items.slice() : [...this.items.slice(this.start), ...this.items.slice(0, this.start)]
  }

  clear (): void {
    this.items = []
    this.start = 0
  }
}
