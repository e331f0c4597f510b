import { Listeners } from './listeners.js'
import { JournalBudget, type Accounted } from './journal-budget.js'
import { Queue } from './queue.js'
import { wildcardMatcher } from './wildcard.js'
import { isSecretHeader, REDACTED, redactUrlQuery } from './secret-names.js'
import type { Persona } from './persona.js'

export { JournalBudget } from './journal-budget.js'

/** Who answered instead of the domain: a response override, a `Prefer: code`, or a fault. */
export const JOURNAL_SOURCES = ['override', 'prefer', 'fault', 'replay'] as const
export type JournalSource = typeof JOURNAL_SOURCES[number]

export function isJournalSource (value: unknown): value is JournalSource {
  return (JOURNAL_SOURCES as readonly unknown[]).includes(value)
}

/** The order a list comes in: desc (the default) is newest first. */
export const LIST_ORDERS = ['desc', 'asc'] as const
export type ListOrder = typeof LIST_ORDERS[number]

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
  /** Who answered instead of the domain: a response override, a `Prefer: code`, a fault, or a replay of an idempotent request's stored answer. */
  source?: JournalSource | undefined
  /** Fault rules that fired for this request. */
  faults?: string[] | undefined
  /** The client hung up before the answer went out; what the request did (a write) still happened. */
  clientLeft?: true | undefined
  /** The customer the request acted as and how it was chosen; absent when none did (strict auth's 401, no operation). */
  persona?: Persona | undefined
}

export interface HeadersTruncated {
  dropped: number
  droppedBytes: number
}

/** Request headers as Node parses them. */
type RawHeaders = Readonly<Record<string, string | string[] | undefined>>

/** What the HTTP layer records per request: raw facts, which the journal turns into a compact, bounded record. */
export interface JournalRecord {
  timeMs: number
  method: string
  url: string
  operationId: string | null
  status: number
  durationMs: number
  headers: RawHeaders
  /** The parsed body (kept as JSON text), a `{truncated, bytes}` note, or null. */
  body: unknown
  source?: JournalEntry['source']
  faults?: string[] | undefined
  clientLeft?: boolean | undefined
  persona?: Persona | undefined
}

/** One entry as a store keeps it: a row per entry, credentials already redacted, the body as JSON text. */
export interface StoredJournalRow extends Omit<JournalRecord, 'headers' | 'body' | 'clientLeft'> {
  id: number
  headers: Record<string, string>
  headersTruncated?: HeadersTruncated | undefined
  body: string | null
  clientLeft?: true | undefined
}

/** A journal's counters as a store keeps them (its entries are rows of their own). */
export interface JournalMeta {
  nextId: number
  clearedBefore: number
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
 * objects that hold them, measured on V8 (`npm run journal-footprint`: the heap stays below it).
 */
export const JOURNAL_ACCOUNTING = { perEntry: 320, perHeader: 64, perString: 24 } as const

function headerText (name: string, value: string | string[]): string {
  return isSecretHeader(name) ? REDACTED : Array.isArray(value) ? value.join(', ') : value
}

/** Request headers as strings, with credentials replaced so the journal and templates never show them. */
export function redactHeaders (raw: RawHeaders): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name in raw) {
    const value = raw[name]
    if (value !== undefined) headers[name] = headerText(name, value)
  }
  return headers
}

const NO_HEADERS: RawHeaders = Object.freeze({})

function valueLength (value: string | string[]): number {
  if (typeof value === 'string') return value.length
  let length = 0
  for (const part of value) length += part.length + 2
  return length
}

/**
 * The headers an entry keeps, within JOURNAL_HEADER_LIMITS. The common case (a normal request)
 * keeps the request's own header object, measured in one pass and redacted when read, as the
 * journal always did; only a request over the limits pays for a bounded copy.
 */
function keepHeaders (raw: RawHeaders, into: Stored): void {
  let count = 0
  let bytes = 0
  for (const name in raw) {
    const value = raw[name]
    if (value === undefined) continue
    count++
    bytes += name.length + valueLength(value)
  }
  if (count <= JOURNAL_HEADER_LIMITS.count && bytes <= JOURNAL_HEADER_LIMITS.bytes) {
    into.headers = raw
    into.headerBytes = bytes + count * JOURNAL_ACCOUNTING.perHeader
    return
  }
  const kept: Record<string, string> = {}
  let keptCount = 0
  let keptBytes = 0
  let dropped = 0
  let droppedBytes = 0
  for (const name in raw) {
    const value = raw[name]
    if (value === undefined) continue
    const text = headerText(name, value)
    const size = name.length + text.length
    if (keptCount < JOURNAL_HEADER_LIMITS.count && keptBytes + size <= JOURNAL_HEADER_LIMITS.bytes) {
      kept[name] = text
      keptCount++
      keptBytes += size
    } else {
      dropped++
      droppedBytes += size
    }
  }
  into.headers = kept
  // Credentials shrink to [REDACTED]: what was over the bound before may fit once redacted.
  if (dropped > 0) into.headersTruncated = { dropped, droppedBytes }
  into.headerBytes = keptBytes + keptCount * JOURNAL_ACCOUNTING.perHeader
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

const EMPTY_OBJECT_TEXT = '{}'

/** A body as JSON text; an action's `{}` (most writes send it) shares one string instead of keeping its own. */
function bodyText (body: unknown): string | null {
  if (body === undefined || body === null) return null
  const text = JSON.stringify(body)
  return text === EMPTY_OBJECT_TEXT ? EMPTY_OBJECT_TEXT : text
}

/**
 * One request as the journal holds it: compact and accounted. The body is kept as JSON text,
 * because a parsed body can take many times its size in heap (a 4 KiB `[[[[...` is thousands of
 * arrays); the entry a reader sees is made from this on each read, and never kept.
 */
class Stored implements Accounted {
  readonly timeMs: number
  readonly method: string
  readonly url: string
  readonly operationId: string | null
  readonly status: number
  readonly durationMs: number
  readonly source: JournalEntry['source']
  readonly faults: string[] | undefined
  readonly clientLeft: boolean
  readonly persona: Persona | undefined
  readonly bodyText: string | null
  headers: RawHeaders = NO_HEADERS
  headersTruncated: HeadersTruncated | undefined
  headerBytes = 0
  readonly bytes: number
  held = true

  constructor (readonly journal: Journal, readonly id: number, record: JournalRecord, row?: StoredJournalRow) {
    this.timeMs = record.timeMs
    this.method = record.method
    // Kept redacted, so a store never holds the secret either (a stored row's URL is so already).
    this.url = redactUrlQuery(record.url)
    this.operationId = record.operationId
    this.status = record.status
    this.durationMs = record.durationMs
    this.source = record.source
    this.faults = record.faults
    this.clientLeft = record.clientLeft === true
    this.persona = record.persona
    this.bodyText = row !== undefined ? row.body : bodyText(record.body)
    keepHeaders(record.headers, this)
    if (row?.headersTruncated !== undefined) this.headersTruncated = { ...row.headersTruncated }
    const { perEntry, perString } = JOURNAL_ACCOUNTING
    this.bytes = perEntry + this.headerBytes + perString + this.url.length +
      (this.bodyText === null ? 0 : perString + this.bodyText.length) +
      (this.faults === undefined ? 0 : this.faults.reduce<number>((sum, id) => sum + perString + id.length, perString)) +
      (this.persona === undefined ? 0 : perString + this.persona.customerId.length)
  }

  /** The URL without its query. */
  get path (): string {
    const query = this.url.indexOf('?')
    return query === -1 ? this.url : this.url.slice(0, query)
  }

  evict (): void {
    this.journal.evictOldest(this)
  }

  row (): StoredJournalRow {
    return {
      id: this.id,
      timeMs: this.timeMs,
      method: this.method,
      url: this.url,
      operationId: this.operationId,
      status: this.status,
      durationMs: this.durationMs,
      headers: redactHeaders(this.headers),
      ...(this.headersTruncated === undefined ? {} : { headersTruncated: { ...this.headersTruncated } }),
      body: this.bodyText,
      ...(this.source === undefined ? {} : { source: this.source }),
      ...(this.faults === undefined ? {} : { faults: [...this.faults] }),
      ...(this.clientLeft ? { clientLeft: true as const } : {}),
      ...(this.persona === undefined ? {} : { persona: { customerId: this.persona.customerId, via: this.persona.via } })
    }
  }

  entry (): JournalEntry {
    return {
      id: this.id,
      time: new Date(this.timeMs).toISOString(),
      method: this.method,
      path: this.path,
      url: this.url,
      operationId: this.operationId,
      status: this.status,
      durationMs: this.durationMs,
      headers: redactHeaders(this.headers),
      ...(this.headersTruncated === undefined ? {} : { headersTruncated: { ...this.headersTruncated } }),
      body: this.bodyText === null ? null : maskBody(JSON.parse(this.bodyText)),
      ...(this.source === undefined ? {} : { source: this.source }),
      ...(this.faults === undefined ? {} : { faults: [...this.faults] }),
      ...(this.clientLeft ? { clientLeft: true as const } : {}),
      ...(this.persona === undefined ? {} : { persona: { customerId: this.persona.customerId, via: this.persona.via } })
    }
  }
}

/** An entry as held: its id (its place in the journal's order), and the entry made from it on demand. */
export interface JournalRow {
  readonly id: number
  entry (): JournalEntry
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
  order?: ListOrder | undefined
  limit?: number | undefined
}

/**
 * The requests one session received, bounded twice so memory stays bounded: at most `capacity`
 * entries, and the byte budget it shares with every other session's journal (the oldest entries
 * go first, whichever journal holds them).
 */
export class Journal {
  private readonly entries = new Queue<Stored>()
  private nextId = 1
  private clearedBefore = 0
  private heldBytes = 0
  private readonly listeners = new Listeners<JournalEntry>()

  constructor (readonly capacity: number, private readonly budget = new JournalBudget(Number.POSITIVE_INFINITY)) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer')
  }

  /**
   * Records an entry and tells the listeners, unless `quiet`: a shared store records first and
   * tells them once the entry is saved (announce), so that a save run again tells them once.
   */
  record (record: JournalRecord, quiet = false): void {
    const stored = new Stored(this, this.nextId++, record)
    this.entries.push(stored)
    this.heldBytes += stored.bytes
    if (this.entries.size > this.capacity) this.budget.release(this.shiftOldest())
    this.budget.admit(stored)
    if (!quiet && this.listeners.active) this.listeners.notify(stored.entry())
  }

  /** Tells the listeners of the entries held after entry `after`, up to entry `through` (recorded quietly). */
  announce (after: number, through: number): void {
    if (!this.listeners.active) return
    for (const stored of this.entries.toArray()) if (stored.id > after && stored.id <= through) this.listeners.notify(stored.entry())
  }

  /** The id of the last entry recorded (0 before the first). */
  get lastId (): number {
    return this.nextId - 1
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
    return this.entries.toArray().map(stored => stored.entry())
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
    this.drop()
    // Ids keep increasing so a poller's `after` cursor stays valid across a clear.
    this.clearedBefore = this.nextId - 1
  }

  /** Changes with every entry recorded and every clear, so a store writes the counters only then. */
  get revision (): string {
    return `${this.nextId}:${this.clearedBefore}`
  }

  /** Its counters, for a store; the entries go as rows (rowsAfter). */
  meta (): JournalMeta {
    return { nextId: this.nextId, clearedBefore: this.clearedBefore }
  }

  /** The id of the oldest entry held: a store may drop the rows before it (the caps and clears took them). */
  get firstId (): number {
    return this.entries.peek()?.id ?? this.nextId
  }

  /** The entries recorded after entry `id`, as rows, oldest first. */
  rowsAfter (id: number): StoredJournalRow[] {
    // From the newest back: a save finds its one or two new entries without copying the journal.
    let from = this.entries.size
    while (from > 0 && (this.entries.at(from - 1) as Stored).id > id) from--
    const rows: StoredJournalRow[] = []
    for (let i = from; i < this.entries.size; i++) rows.push((this.entries.at(i) as Stored).row())
    return rows
  }

  /** Puts back what a store kept, within this journal's cap and the shared budget; listeners are not told. */
  restore (meta: JournalMeta, rows: readonly StoredJournalRow[]): void {
    this.drop()
    this.nextId = meta.nextId
    this.clearedBefore = meta.clearedBefore
    for (const row of rows.slice(-this.capacity)) {
      const stored = new Stored(this, row.id, { ...row, body: null }, row)
      this.entries.push(stored)
      this.heldBytes += stored.bytes
      this.budget.admit(stored)
    }
  }

  /**
   * Brings the journal to what a store holds when the store sent only its rows after `keptThrough`,
   * the last entry this journal holds as saved: entries after it (recorded here, never saved) and
   * those a clear took go, the new rows follow. Listeners are not told.
   */
  extend (meta: JournalMeta, rows: readonly StoredJournalRow[], keptThrough: number): void {
    const keeps = (id: number): boolean => id <= keptThrough && id > meta.clearedBefore
    for (const stored of this.entries.toArray()) if (!keeps(stored.id)) this.budget.release(stored)
    this.entries.keep(stored => keeps(stored.id))
    this.heldBytes = this.entries.toArray().reduce((sum, stored) => sum + stored.bytes, 0)
    this.nextId = meta.nextId
    this.clearedBefore = meta.clearedBefore
    for (const row of rows) {
      if (row.id <= keptThrough || row.id <= meta.clearedBefore) continue
      const stored = new Stored(this, row.id, { ...row, body: null }, row)
      this.entries.push(stored)
      this.heldBytes += stored.bytes
      if (this.entries.size > this.capacity) this.budget.release(this.shiftOldest())
      this.budget.admit(stored)
    }
  }

  private drop (): void {
    for (const stored of this.entries.toArray()) this.budget.release(stored)
    this.entries.clear()
    this.heldBytes = 0
  }

  /** Matching entries, newest first unless `order: 'asc'`, at most `limit`. Only those returned are made into entries. */
  query (q: JournalQuery = {}): JournalEntry[] {
    const kept = this.select(q)
    return (q.limit === undefined ? kept : kept.slice(0, q.limit)).map(row => row.entry())
  }

  /** Matching rows, newest first unless `order: 'asc'`, each made into an entry only when read (a page reads a few). */
  select (q: Omit<JournalQuery, 'limit'> = {}): JournalRow[] {
    const method = q.method?.toUpperCase()
    const path = q.path === undefined ? undefined : wildcardMatcher(q.path)
    const status = q.status === undefined ? undefined : statusMatcher(q.status)
    const sinceMs = q.since === undefined ? undefined : Date.parse(q.since)
    const kept = this.entries.toArray().filter(e =>
      (q.operationIds === undefined || (e.operationId !== null && q.operationIds.includes(e.operationId))) &&
      (method === undefined || e.method === method) &&
      (path === undefined || path(e.path)) &&
      (status === undefined || status(e.status)) &&
      (sinceMs === undefined || e.timeMs >= sinceMs) &&
      (q.after === undefined || e.id > q.after))
    if (q.order !== 'asc') kept.reverse()
    return kept
  }

  /** The shared budget takes out the oldest entry of all, which is this journal's oldest. */
  evictOldest (stored: Stored): void {
    if (this.entries.peek() === stored) {
      this.shiftOldest()
      return
    }
    // Not reached while entries are recorded in order; kept so that the bytes stay right if it were.
    this.entries.keep(e => e !== stored)
    this.heldBytes -= stored.bytes
  }

  private shiftOldest (): Stored {
    const oldest = this.entries.shift() as Stored
    this.heldBytes -= oldest.bytes
    return oldest
  }
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
