import { MemoryStore } from './memory.js'
import type { WorldStore } from './store.js'

/** What the startup log says about the store. */
export interface StoreOpening {
  store: WorldStore
  /** One line for the log: where the sessions are kept, and what was found there. */
  notice: string | undefined
}

/** The store a configuration names: memory, for now. */
export async function openStore (_config: { stateDir: string | undefined; stateReset: boolean }): Promise<StoreOpening> {
  return { store: new MemoryStore(), notice: undefined }
}
