import { RingBuffer } from './ring-buffer.js'

export interface JournalEntry {
  /** Increasing per session, so `?after=` can poll even when a frozen clock gives every entry the same time. */
  id: number
  /** The session's (virtual) clock when the response went out. */
  time: string
  method: string
  path: string
  url: string
  operationId: string | null
  /** HTTP status sent; 0 when an injected fault dropped the connection. */
  status: number
  durationMs: number
  headers: Record<string, string>
  body: unknown
  /** Who answered instead of the domain: a response override, a `Prefer: code`, or a fault. */
  source?: 'override' | 'prefer' | 'fault' | undefined
  /** Fault rules that fired for this request. */
  faults?: string[] | undefined
}

export interface JournalQuery {
  /** Operation ids to keep (an operation id or a configuration name, resolved by the caller). */
  operationIds?: readonly string[] | undefined
  method?: string | undefined
  /** Exact path, or a pattern where `*` matches any characters. */
  path?: string | undefined
  /** Exact status, or a class such as `4xx`. */
  status?: string | undefined
  /** Entries at or after this instant (session clock). */
  since?: string | undefined
  /** Entries with a larger id. */
  after?: number | undefined
  order?: 'asc' | 'desc' | undefined
  limit?: number | undefined
}

/** The requests one session received, capped so memory stays bounded (the oldest go first). */
export class Journal {
  private readonly entries: RingBuffer<JournalEntry>
  private nextId = 1
  private clearedBefore = 0
  // Live listeners (the dashboard's event stream). Usually none: recording then costs one check.
  // Replaced, never mutated, so a listener may unsubscribe while being called.
  private listeners: ((entry: JournalEntry) => void)[] | undefined

  constructor (capacity: number) {
    this.entries = new RingBuffer(capacity)
  }

  record (entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: this.nextId++, ...entry }
    this.entries.push(full)
    if (this.listeners !== undefined) for (const listener of this.listeners) listener(full)
    return full
  }

  /** Calls `listener` (which must not throw) with every entry recorded from now on; returns the unsubscribe. */
  subscribe (listener: (entry: JournalEntry) => void): () => void {
    this.listeners = [...(this.listeners ?? []), listener]
    return () => {
      const rest = (this.listeners ?? []).filter(l => l !== listener)
      this.listeners = rest.length === 0 ? undefined : rest
    }
  }

  get listenerCount (): number {
    return this.listeners?.length ?? 0
  }

  /** Oldest first. */
  list (): JournalEntry[] {
    return this.entries.toArray()
  }

  get size (): number {
    return this.entries.size
  }

  get capacity (): number {
    return this.entries.capacity
  }

  /** Entries recorded since the session began (or the journal was cleared), including those the cap pushed out. */
  get recorded (): number {
    return this.nextId - 1 - this.clearedBefore
  }

  clear (): void {
    this.entries.clear()
    // Ids keep increasing so a poller's `after` cursor stays valid across a clear.
    this.clearedBefore = this.nextId - 1
  }

  /** Matching entries, newest first unless `order: 'asc'`, at most `limit`. */
  query (q: JournalQuery = {}): JournalEntry[] {
    const method = q.method?.toUpperCase()
    const path = q.path === undefined ? undefined : pathMatcher(q.path)
    const status = q.status === undefined ? undefined : statusMatcher(q.status)
    const sinceMs = q.since === undefined ? undefined : Date.parse(q.since)
    const kept = this.entries.toArray().filter(e =>
      (q.operationIds === undefined || (e.operationId !== null && q.operationIds.includes(e.operationId))) &&
      (method === undefined || e.method === method) &&
      (path === undefined || path(e.path)) &&
      (status === undefined || status(e.status)) &&
      (sinceMs === undefined || Date.parse(e.time) >= sinceMs) &&
      (q.after === undefined || e.id > q.after))
    if (q.order !== 'asc') kept.reverse()
    return q.limit === undefined ? kept : kept.slice(0, q.limit)
  }
}

function pathMatcher (pattern: string): (path: string) => boolean {
  if (!pattern.includes('*')) return path => path === pattern
  const regex = new RegExp('^' + pattern.split('*').map(escapeRegExp).join('.*') + '$')
  return path => regex.test(path)
}

function statusMatcher (value: string): (status: number) => boolean {
  const klass = /^([1-5])xx$/i.exec(value)
  if (klass !== null) {
    const hundreds = Number(klass[1])
    return status => Math.floor(status / 100) === hundreds
  }
  const exact = Number(value)
  return status => status === exact
}

function escapeRegExp (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
