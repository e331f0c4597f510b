import { MemoryStore } from './memory.js'
import type { WorldStore } from './store.js'

/** What the startup log says about the store. */
export interface StoreOpening {
  store: WorldStore
  /** One line for the log: where the sessions are kept, and what was found there. */
  notice: string | undefined
}

/**
 * The store a configuration names: SQLite in `stateDir` (--state-dir), or memory. The SQLite
 * module (and its native driver) loads only then; a browser build has its own variant of this file.
 */
export async function openStore (config: { stateDir: string | undefined; stateReset: boolean }): Promise<StoreOpening> {
  if (config.stateDir === undefined) return { store: new MemoryStore(), notice: undefined }
  const { openSqliteStore } = await import('./sqlite.js')
  const { store, created, asideAs } = await openSqliteStore(config.stateDir, { reset: config.stateReset })
  const aside = asideAs === undefined ? '' : `; the previous store is kept as ${asideAs}`
  return { store, notice: `${created ? 'new state store' : 'state store'} ${store.location}${aside}` }
}
