/** A bounded, insertion-ordered buffer: the oldest entry goes when the cap is reached. */
export class RingBuffer<T> {
  private items: (T | undefined)[]
  private start = 0
  private count = 0

  constructor (readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer')
    this.items = new Array<T | undefined>(capacity)
  }

  get size (): number {
    return this.count
  }

  push (item: T): void {
    const end = (this.start + this.count) % this.capacity
    this.items[end] = item
    if (this.count < this.capacity) this.count++
    else this.start = (this.start + 1) % this.capacity
  }

  /** Oldest first. */
  toArray (): T[] {
    const out: T[] = []
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T)
    return out
  }

  clear (): void {
    this.items = new Array<T | undefined>(this.capacity)
    this.start = 0
    this.count = 0
  }
}
