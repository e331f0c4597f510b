import { Listeners } from './listeners.js'
import { JournalBudget, type Accounted } from './journal-budget.js'

export { JournalBudget } from './journal-budget.js'

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
  /** Request headers, credentials replaced by `[REDACTED]`; at most JOURNAL_HEADER_LIMITS of them. */
  headers: Record<string, string>
  /** Headers the journal did not keep (beyond JOURNAL_HEADER_LIMITS): how many, and their bytes. */
  headersTruncated?: HeadersTruncated | undefined
  /** The parsed body; account and card numbers keep their last 4 digits. */
  body: unknown
  /** Who answered instead of the domain: a response override, a `Prefer: code`, or a fault. */
  source?: 'override' | 'prefer' | 'fault' | undefined
  /** Fault rules that fired for this request. */
  faults?: string[] | undefined
  /** The client hung up before the answer went out; what the request did (a write) still happened. */
  clientLeft?: true | undefined
}

export interface HeadersTruncated {
  dropped: number
  droppedBytes: number
}

/** What the HTTP layer records per request: raw facts, which the journal turns into a compact, bounded record. */
export interface JournalRecord {
  timeMs: number
  method: string
  url: string
  operationId: string | null
  status: number
  durationMs: number
  headers: Readonly<Record<string, string | string[] | undefined>>
  /** The parsed body (kept as JSON text), a `{truncated, bytes}` note, or null. */
  body: unknown
  source?: JournalEntry['source']
  faults?: string[] | undefined
  clientLeft?: boolean | undefined
}

/**
 * What one entry keeps of the request headers. A request may carry up to 16 KiB of them, and
 * thousands of tiny headers cost ~60 bytes of heap each: a flood of them must not become a flood
 * of memory. Headers are kept in the order sent until either bound is reached; the rest are
 * counted in `headersTruncated`.
 */
export const JOURNAL_HEADER_LIMITS = { count: 64, bytes: 8 * 1024 } as const

/**
 * How an entry is accounted against the journal's byte budget: the characters it keeps (URL,
 * header names and values, body text) plus a fixed amount per entry and per header for the
 * objects that hold them, measured on V8 (see `bench/journal-footprint.ts`).
 */
export const JOURNAL_ACCOUNTING = { perEntry: 320, perHeader: 64, perString: 24 } as const

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-mock-admin-token'])

function headerText (name: string, value: string | string[]): string {
  return REDACTED_HEADERS.has(name) ? '[REDACTED]' : Array.isArray(value) ? value.join(', ') : value
}

/** Request headers as strings, with credentials replaced so the journal and templates never show them. */
export function redactHeaders (raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name in raw) {
    const value = raw[name]
    if (value !== undefined) headers[name] = headerText(name, value)
  }
  return headers
}

interface KeptHeaders {
  headers: Record<string, string>
  truncated: HeadersTruncated | undefined
  /** Accounted bytes of what was kept. */
  bytes: number
}

/** The headers an entry keeps: redacted, and within JOURNAL_HEADER_LIMITS. */
export function keepHeaders (raw: Readonly<Record<string, string | string[] | undefined>>): KeptHeaders {
  const headers: Record<string, string> = {}
  let kept = 0
  let keptBytes = 0
  let dropped = 0
  let droppedBytes = 0
  for (const name in raw) {
    const value = raw[name]
    if (value === undefined) continue
    const text = headerText(name, value)
    const size = name.length + text.length
    if (kept < JOURNAL_HEADER_LIMITS.count && keptBytes + size <= JOURNAL_HEADER_LIMITS.bytes) {
      headers[name] = text
      kept++
      keptBytes += size
    } else {
      dropped++
      droppedBytes += size
    }
  }
  return {
    headers,
    truncated: dropped === 0 ? undefined : { dropped, droppedBytes },
    bytes: keptBytes + kept * JOURNAL_ACCOUNTING.perHeader
  }
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

/**
 * One request as the journal holds it: compact and accounted. The body is kept as JSON text,
 * because a parsed body can take many times its size in heap (a 4 KiB `[[[[...` is thousands of
 * arrays); the entry a reader sees is made from this on each read, and never kept.
 */
class Stored implements Accounted {
  readonly bytes: number
  readonly headers: Record<string, string>
  readonly headersTruncated: HeadersTruncated | undefined
  readonly bodyText: string | null

  constructor (readonly journal: Journal, readonly id: number, readonly record: Omit<JournalRecord, 'headers' | 'body'>, headers: JournalRecord['headers'], body: unknown) {
    const kept = keepHeaders(headers)
    this.headers = kept.headers
    this.headersTruncated = kept.truncated
    this.bodyText = body === undefined || body === null ? null : JSON.stringify(body)
    const { perEntry, perString } = JOURNAL_ACCOUNTING
    this.bytes = perEntry + kept.bytes + perString + record.url.length +
      (this.bodyText === null ? 0 : perString + this.bodyText.length) +
      (record.faults === undefined ? 0 : record.faults.reduce<number>((sum, id) => sum + perString + id.length, perString))
  }

  /** The URL without its query. */
  get path (): string {
    const query = this.record.url.indexOf('?')
    return query === -1 ? this.record.url : this.record.url.slice(0, query)
  }

  evict (): void {
    this.journal.evict(this)
  }

  entry (): JournalEntry {
    const { record } = this
    return {
      id: this.id,
      time: new Date(record.timeMs).toISOString(),
      method: record.method,
      path: this.path,
      url: record.url,
      operationId: record.operationId,
      status: record.status,
      durationMs: record.durationMs,
      headers: { ...this.headers },
      ...(this.headersTruncated === undefined ? {} : { headersTruncated: { ...this.headersTruncated } }),
      body: this.bodyText === null ? null : maskBody(JSON.parse(this.bodyText)),
      ...(record.source === undefined ? {} : { source: record.source }),
      ...(record.faults === undefined ? {} : { faults: [...record.faults] }),
      ...(record.clientLeft === true ? { clientLeft: true as const } : {})
    }
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

/**
 * The requests one session received, bounded twice so memory stays bounded: at most `capacity`
 * entries, and the byte budget it shares with every other session's journal (the oldest entries
 * go first, whichever journal holds them).
 */
export class Journal {
  /** Oldest first: a Set keeps insertion order and drops any entry in O(1). */
  private readonly entries = new Set<Stored>()
  private nextId = 1
  private clearedBefore = 0
  private heldBytes = 0
  private readonly listeners = new Listeners<JournalEntry>()

  constructor (readonly capacity: number, private readonly budget = new JournalBudget(Number.POSITIVE_INFINITY)) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer')
  }

  record (record: JournalRecord): void {
    const { headers, body, ...facts } = record
    const stored = new Stored(this, this.nextId++, facts, headers, body)
    this.entries.add(stored)
    this.heldBytes += stored.bytes
    if (this.entries.size > this.capacity) this.evict(this.oldest() as Stored)
    this.budget.admit(stored)
    if (this.listeners.active) this.listeners.notify(stored.entry())
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
    return [...this.entries].map(stored => stored.entry())
  }

  get size (): number {
    return this.entries.size
  }

  /** What this journal's entries are accounted at against the shared budget. */
  get bytes (): number {
    return this.heldBytes
  }

  /** Entries recorded since the session began (or the journal was cleared), including those the caps pushed out. */
  get recorded (): number {
    return this.nextId - 1 - this.clearedBefore
  }

  /** Empties the journal and gives its bytes back to the budget (also when its session is dropped). */
  clear (): void {
    for (const stored of this.entries) this.budget.release(stored)
    this.entries.clear()
    this.heldBytes = 0
    // Ids keep increasing so a poller's `after` cursor stays valid across a clear.
    this.clearedBefore = this.nextId - 1
  }

  /** Matching entries, newest first unless `order: 'asc'`, at most `limit`. Only those returned are made into entries. */
  query (q: JournalQuery = {}): JournalEntry[] {
    const method = q.method?.toUpperCase()
    const path = q.path === undefined ? undefined : pathMatcher(q.path)
    const status = q.status === undefined ? undefined : statusMatcher(q.status)
    const sinceMs = q.since === undefined ? undefined : Date.parse(q.since)
    const kept = [...this.entries].filter(({ id, record: r, path: entryPath }) =>
      (q.operationIds === undefined || (r.operationId !== null && q.operationIds.includes(r.operationId))) &&
      (method === undefined || r.method === method) &&
      (path === undefined || path(entryPath)) &&
      (status === undefined || status(r.status)) &&
      (sinceMs === undefined || r.timeMs >= sinceMs) &&
      (q.after === undefined || id > q.after))
    if (q.order !== 'asc') kept.reverse()
    return (q.limit === undefined ? kept : kept.slice(0, q.limit)).map(stored => stored.entry())
  }

  private oldest (): Stored | undefined {
    return this.entries.values().next().value
  }

  /** Takes one entry out (the cap, or the shared budget, pushed it out). */
  evict (stored: Stored): void {
    if (!this.entries.delete(stored)) return
    this.heldBytes -= stored.bytes
    this.budget.release(stored)
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
