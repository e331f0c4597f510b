import { renameSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { Type } from 'typebox'
import { compiledCheck } from '../compiled-check.js'
import { keptPrivateText, privateFile, privateFolder, tightenFiles } from './private-files.js'
import { loadOptionalPackage } from './optional-package.js'
import { accessAdvice, accessFacts } from './state-access.js'
import { asStoredRow, perLog, ROW_LOGS, StoreConflictError, StoreOpenError, StoreUnavailableError, type RowLog, type SessionChange, type SessionMeta, type StoredRow, type StoredSession, type WorldStore } from './store.js'

/** The store's file in the state folder; SQLite keeps its write-ahead log beside it (`-wal`). */
export const STORE_FILE = 'baas-mock.db'

/** The control plane's token made when none was given, beside the store (see WorldStore.keptAdminToken); --state-reset leaves it. */
export const ADMIN_TOKEN_FILE = 'baas-mock-admin-token'

/**
 * The layout this version writes and reads (PRAGMA user_version). A store written in another one
 * is refused at start, naming the way out, unless a migration below brings it here.
 * 1: the webhook events inside the `webhooks` part. 2: the events as rows of their own (table `events`).
 */
export const STORE_FORMAT = 2

/** PRAGMA application_id: 'baas'. Tells a baas-mock store from any other SQLite file. */
const APPLICATION_ID = 0x62616173

/** A log's rows: one table per row log (store.ts ROW_LOGS), named after it. */
const rowTable = (log: RowLog): string => `
  CREATE TABLE ${log} (
    session_id TEXT NOT NULL,
    id INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (session_id, id)
  ) STRICT;
`

/** What brings a store from format N to N + 1, run in one transaction at start. */
const MIGRATIONS: Readonly<Record<number, (db: BetterSqlite3.Database) => void>> = {
  1: moveEventsToRows
}

/**
 * Format 1 to 2: each session's webhook events move out of its `webhooks` part (version 1 of that
 * JSON: `events`, `recorded` beside the rest) into rows of table `events`, each numbered as the
 * session numbered it (so a list cursor handed out before still points at the same event), with
 * `recorded` in a part of its own (`events`) and the part rewritten without them (version 2). Written
 * against the JSON as format 1 stored it, not the live code's types, so that it stays right as they change.
 */
function moveEventsToRows (db: BetterSqlite3.Database): void {
  db.exec(rowTable('events'))
  const parts = db.prepare<[], { session_id: string; json: string }>('SELECT session_id, json FROM parts WHERE name = \'webhooks\'').all()
  const putPart = db.prepare('INSERT INTO parts (session_id, name, json) VALUES (?, ?, ?) ON CONFLICT (session_id, name) DO UPDATE SET json = excluded.json')
  const putRow = db.prepare('INSERT INTO events (session_id, id, json) VALUES (?, ?, ?)')
  for (const { session_id: id, json } of parts) {
    const webhooks: unknown = JSON.parse(json)
    if (!isFormat1Webhooks(webhooks)) throw new CorruptStore(`session ${id}'s webhooks are not in store format 1`)
    const { events, recorded, ...rest } = webhooks
    // EventLog numbered the events held as the last ones recorded (recorded counts the ones its cap dropped).
    const first = Math.max(recorded, events.length) - events.length + 1
    events.forEach((event, i) => putRow.run(id, first + i, JSON.stringify({ id: first + i, event })))
    putPart.run(id, 'events', JSON.stringify({ recorded: Math.max(recorded, events.length) }))
    putPart.run(id, 'webhooks', JSON.stringify({ ...rest, version: 2 }))
  }
}

/** The `webhooks` part as format 1 stored it: what the migration reads; the rest of its fields go on as they were. */
const isFormat1Webhooks = compiledCheck(Type.Object({
  version: Type.Literal(1),
  events: Type.Array(Type.Unknown()),
  recorded: Type.Integer({ minimum: 0 })
}))

const SCHEMA = `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    last_seen_ms INTEGER NOT NULL,
    pinned INTEGER NOT NULL,
    version INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE parts (
    session_id TEXT NOT NULL,
    name TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (session_id, name)
  ) STRICT;
  ${ROW_LOGS.map(rowTable).join('')}
`

const WAY_OUT = 'set it aside once with `baas-mock state-reset`, or start afresh with --state-reset (MOCK_STATE_DIR stays; the old files are kept aside)'

interface SessionRow { id: string; created_ms: number; last_seen_ms: number; pinned: number; version: number }
interface PartRow { name: string; json: string }

/** What opening found, for the startup log. */
export interface OpenedStore {
  store: SqliteStore
  /** Whether the file was made now (no state yet). */
  created: boolean
  /** Where --state-reset moved the old files, when it moved any. */
  asideAs: string | undefined
  /** Said once in the log: the folder was open to other users (and made private, or not). */
  folderNotice?: string | undefined
}

/**
 * Opens (or creates) the store in `dir`. With `reset`, the old files are first moved aside
 * (`baas-mock-aside-<time>.db`), never deleted. Anything that keeps it from being used as it is
 * (unreadable, corrupt, another format, in use) throws StoreOpenError: one line, the file, the way out.
 */
export async function openSqliteStore (dir: string, options: { reset?: boolean; now?: () => Date } = {}): Promise<OpenedStore> {
  const path = join(dir, STORE_FILE)
  let folderNotice: string | undefined
  try {
    folderNotice = privateFolder(dir, name => name.startsWith('baas-mock'))
  } catch (error) {
    throw new StoreOpenError(`cannot create the state folder ${dir}: ${reason(error)}; give a folder this user can write (MOCK_STATE_DIR)`, { cause: error })
  }
  // Loaded here, not at the top: a mock without --state-dir never loads the native module.
  const { default: Database } = await loadOptionalPackage('better-sqlite3', '--state-dir', async () => await import('better-sqlite3'))
  const asideAs = options.reset === true ? moveAside(Database, dir, path, (options.now ?? (() => new Date()))()) : undefined
  let db: BetterSqlite3.Database | undefined
  try {
    // Inside the try: a folder this process may not search (mode 000, another owner) fails here already, with the access advice.
    const existed = statSync(path, { throwIfNoEntry: false }) !== undefined
    privateFile(path)
    db = new Database(path)
    // This process alone uses the file while it runs (a second mock on the same folder is refused);
    // WAL with synchronous=NORMAL: a commit is durable against a kill of the process, without an fsync per write.
    db.pragma('locking_mode = EXCLUSIVE')
    if (db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') throw new Error('it cannot use a write-ahead log here')
    db.pragma('synchronous = NORMAL')
    // A write that cannot get its lock fails at once (503), rather than stalling every request.
    db.pragma('busy_timeout = 0')
    prepareSchema(db, path)
    const check = db.pragma('quick_check', { simple: true })
    // SQLite lists every damaged page, one per line: the first says enough for a one-line refusal.
    if (check !== 'ok') throw new CorruptStore(`its integrity check says: ${firstLines(String(check))}`)
    // SQLite gives its write-ahead log the database file's mode; one an older version left is brought to it.
    tightenFiles([`${path}-wal`, `${path}-shm`])
    return { store: new SqliteStore(db, path), created: !existed, asideAs, folderNotice }
  } catch (error) {
    db?.close()
    if (error instanceof StoreOpenError) throw error
    // Only a damaged store is what a reset is for: a store in use, or one this process may not
    // write (owner, mode, a read-only mount), may be healthy, and starting afresh would hide it.
    if (isAccess(error)) throw new StoreOpenError(`cannot use the state store ${path}: it cannot be written (${codeOf(error)}): ${accessAdvice(accessFacts(dir, path))}`, { cause: error })
    const damaged = error instanceof CorruptStore || isCorrupt(error)
    throw new StoreOpenError(`cannot use the state store ${path}: ${openReason(error)}${damaged ? `; ${WAY_OUT}` : ''}`, { cause: error })
  }
}

/** Found while opening: the file is not a store this version can read. */
class CorruptStore extends Error {}

function prepareSchema (db: BetterSqlite3.Database, path: string): void {
  const tables = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get()
  const format = db.pragma('user_version', { simple: true })
  const application = db.pragma('application_id', { simple: true })
  if (tables === 0 && format === 0) {
    db.transaction(() => {
      db.exec(SCHEMA)
      db.pragma(`application_id = ${APPLICATION_ID}`)
      db.pragma(`user_version = ${STORE_FORMAT}`)
    }).immediate()
    return
  }
  if (application !== APPLICATION_ID) throw new CorruptStore('it is not a baas-mock state store (another program\'s SQLite file)')
  if (typeof format !== 'number') throw new CorruptStore('its format cannot be read')
  if (format > STORE_FORMAT) {
    throw new StoreOpenError(`the state store ${path} was written by a newer baas-mock (store format ${format}; this one reads format ${STORE_FORMAT}): ` +
      `run that version or a later one, or ${WAY_OUT}`)
  }
  for (let from = format; from < STORE_FORMAT; from++) {
    const migrate = MIGRATIONS[from]
    if (migrate === undefined) {
      throw new StoreOpenError(`the state store ${path} was written by an older baas-mock (store format ${format}) and this one (format ${STORE_FORMAT}) ` +
        `cannot bring it up to date: run the version that wrote it, or ${WAY_OUT}`)
    }
    db.transaction(() => {
      migrate(db)
      db.pragma(`user_version = ${from + 1}`)
    }).immediate()
  }
}

/** Moves the store's files aside before a fresh start, if there are any and no other process uses them. */
function moveAside (Database: typeof BetterSqlite3, dir: string, path: string, now: Date): string | undefined {
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined
  try {
    const probe = new Database(path, { fileMustExist: true })
    try {
      probe.pragma('locking_mode = EXCLUSIVE')
      probe.pragma('busy_timeout = 0')
      probe.prepare('SELECT count(*) FROM sqlite_schema').get()
    } finally {
      probe.close()
    }
  } catch (error) {
    // A corrupt file is what a reset is for; one in use by a running mock is not to be pulled away.
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new StoreOpenError(`cannot reset the state store ${path}: another process uses it (another baas-mock on the same state folder?); stop it first`, { cause: error })
    }
  }
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  const aside = join(dir, `baas-mock-aside-${stamp}.db`)
  try {
    for (const suffix of ['-wal', '-shm', '']) {
      if (statSync(path + suffix, { throwIfNoEntry: false }) !== undefined) renameSync(path + suffix, aside + suffix)
    }
  } catch (error) {
    throw new StoreOpenError(`cannot move the state store ${path} aside: ${reason(error)}`, { cause: error })
  }
  return aside
}

/**
 * Sessions in one SQLite file (better-sqlite3): a row per session, a row per part, a row per
 * journal entry and per webhook event, so that a request's entry and its events are small inserts
 * and a write rewrites only the parts it changed. Its calls do their work at once (the driver is synchronous) and answer settled
 * promises: a save has reached the write-ahead log when its promise settles.
 */
export class SqliteStore implements WorldStore {
  readonly kind = 'sqlite'
  readonly persistent = true
  readonly shared = false
  private readonly statements
  private readonly saveInTransaction
  private readonly deleteInTransaction
  /** Writes asked for in this turn of the event loop, committed together by flush(). */
  private pending: Array<{ work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }> = []

  constructor (private readonly db: BetterSqlite3.Database, readonly location: string) {
    this.statements = {
      list: db.prepare<[], SessionRow>('SELECT id, created_ms, last_seen_ms, pinned, version FROM sessions ORDER BY last_seen_ms, rowid'),
      session: db.prepare<[string], SessionRow>('SELECT id, created_ms, last_seen_ms, pinned, version FROM sessions WHERE id = ?'),
      parts: db.prepare<[string], PartRow>('SELECT name, json FROM parts WHERE session_id = ?'),
      insertSession: db.prepare('INSERT INTO sessions (id, created_ms, last_seen_ms, pinned, version) VALUES (?, ?, ?, ?, 1) ON CONFLICT (id) DO NOTHING'),
      updateSession: db.prepare('UPDATE sessions SET last_seen_ms = ?, pinned = ?, version = version + 1 WHERE id = ? AND version = ?'),
      putPart: db.prepare('INSERT INTO parts (session_id, name, json) VALUES (?, ?, ?) ON CONFLICT (session_id, name) DO UPDATE SET json = excluded.json'),
      idle: db.prepare<[number], string>('SELECT id FROM sessions WHERE last_seen_ms < ? AND pinned = 0 AND id <> \'default\'').pluck(),
      deleteSession: db.prepare('DELETE FROM sessions WHERE id = ?'),
      deleteParts: db.prepare('DELETE FROM parts WHERE session_id = ?'),
      rows: perLog(log => ({
        select: db.prepare<[string], string>(`SELECT json FROM ${log} WHERE session_id = ? ORDER BY id`).pluck(),
        put: db.prepare(`INSERT OR REPLACE INTO ${log} (session_id, id, json) VALUES (?, ?, ?)`),
        trim: db.prepare(`DELETE FROM ${log} WHERE session_id = ? AND id < ?`),
        delete: db.prepare(`DELETE FROM ${log} WHERE session_id = ?`)
      }))
    }
    this.saveInTransaction = db.transaction((change: SessionChange): number => {
      const { meta } = change
      const s = this.statements
      const written = change.baseVersion === 0
        ? s.insertSession.run(meta.id, meta.createdMs, meta.lastSeenMs, meta.pinned ? 1 : 0)
        : s.updateSession.run(meta.lastSeenMs, meta.pinned ? 1 : 0, meta.id, change.baseVersion)
      if (written.changes !== 1) throw new StoreConflictError(meta.id)
      for (const [name, data] of Object.entries(change.parts)) s.putPart.run(meta.id, name, JSON.stringify(data))
      for (const log of ROW_LOGS) {
        const { appended, from } = change.rows[log]
        for (const row of appended) s.rows[log].put.run(meta.id, row.id, JSON.stringify(row))
        s.rows[log].trim.run(meta.id, from)
      }
      return change.baseVersion + 1
    })
    this.deleteInTransaction = db.transaction((id: string): boolean => {
      for (const log of ROW_LOGS) this.statements.rows[log].delete.run(id)
      this.statements.deleteParts.run(id)
      return this.statements.deleteSession.run(id).changes > 0
    })
  }

  async list (): Promise<SessionMeta[]> {
    this.flush()
    return this.run(() => this.statements.list.all().map(metaOf))
  }

  async load (id: string): Promise<StoredSession | undefined> {
    this.flush()
    const found = this.run(() => {
      const session = this.statements.session.get(id)
      return session === undefined ? undefined : { session, parts: this.statements.parts.all(id), rows: perLog(log => this.statements.rows[log].select.all(id)) }
    })
    if (found === undefined) return undefined
    const parts: Record<string, unknown> = {}
    for (const { name, json } of found.parts) parts[name] = parseJson(json, `its ${name}`)
    const rows = perLog(log => found.rows[log].map(json => rowOf(json, log)))
    return { ...metaOf(found.session), version: found.session.version, parts, rows }
  }

  /** Settles once the change is committed with the others of this turn of the event loop (see flush). */
  async save (change: SessionChange): Promise<number> {
    return await this.queued(() => this.saveInTransaction(change))
  }

  async delete (id: string): Promise<boolean> {
    return await this.queued(() => this.deleteInTransaction(id))
  }

  async expire (idleSinceMs: number): Promise<string[]> {
    return await this.queued(() => {
      const ids = this.statements.idle.all(idleSinceMs)
      for (const id of ids) this.deleteInTransaction(id)
      return ids
    })
  }

  /** A file of its own (0600) beside the store, not a row: readable by the operator who lost the log line. */
  async keptAdminToken (made: string): Promise<{ token: string; where: string }> {
    const path = join(dirname(this.location), ADMIN_TOKEN_FILE)
    return { token: keptPrivateText(path, made), where: path }
  }

  /** Closing the only connection checkpoints the log into the file. */
  async close (): Promise<void> {
    this.flush()
    if (this.db.open) this.db.close()
  }

  /**
   * Group commit: the writes asked for in one turn of the event loop (many requests in flight, and
   * the journal entries of the answers just sent) go in one transaction, each in a savepoint of its
   * own so that one refused change (a version conflict) does not fail the others. A commit costs the
   * same for one change as for fifty, so this is what keeps a burst of writes fast; each answer
   * still leaves only once its change is committed.
   */
  private queued<T> (work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject })
      if (this.pending.length === 1) setImmediate(() => this.flush())
    })
  }

  /** Commits what is queued, in order; reads call it first, so they see every write asked for before them. */
  private flush (): void {
    if (this.pending.length === 0) return
    const batch = this.pending
    this.pending = []
    const outcomes: Array<{ value?: unknown; error?: unknown }> = []
    try {
      this.run(() => this.db.transaction(() => {
        for (const { work } of batch) {
          try {
            outcomes.push({ value: this.db.transaction(work)() })
          } catch (error) {
            outcomes.push({ error })
          }
        }
      }).immediate())
    } catch (error) {
      // The commit itself failed: none of the batch was written.
      for (const item of batch) item.reject(error)
      return
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]
      if (outcome !== undefined && 'error' in outcome) item.reject(outcome.error instanceof StoreConflictError ? outcome.error : this.unavailable(outcome.error))
      else item.resolve(outcome?.value)
    })
  }

  /** SQLite's failures (disk full, I/O error, locked) as StoreUnavailableError; a version conflict as itself. */
  private run<T> (work: () => T): T {
    try {
      return work()
    } catch (error) {
      if (error instanceof StoreConflictError) throw error
      throw this.unavailable(error)
    }
  }

  private unavailable (error: unknown): StoreUnavailableError {
    return new StoreUnavailableError(`the SQLite store ${this.location} failed: ${reason(error)}`, 1, { cause: error })
  }
}

function metaOf (row: SessionRow): SessionMeta {
  return { id: row.id, createdMs: row.created_ms, lastSeenMs: row.last_seen_ms, pinned: row.pinned === 1 }
}

/** A row as stored: JSON with a numeric id; the part that restores its log checks the rest. */
function rowOf (json: string, log: RowLog): StoredRow {
  const row = asStoredRow(parseJson(json, `its ${log}`))
  if (row === undefined) throw new Error(`its ${log} holds a row of another shape`)
  return row
}

function parseJson (json: string, what: string): unknown {
  try {
    return JSON.parse(json)
  } catch {
    throw new Error(`${what} is not valid JSON`)
  }
}

function reason (error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code === undefined ? message ?? String(error) : `${code} (${message ?? ''})`
}

const codeOf = (error: unknown): string => (error as { code?: string }).code ?? ''

/** SQLite's word for a file this process may not write: its owner, its mode, a read-only mount, a lock it cannot take. */
function isAccess (error: unknown): boolean {
  const code = codeOf(error)
  // The E* codes come from making the file private before SQLite opens it (a read-only mount: EROFS).
  return ['EACCES', 'EPERM', 'EROFS'].includes(code) ||
    ['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_AUTH', 'SQLITE_IOERR_LOCK'].some(prefix => code === prefix || code.startsWith(`${prefix}_`))
}

function isCorrupt (error: unknown): boolean {
  const code = codeOf(error)
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')
}

function isBusy (error: unknown): boolean {
  const code = (error as { code?: string }).code
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED'
}

/** The first non-empty lines of a multi-line report, on one line, with a count of the rest. */
function firstLines (text: string, keep = 2): string {
  const lines = text.split('\n').map(line => line.trim()).filter(line => line !== '')
  const rest = lines.length - keep
  return lines.slice(0, keep).join('; ') + (rest > 0 ? ` (and ${rest} more)` : '')
}

/** What keeps the file from being used, in the words a user acts on. */
function openReason (error: unknown): string {
  const code = (error as { code?: string }).code ?? ''
  if (error instanceof CorruptStore) return error.message
  if (isBusy(error)) return 'another process uses it (another baas-mock on the same state folder?); stop it, or give another --state-dir'
  if (isCorrupt(error)) return `it is corrupt or not a database (${code})`
  return reason(error)
}
