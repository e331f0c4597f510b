import { MemoryStore } from './memory.js'
import type { StoreConfig, StoreLog, StoreOpening } from './open-store.js'

// open-store.ts for the browser: there is no file system and no Redis client, so sessions live in memory only.

export async function openStore (config: StoreConfig, _log?: StoreLog): Promise<StoreOpening> {
  if (config.stateDir !== undefined) throw new TypeError('stateDir keeps sessions in a folder, which a browser has not: leave it out there')
  if (config.store !== undefined) throw new TypeError('store keeps sessions in Redis, which a browser cannot reach: leave it out there')
  return { store: new MemoryStore(), notice: undefined }
}
