/** Something the budget holds: its accounted size, and how to take it out of wherever it lives. */
export interface Accounted {
  readonly bytes: number
  /** Removes the entry from its journal, which then calls `release`. */
  evict: () => void
}

/**
 * The memory the journals of all sessions may hold together. Every entry is accounted when it is
 * recorded; past the budget the oldest entries go, whichever session recorded them, so a flood
 * from one client pushes out old entries, never the newest, and memory stays bounded however many
 * sessions there are and whatever their requests carry.
 */
export class JournalBudget {
  /** Every entry held, oldest first (a Set keeps insertion order and deletes in O(1)). */
  private readonly entries = new Set<Accounted>()
  private total = 0

  constructor (readonly maxBytes: number) {
    if (!(maxBytes > 0)) throw new RangeError('maxBytes must be positive')
  }

  /** Bytes accounted for the entries held now; never more than maxBytes once `admit` returns. */
  get bytes (): number {
    return this.total
  }

  get size (): number {
    return this.entries.size
  }

  /** Counts a new entry in, then evicts the oldest entries until the total fits again. */
  admit (entry: Accounted): void {
    this.entries.add(entry)
    this.total += entry.bytes
    while (this.total > this.maxBytes) {
      const oldest = this.entries.values().next().value
      if (oldest === undefined) break
      oldest.evict()
      // An entry whose journal no longer held it would loop forever: make sure it is out.
      this.release(oldest)
    }
  }

  /** An entry left its journal (cap, clear, eviction, its session dropped): its bytes are free again. */
  release (entry: Accounted): void {
    if (this.entries.delete(entry)) this.total -= entry.bytes
  }
}
