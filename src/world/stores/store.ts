import { Type, type Static } from 'typebox'

/**
 * Where sessions live beyond the process (docs/reference/stores.md says how a store must behave).
 *
 * The session store (sessions.ts) holds the live sessions and calls its world store at the edges of
 * a request: `load` before serving a session it does not hold up to date, `save` after a request
 * changed something and before the answer goes out, `delete` when a session is dropped, `expire`
 * for idle ones, `list` at start. Every method is asynchronous, so a remote store (Redis) fits;
 * one in this process may do its work at once and answer a settled promise.
 */
export interface WorldStore {
  /** What it is, for logs: memory, sqlite, redis. */
  readonly kind: string
  /** Where it keeps its data, for messages: a file, a URL without its password. */
  readonly location: string
  /**
   * False for memory: the live sessions are all there is, and the session store never calls it,
   * so the default costs nothing (no serialisation, no promise).
   */
  readonly persistent: boolean
  /**
   * True when other processes write it too (replicas on Redis): a session is loaded before every
   * request, and saved with the version it was loaded at. False (memory, SQLite): this process
   * alone writes it, so its live sessions are the authority, read once at start and written through.
   */
  readonly shared: boolean
  /**
   * Tells the processes sharing the store what happens in their sessions (the dashboard's live
   * feed), when the store can (Redis pub/sub). Absent for memory and SQLite: then nothing is
   * published, and a request does no work for it.
   */
  readonly feed?: StoreFeed | undefined
  /** Every stored session, least recently seen first. */
  list (): Promise<SessionMeta[]>
  /**
   * The session as stored, or undefined when there is none. A shared store answers `unchanged`
   * instead when its stored version is `knownVersion` (this process holds it already), and counts a
   * load with `touch` as a use of the session (last seen now, its idle time starting again).
   */
  load (id: string, options?: LoadOptions): Promise<StoredSession | 'unchanged' | undefined>
  /**
   * Makes a change durable, atomically, and answers the session's new version. Rejects with
   * StoreConflictError when the stored version is not `change.baseVersion` (another process saved
   * since), with StoreUnavailableError when the store cannot be written now (disk full, locked,
   * unreachable). Resolving means durable: the mock acknowledges a write only after that.
   */
  save (change: SessionChange): Promise<number>
  /** Removes the session and everything of it; answers whether there was one. */
  delete (id: string): Promise<boolean>
  /** Removes the sessions last seen before `idleSinceMs` but `default` and pinned ones; answers their ids. */
  expire (idleSinceMs: number): Promise<string[]>
  /** Finishes what was accepted and lets go of files and connections. */
  close (): Promise<void>
  /** Gives up the claim a `load` with `claim` made, when the work it was for saved nothing after all. */
  release?: (id: string) => Promise<void>
  /**
   * Whether it can be used now, for readiness (GET /readyz): rejects with StoreUnavailableError
   * when it cannot (Redis unreachable). A store in this process has none: it is ready once open.
   */
  check?: () => Promise<void>
  /**
   * The control plane's token when none is given and one is needed (a network address), kept beside
   * the sessions so that it lasts as long as they do and every replica shares it: the one kept, or
   * `made` kept now. `where` names the place for the log, never the token. Absent for memory.
   */
  keptAdminToken?: (made: string) => Promise<{ token: string; where: string }>
}

export interface LoadOptions {
  /** The version this process holds of the session: a shared store may answer `unchanged`. */
  knownVersion?: number | undefined
  /** A request uses the session (not a listing): its last-seen time and idle expiry start again. */
  touch?: boolean | undefined
  /**
   * The caller's last save of this session lost to another process's: a shared store lets it save
   * first next (for a moment), so that a replica under load is not outrun time after time.
   */
  claim?: boolean | undefined
  /**
   * The caller holds each log's rows up to these as saved: a shared store may send only the later
   * ones (and says so in StoredSession.rowsAfter), so a busy session's load stays small.
   */
  rowsAfter?: RowIds | undefined
  /**
   * Told when the store left out a write the load does on the side (a shared store's last-seen
   * time, a claim) because it was refused (a full Redis): the load answers all the same.
   */
  onSkippedWrite?: ((error: StoreUnavailableError) => void) | undefined
}

/**
 * The logs a session keeps as rows of their own rather than inside a part: each grows by a row
 * per request (the journal) or per write (the webhook events), so a save appends the new rows and
 * trims the old instead of rewriting hundreds of them. A part beside each holds its counters.
 */
export const ROW_LOGS = ['journal', 'events'] as const
export type RowLog = typeof ROW_LOGS[number]

/**
 * One row of a log as a store keeps it: plain JSON, numbered in its log (a journal entry's id, an
 * event's number in the session). The store reads only `id`; the part that restores the rows
 * checks the rest against its schema.
 */
export interface StoredRow {
  readonly id: number
}

/** `value` as a row when it has the shape every row has (a numeric id), else undefined: what a store checks as it reads one. */
export function asStoredRow (value: unknown): StoredRow | undefined {
  if (typeof value !== 'object' || value === null || !('id' in value) || typeof value.id !== 'number') return undefined
  return { ...value, id: value.id }
}

/** A row id per log. */
export type RowIds = Record<RowLog, number>

/** What a save does to one log: rows appended, oldest first, and those below `from` gone. */
export interface RowsChange {
  appended: readonly StoredRow[]
  /** Rows with a smaller id are gone (a cap, the shared budget, a clear). */
  from: number
}

/** A record with a value per log, in ROW_LOGS order. */
export function perLog<T> (make: (log: RowLog) => T): Record<RowLog, T> {
  return { journal: make('journal'), events: make('events') }
}

/**
 * Fan-out of what happens in sessions to every process sharing a store. Best effort: a notice lost
 * (the store unreachable, a subscriber reconnecting) is a line missing from a dashboard, never a
 * failed request; what the session holds is in the store either way.
 */
export interface StoreFeed {
  /** Sends `notice` to the subscribers of its session in every process, this one included. Fire and forget: never awaited, never throws. */
  publish (notice: FeedNotice): void
  /** Calls `listener` (which must not throw) with every notice published about `sessionId` from now on, by any process; returns the unsubscribe. */
  subscribe (sessionId: string, listener: (notice: FeedNotice) => void): () => void
}

/** One thing that happened in a session, as the live feed sends it; plain JSON, checked when it comes from another process. */
export const FeedNotice = Type.Object({
  /** The process it happened in (SessionStore.replica): a process shows its own notices at once, not again from the feed. */
  origin: Type.String(),
  session: Type.String(),
  /** The feed's event name: a journal entry, an outbox message, a webhook event, a webhook delivery. */
  kind: Type.Union([Type.Literal('request'), Type.Literal('outbox'), Type.Literal('event'), Type.Literal('delivery')]),
  /** What GET /__mock/requests, /__mock/outbox, /__mock/webhooks/events or /__mock/webhooks/deliveries lists for it. */
  value: Type.Unknown()
})
export type FeedNotice = Static<typeof FeedNotice>

/** What a store knows of a session beside its data. */
export interface SessionMeta {
  id: string
  /** Wall-clock times (epoch ms). */
  createdMs: number
  lastSeenMs: number
  /** Kept whatever the traffic (POST /__mock/sessions/:id/pin). */
  pinned: boolean
}

/** A session as stored: its meta, named parts and row logs. */
export interface StoredSession extends SessionMeta {
  /** Bumped by every save. */
  version: number
  /**
   * Each part (see parts.ts: world, outbox, faults, journal, ...) as its snapshot made it, plain
   * JSON. A part missing (stored before that part existed) starts as a new session's does.
   */
  parts: Record<string, unknown>
  /** Each log's rows, oldest first: all of them, or those after `rowsAfter` when that is set. A log the store has none of is empty. */
  rows: Record<RowLog, StoredRow[]>
  /** Set when the load asked for the rows after these only (LoadOptions.rowsAfter), and so `rows` holds only those. */
  rowsAfter?: RowIds | undefined
}

/** What one save writes: the meta always, the parts that changed, each log's new rows. */
export interface SessionChange {
  meta: SessionMeta
  /** The version the change was made from; 0 for a session the store does not have yet. */
  baseVersion: number
  /** Parts changed since the last save, each whole. */
  parts: Record<string, unknown>
  /** Each log's rows recorded since the last save, and where it starts now. */
  rows: Record<RowLog, RowsChange>
}

/**
 * The store cannot be used now (disk full, locked, unreachable): a request answers 503 store_unavailable
 * and may be retried; or, `outcomeUnknown`, 503 store_outcome_unknown.
 */
export class StoreUnavailableError extends Error {
  /** The store told the log already (an outage, said once when it began): no log line per request for it. */
  readonly reported: boolean
  /**
   * A write went out and its answer never came (it timed out, or the connection was cut under it):
   * the store may have applied it, so a client must read before it retries.
   */
  readonly outcomeUnknown: boolean

  constructor (message: string, readonly retryAfterSeconds = 1, options?: ErrorOptions & { reported?: boolean; outcomeUnknown?: boolean }) {
    super(message, options)
    this.name = 'StoreUnavailableError'
    this.reported = options?.reported === true
    this.outcomeUnknown = options?.outcomeUnknown === true
  }
}

/** Another process saved the session since it was loaded: load it again and redo the request. */
export class StoreConflictError extends Error {
  constructor (readonly sessionId: string) {
    super(`Session ${sessionId} was changed by another process.`)
    this.name = 'StoreConflictError'
  }
}

/**
 * The store cannot be opened as it is (unreadable, corrupt, a newer format, in use): startup stops
 * with this one line, which names the file and the way out, never starting afresh on its own.
 */
export class StoreOpenError extends Error {
  constructor (message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'StoreOpenError'
  }
}
