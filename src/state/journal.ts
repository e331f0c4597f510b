import { RingBuffer } from './ring-buffer.js'

export interface JournalEntry {
  id: number
  time: string
  method: string
  path: string
  url: string
  operationId: string | null
  status: number
  durationMs: number
  headers: Record<string, string>
  body: unknown
  responseBody?: unknown
}

/** The requests one session received, newest last, capped so memory stays bounded. */
export class Journal {
  private readonly entries: RingBuffer<JournalEntry>
  private nextId = 1

  constructor (capacity: number) {
    this.entries = new RingBuffer(capacity)
  }

  record (entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: this.nextId++, ...entry }
    this.entries.push(full)
    return full
  }

  list (): JournalEntry[] {
    return this.entries.toArray()
  }

  get size (): number {
    return this.entries.size
  }

  clear (): void {
    this.entries.clear()
  }
}
