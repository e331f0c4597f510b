import { ConfigError } from '../../config/config-error.js'
import { MemoryStore } from './memory.js'
import type { WorldStore } from './store.js'

/** What the startup log says about the store. */
export interface StoreOpening {
  store: WorldStore
  /** One line for the log: where the sessions are kept, and what was found there. */
  notice: string | undefined
}

/** What opening a store reads of the configuration. */
export interface StoreConfig {
  stateDir: string | undefined
  stateReset: boolean
  store: string | undefined
  storePrefix: string
  maxSessions: number
  sessionIdleSeconds: number
}

/** Where a store tells what happens to it after it opened (a Redis connection lost and found). */
export type StoreLog = (level: 'info' | 'warn', line: string) => void

/**
 * The store a configuration names: Redis at `store` (--store), SQLite in `stateDir` (--state-dir),
 * or memory. The module of each (and its driver) loads only then; a browser build has its own
 * variant of this file, which has neither.
 */
export async function openStore (config: StoreConfig, log?: StoreLog): Promise<StoreOpening> {
  if (config.store !== undefined) {
    if (config.stateDir !== undefined) {
      throw new ConfigError('--store (MOCK_STORE) and --state-dir (MOCK_STATE_DIR) each name where sessions are kept: give one of them')
    }
    const { openRedisStore } = await import('./redis.js')
    const { store, startedReachable } = await openRedisStore(config.store, {
      prefix: config.storePrefix,
      idleTimeoutMs: config.sessionIdleSeconds * 1000,
      maxSessions: config.maxSessions,
      onStatus: log,
      onEvicted: ids => log?.('info', `sessions evicted from the Redis store (over --max-sessions ${config.maxSessions}): ${ids.join(', ')}`)
    })
    const state = startedReachable ? 'shared with every replica on it' : 'not reachable yet: not ready (GET /readyz 503) until it is'
    return { store, notice: `sessions in the Redis store ${store.location}, keys ${config.storePrefix}*, ${state}` }
  }
  if (config.stateDir === undefined) return { store: new MemoryStore(), notice: undefined }
  const { openSqliteStore } = await import('./sqlite.js')
  const { store, created, asideAs, folderNotice } = await openSqliteStore(config.stateDir, { reset: config.stateReset })
  if (folderNotice !== undefined) log?.('warn', folderNotice)
  const aside = asideAs === undefined ? '' : `; the previous store is kept as ${asideAs}`
  return { store, notice: `${created ? 'new state store' : 'state store'} ${store.location}${aside}` }
}
