import { MemoryStore } from './memory.js'
import type { StoreOpening } from './open-store.js'

// open-store.ts for the browser: there is no file system, so sessions live in memory only.

export async function openStore (config: { stateDir: string | undefined; stateReset: boolean }): Promise<StoreOpening> {
  if (config.stateDir !== undefined) throw new TypeError('stateDir keeps sessions in a folder, which a browser has not: leave it out there')
  return { store: new MemoryStore(), notice: undefined }
}
