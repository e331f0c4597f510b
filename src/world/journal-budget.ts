import { Queue } from './queue.js'

/** Something the budget holds: its accounted size, whether it is still held, and how to take it out of its journal. */
export interface Accounted {
  readonly bytes: number
  /** False once it left its journal (the journal's cap, a clear, its session dropped, or the budget). */
  held: boolean
  /** Removes the entry from its journal, where it is the oldest, without calling back. */
  evict: () => void
}

/**
 * The memory the journals of all sessions may hold together. Every entry is accounted when it is
 * recorded; past the budget the oldest entries go, whichever session recorded them, so a flood
 * from one client pushes out old entries, never the newest, and memory stays bounded however many
 * sessions there are and whatever their requests carry.
 */
export class JournalBudget {
  /** Entries in the order they were recorded, including some that left their journal since (released, not yet passed over). */
  private readonly order = new Queue<Accounted>()
  private released = 0
  private total = 0

  constructor (readonly maxBytes: number) {
    if (!(maxBytes > 0)) throw new RangeError('maxBytes must be positive')
  }

  /** Bytes accounted for the entries held now; never more than maxBytes once `admit` returns. */
  get bytes (): number {
    return this.total
  }

  /** Entries held now. */
  get size (): number {
    return this.order.size - this.released
  }

  /** Counts a new entry in, then evicts the oldest entries until the total fits again. */
  admit (entry: Accounted): void {
    this.order.push(entry)
    this.total += entry.bytes
    while (this.total > this.maxBytes) {
      const oldest = this.order.shift()
      if (oldest === undefined) break
      if (!oldest.held) {
        this.released--
        continue
      }
      oldest.held = false
      this.total -= oldest.bytes
      oldest.evict()
    }
  }

  /** An entry left its journal (the journal's cap, a clear, its session dropped): its bytes are free again. */
  release (entry: Accounted): void {
    if (!entry.held) return
    entry.held = false
    this.total -= entry.bytes
    this.released++
    // The usual release, a journal at its cap dropping its oldest entry, is often the oldest of all:
    // it goes at once. Others are passed over when they reach the front, or dropped together when
    // the released outnumber the held, so sessions that come and go leave no trail behind.
    for (let first = this.order.peek(); first !== undefined && !first.held; first = this.order.peek()) {
      this.order.shift()
      this.released--
    }
    if (this.released > 64 && this.released * 2 > this.order.size) {
      this.order.keep(e => e.held)
      this.released = 0
    }
  }
}
