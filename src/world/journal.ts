import { Listeners } from './listeners.js'
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
  /** Request headers, credentials replaced by `[REDACTED]`. */
  headers: Record<string, string>
  /** The parsed body; account and card numbers keep their last 4 digits. */
  body: unknown
  /** Who answered instead of the domain: a response override, a `Prefer: code`, or a fault. */
  source?: 'override' | 'prefer' | 'fault' | undefined
  /** Fault rules that fired for this request. */
  faults?: string[] | undefined
}

/**
 * What the HTTP layer records per request: raw facts, cheap to keep. The entry a reader sees
 * (ISO time, path, redacted headers, masked body) is made when it is first read, because most
 * entries never are, and recording sits on every request's path.
 */
export interface JournalRecord {
  timeMs: number
  method: string
  url: string
  operationId: string | null
  status: number
  durationMs: number
  headers: Readonly<Record<string, string | string[] | undefined>>
  body: unknown
  source?: JournalEntry['source']
  faults?: string[] | undefined
}

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-mock-admin-token'])

/** Request headers as strings, with credentials replaced so the journal and templates never show them. */
export function redactHeaders (raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name in raw) {
    const value = raw[name]
    if (value === undefined) continue
    headers[name] = REDACTED_HEADERS.has(name) ? '[REDACTED]' : Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** Body fields that are account or card numbers (or an SSN): shown with their last 4 digits only. */
const MASKED_FIELDS = new Set(['accountNumber', 'pan', 'cardNumber', 'ssn'])

function maskBody (value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 20) return value
  if (Array.isArray(value)) return value.map(item => maskBody(item, depth + 1))
  const masked: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    masked[key] = MASKED_FIELDS.has(key) && (typeof field === 'string' || typeof field === 'number')
      ? String(field).replace(/.(?=.{4})/g, '*')
      : maskBody(field, depth + 1)
  }
  return masked
}

function toEntry (id: number, record: JournalRecord): JournalEntry {
  const query = record.url.indexOf('?')
  return {
    id,
    time: new Date(record.timeMs).toISOString(),
    method: record.method,
    path: query === -1 ? record.url : record.url.slice(0, query),
    url: record.url,
    operationId: record.operationId,
    status: record.status,
    durationMs: record.durationMs,
    headers: redactHeaders(record.headers),
    body: maskBody(record.body),
    ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.faults === undefined ? {} : { faults: record.faults })
  }
}

/** A record and, once read, the entry made from it. */
class Stored {
  private entry: JournalEntry | undefined
  private record: JournalRecord | undefined

  constructor (readonly id: number, record: JournalRecord) {
    this.record = record
  }

  get (): JournalEntry {
    if (this.entry === undefined) {
      this.entry = toEntry(this.id, this.record as JournalRecord)
      this.record = undefined
    }
    return this.entry
  }
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
  private readonly entries: RingBuffer<Stored>
  private nextId = 1
  private clearedBefore = 0
  private readonly listeners = new Listeners<JournalEntry>()

  constructor (capacity: number) {
    this.entries = new RingBuffer(capacity)
  }

  record (record: JournalRecord): void {
    const stored = new Stored(this.nextId++, record)
    this.entries.push(stored)
    if (this.listeners.active) this.listeners.notify(stored.get())
  }

  /** Calls `listener` (which must not throw) with every entry recorded from now on; returns the unsubscribe. */
  subscribe (listener: (entry: JournalEntry) => void): () => void {
    return this.listeners.subscribe(listener)
  }

  get listenerCount (): number {
    return this.listeners.count
  }

  /** Oldest first. */
  list (): JournalEntry[] {
    return this.entries.toArray().map(stored => stored.get())
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
    const kept = this.list().filter(e =>
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
