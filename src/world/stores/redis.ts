import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Redis, RedisOptions, Result } from 'ioredis'
import { redactedStoreUrl } from '../../config/store-url.js'
import { DELETE_SCRIPT, EXPIRE_SCRIPT, LIST_SCRIPT, LOAD_SCRIPT, RELEASE_SCRIPT, SAVE_SCRIPT } from './redis-scripts.js'
import { asStoredRow, perLog, ROW_LOGS, StoreConflictError, StoreUnavailableError, type LoadOptions, type RowLog, type SessionChange, type SessionMeta, type StoredRow, type StoredSession, type WorldStore } from './store.js'
import { RedisFeed, watchKey } from './redis-feed.js'
import { loadOptionalPackage } from './optional-package.js'

/**
 * The layout this version writes (the `format` field of each session hash); a newer one is not read.
 * 1: the webhook events inside part:webhooks. 2: the events in a stream of their own (events:<id>);
 * a session written in format 1 is still read, and written in format 2 by its next save.
 */
export const REDIS_FORMAT = 2

/**
 * How long a replica whose save lost goes first (the claim): longer than a turn of work takes, short
 * enough that a replica killed while it holds one holds the session up only this long.
 */
const CLAIM_MS = 1000
/** How long a load waits for another replica's claim to end before the turn counts as a conflict. */
const CLAIM_WAIT_MS = 2 * CLAIM_MS

/** How the Redis store keeps its sessions: the shared session rules, which every replica must be started with alike. */
export interface RedisStoreOptions {
  /** Prepended to every key (--store-prefix). */
  prefix: string
  /** A session not used for this long is dropped (Redis's own expiry of its keys). */
  idleTimeoutMs: number
  /** Sessions kept, pinned ones aside, across every replica (--max-sessions). */
  maxSessions: number
  /** Told when the connection to Redis is lost and found again (one line each, never the password). */
  onStatus?: ((level: 'info' | 'warn', line: string) => void) | undefined
  /** Told which sessions the cap pushed out of Redis, so a log can name the sessions a CI job lost. */
  onEvicted?: ((ids: string[]) => void) | undefined
}

type Reply = Array<string | Reply> | string | number | null

declare module 'ioredis' {
  interface RedisCommander<Context> {
    baasSave: (...args: Array<string | number>) => Result<Array<string | number>, Context>
    baasLoad: (...args: Array<string | number>) => Result<Reply, Context>
    baasList: (...args: Array<string | number>) => Result<string[], Context>
    baasDelete: (...args: Array<string | number>) => Result<number, Context>
    baasExpire: (...args: Array<string | number>) => Result<string[], Context>
    baasRelease: (...args: Array<string | number>) => Result<number, Context>
  }
}

/** ioredis's words for a command it did not send, the connection being down (enableOfflineQueue false). */
const NOT_SENT = "Stream isn't writeable and enableOfflineQueue options is false"

/** Redis's error replies for a command it refused before running it: a script that gets one wrote nothing. */
const REFUSED_BEFORE_RUNNING = /^(OOM|READONLY|BUSY|NOSCRIPT|LOADING|MASTERDOWN|MISCONF|NOREPLICAS|NOPERM|NOAUTH|WRONGPASS)\b/

/**
 * ioredis's settings for a store that answers requests: a command fails at once while Redis is
 * unreachable (no queue that would hold requests until it returns), a command in flight when the
 * connection drops fails rather than being sent again (a save sent twice could be applied twice),
 * no command waits longer than commandTimeout, and the client reconnects by itself, forever.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 2000,
  connectTimeout: 5000,
  enableAutoPipelining: true,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  // A failover leaves the client on a replica that refuses writes: reconnect (to the new primary); nothing was written.
  reconnectOnError: (error: Error) => error.message.startsWith('READONLY') ? 2 : false
}

/**
 * Sessions in Redis, shared by every replica started on it: a hash per session (meta, version and
 * each part as JSON), a stream per session for its journal, a sorted set of all sessions by last
 * use and a set of the pinned ones (redis-scripts.ts has the layout). Every save is one Lua script:
 * it checks the version, writes, renews the keys' time to live, and applies the session cap, so
 * that any number of replicas keep one consistent set of sessions.
 */
export class RedisStore implements WorldStore {
  readonly kind = 'redis'
  readonly persistent = true
  readonly shared = true
  private readonly indexKey: string
  private readonly pinnedKey: string
  private reachable: boolean | undefined
  /** This replica, in the claims it makes. */
  private readonly token = randomUUID()

  /** The live feed across replicas (pub/sub). */
  readonly feed: RedisFeed
  /**
   * The sessions some replica's dashboard follows, as of this replica's last load of each: the
   * feed publishes only their notices, so a session nobody watches costs no pub/sub traffic.
   */
  private readonly watched = new Set<string>()

  constructor (private readonly redis: Redis, readonly location: string, private readonly options: RedisStoreOptions) {
    this.feed = new RedisFeed(redis, options.prefix, this.token, id => this.watched.has(id))
    this.indexKey = `${options.prefix}sessions`
    this.pinnedKey = `${options.prefix}pinned`
    redis.defineCommand('baasSave', { numberOfKeys: 4 + ROW_LOGS.length, lua: SAVE_SCRIPT })
    redis.defineCommand('baasLoad', { numberOfKeys: 4 + ROW_LOGS.length, lua: LOAD_SCRIPT })
    redis.defineCommand('baasList', { numberOfKeys: 2, lua: LIST_SCRIPT })
    redis.defineCommand('baasDelete', { numberOfKeys: 1, lua: DELETE_SCRIPT })
    redis.defineCommand('baasExpire', { numberOfKeys: 2, lua: EXPIRE_SCRIPT })
    redis.defineCommand('baasRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT })
    // Without a listener, ioredis reports every failed reconnection on stderr; one line per outage is enough.
    redis.on('error', (error: Error) => this.lost(error.message))
    redis.on('close', () => this.lost('the connection closed'))
    redis.on('ready', () => this.found())
  }

  /** Whether the connection is up now (ioredis's own state; `check` asks Redis). */
  get connected (): boolean {
    return this.redis.status === 'ready'
  }

  async list (): Promise<SessionMeta[]> {
    const flat = await this.run(async () => await this.redis.baasList(this.indexKey, this.pinnedKey, this.options.prefix))
    const metas: SessionMeta[] = []
    for (let i = 0; i + 3 < flat.length; i += 4) {
      metas.push({ id: flat[i] as string, createdMs: Number(flat[i + 1]), lastSeenMs: Number(flat[i + 2]), pinned: flat[i + 3] === '1' })
    }
    return metas
  }

  /**
   * While another replica has claimed the session's next save (its last one lost), waits for that
   * save (or the claim's end): loading before it would only make work that cannot be saved.
   */
  async load (id: string, options: LoadOptions = {}): Promise<StoredSession | 'unchanged' | undefined> {
    const { session, claim, streams, watch } = this.keysOf(id)
    const { rowsAfter } = options
    const until = Date.now() + CLAIM_WAIT_MS
    for (;;) {
      const reply = await this.run(async () => await this.redis.baasLoad(session, this.indexKey, claim, ...streams, watch, id,
        options.knownVersion ?? '', options.touch === true ? Date.now() : '', this.options.idleTimeoutMs, this.token, options.claim === true ? 1 : '', CLAIM_MS,
        ...ROW_LOGS.map(log => rowsAfter === undefined ? '-' : `${rowsAfter[log] + 1}-0`)))
      if (reply === null) return undefined
      if (!Array.isArray(reply)) throw this.unreadable(id, 'an answer of another shape')
      if (reply[0] !== 'claimed') {
        const refused = reply.at(-1)
        // A full Redis refused the last-seen time (or the claim): the read goes on, the outage is told.
        if (typeof refused === 'string' && refused !== '') {
          options.onSkippedWrite?.(new StoreUnavailableError(`the Redis store ${this.location} refused a write`, 1, { cause: new Error(refused) }))
        }
        if (reply.at(-2) === 1) this.watched.add(id)
        else this.watched.delete(id)
        return reply.length === 3 ? 'unchanged' : { ...this.stored(id, reply.slice(0, -2)), rowsAfter }
      }
      if (Date.now() >= until) throw new StoreConflictError(id)
      // The claimant saves within a round trip or two; a short pause, not a busy loop.
      await sleep(Math.min(Number(reply[1]), 2))
    }
  }

  async save (change: SessionChange): Promise<number> {
    const { meta } = change
    const { session, claim, streams } = this.keysOf(meta.id)
    const parts = Object.entries(change.parts)
    const args: Array<string | number> = [
      session, this.indexKey, this.pinnedKey, claim, ...streams,
      meta.id, change.baseVersion, REDIS_FORMAT, meta.createdMs, meta.lastSeenMs, meta.pinned ? 1 : 0,
      this.options.idleTimeoutMs, this.options.maxSessions, this.options.prefix, this.token,
      parts.length, ...parts.flatMap(([name, data]) => [name, JSON.stringify(data)]),
      ...ROW_LOGS.flatMap(log => {
        const { appended, from } = change.rows[log]
        return [log, from, appended.length, ...appended.flatMap(row => [row.id, JSON.stringify(row)])]
      })
    ]
    const [saved, ...evicted] = await this.run(async () => await this.redis.baasSave(...args), true)
    if (saved !== 1) throw new StoreConflictError(meta.id)
    if (evicted.length > 0) this.options.onEvicted?.(evicted.map(String))
    return change.baseVersion + 1
  }

  async delete (id: string): Promise<boolean> {
    const existed = await this.run(async () => await this.redis.baasDelete(this.keysOf(id).session, this.options.prefix, id))
    return existed === 1
  }

  /** Redis expires idle sessions by itself; this drops what it has not yet (and their places in the index). */
  async expire (idleSinceMs: number): Promise<string[]> {
    return await this.run(async () => await this.redis.baasExpire(this.indexKey, this.pinnedKey, this.options.prefix, idleSinceMs))
  }

  async release (id: string): Promise<void> {
    await this.run(async () => await this.redis.baasRelease(this.keysOf(id).claim, this.token))
  }

  /**
   * One key for every replica (SET NX: the first to start makes it); no time to live, as the sessions'
   * default has none. Read first: a full Redis refuses SET even when the key exists, and a replica
   * restarted then must still get the token the others use.
   */
  async keptAdminToken (made: string): Promise<{ token: string; where: string }> {
    const key = `${this.options.prefix}admin-token`
    const token = await this.run(async () => {
      const kept = await this.redis.get(key)
      if (kept !== null) return kept
      await this.redis.set(key, made, 'NX')
      return await this.redis.get(key)
    })
    return { token: token ?? made, where: `${this.location}, key ${key}` }
  }

  async check (): Promise<void> {
    await this.run(async () => await this.redis.ping())
  }

  /** Every save was answered before its request was: nothing is pending here but the connection. */
  async close (): Promise<void> {
    this.feed.close()
    this.redis.removeAllListeners('ready')
    this.redis.removeAllListeners('close')
    try {
      await this.redis.quit()
    } catch {
      // Not connected: nothing to say goodbye to.
      this.redis.disconnect()
    }
  }

  /** A session's keys; `streams` one per row log, in ROW_LOGS order. */
  private keysOf (id: string): { session: string; claim: string; streams: string[]; watch: string } {
    const { prefix } = this.options
    return { session: `${prefix}session:${id}`, claim: `${prefix}claim:${id}`, streams: ROW_LOGS.map(log => `${prefix}${log}:${id}`), watch: watchKey(prefix, id) }
  }

  /** A session from the load script's answer: its hash's fields and each row log's stream entries. */
  private stored (id: string, reply: Reply[]): StoredSession {
    const [, hash, ...streams] = reply
    if (!Array.isArray(hash) || streams.length !== ROW_LOGS.length) throw this.unreadable(id, 'an answer of another shape')
    const fields = new Map<string, string>()
    for (let i = 0; i + 1 < hash.length; i += 2) fields.set(String(hash[i]), String(hash[i + 1]))
    const format = Number(fields.get('format'))
    if (format > REDIS_FORMAT) throw this.unreadable(id, `store format ${format}, written by a newer baas-mock (this one reads format ${REDIS_FORMAT})`)
    const parts: Record<string, unknown> = {}
    for (const [field, json] of fields) {
      if (field.startsWith('part:')) parts[field.slice('part:'.length)] = this.parsed(id, json, `its ${field.slice('part:'.length)}`)
    }
    const rows = perLog(log => this.rowsOf(id, log, streams[ROW_LOGS.indexOf(log)]))
    return {
      id,
      createdMs: Number(fields.get('createdMs')),
      lastSeenMs: Number(fields.get('lastSeenMs')),
      pinned: fields.get('pinned') === '1',
      version: Number(fields.get('version')),
      parts,
      rows
    }
  }

  /** A stream's entries as rows: JSON with a numeric id (the part that restores them checks the rest). */
  private rowsOf (id: string, log: RowLog, entries: Reply | undefined): StoredRow[] {
    if (!Array.isArray(entries)) throw this.unreadable(id, 'an answer of another shape')
    return entries.map(entry => {
      const values = Array.isArray(entry) ? entry[1] : undefined
      const json = Array.isArray(values) ? values[1] : undefined
      const row = asStoredRow(typeof json === 'string' ? this.parsed(id, json, `its ${log}`) : undefined)
      if (row === undefined) throw this.unreadable(id, `a ${log} row of another shape`)
      return row
    })
  }

  private parsed (id: string, json: string, what: string): unknown {
    try {
      return JSON.parse(json)
    } catch {
      throw this.unreadable(id, `${what} is not valid JSON`)
    }
  }

  private unreadable (id: string, why: string): StoreUnavailableError {
    return new StoreUnavailableError(`session ${id} in ${this.location} cannot be read: ${why}`)
  }

  /**
   * Redis's failures as StoreUnavailableError (the request answers 503); a conflict or an unreadable session as itself.
   * `writes`: the command is a request's save, which may have been applied when it went out and no answer came back.
   */
  private async run<T> (work: () => Promise<T>, writes = false): Promise<T> {
    try {
      const answer = await work()
      // An outage said too early (a call failed, the connection held): over once a call goes through.
      if (this.reachable === false) this.found()
      return answer
    } catch (error) {
      if (error instanceof StoreConflictError || error instanceof StoreUnavailableError) throw error
      const { name, message } = error as Error
      // An answer of Redis's (an error reply) or one that never came (a Redis that hangs) is this
      // call's own. Anything else is the connection: every call fails alike while it is down, so
      // the outage gets one log line (perhaps before the client's own events tell), not one per request.
      const connection = name !== 'ReplyError' && message !== 'Command timed out'
      if (connection) this.lost(message)
      // Known not applied: Redis's refusal before a script runs (OOM, READONLY...) or a command never
      // sent (no connection). Anything else may have run: a timeout, a cut connection, or an error
      // the script raised midway (its writes before it stay).
      const outcomeUnknown = writes && !(name === 'ReplyError' && REFUSED_BEFORE_RUNNING.test(message)) && message !== NOT_SENT
      throw new StoreUnavailableError(`the Redis store ${this.location} failed`, 1, { cause: error, reported: connection, outcomeUnknown })
    }
  }

  private lost (why: string): void {
    if (this.reachable === false) return
    this.reachable = false
    this.options.onStatus?.('warn', `the Redis store ${this.location} cannot be reached (${why}): requests answer 503 store_unavailable and /readyz 503 until it can; reconnecting`)
  }

  private found (): void {
    const before = this.reachable
    this.reachable = true
    if (before === false) this.options.onStatus?.('info', `the Redis store ${this.location} can be reached again`)
  }
}

/** The first connection is waited for this long at start; without it the mock starts not ready, and keeps trying. */
const FIRST_CONNECTION_MS = 3000

/**
 * Connects to the Redis at `url` (--store). Never fails on an unreachable Redis: a demo behind
 * Kubernetes starts not ready (GET /readyz 503) and becomes ready when Redis answers, as it does
 * when Redis goes away later. `startedReachable` says which, for the startup log.
 */
export async function openRedisStore (url: string, options: RedisStoreOptions): Promise<{ store: RedisStore; startedReachable: boolean }> {
  const location = redactedStoreUrl(url)
  // Loaded here, not at the top: a mock without --store never loads the client.
  const { Redis } = await loadOptionalPackage('ioredis', '--store', async () => await import('ioredis'))
  const redis = new Redis(url, { ...REDIS_CLIENT_OPTIONS, lazyConnect: true })
  const store = new RedisStore(redis, location, options)
  const connected = redis.connect().then(() => true, () => false)
  let timer: ReturnType<typeof setTimeout> | undefined
  const startedReachable = await Promise.race([connected, new Promise<boolean>(resolve => { timer = setTimeout(() => resolve(false), FIRST_CONNECTION_MS) })])
  clearTimeout(timer)
  return { store, startedReachable }
}
