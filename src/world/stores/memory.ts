import type { SessionChange, SessionMeta, StoredSession, WorldStore } from './store.js'

/**
 * The default: sessions live in this process only and go with it. Not persistent, so the session
 * store never calls it: no serialisation and no promise on any request, as fast as before stores.
 */
export class MemoryStore implements WorldStore {
  readonly kind = 'memory'
  readonly location = 'memory'
  readonly persistent = false
  readonly shared = false

  async list (): Promise<SessionMeta[]> {
    return []
  }

  async load (_id: string): Promise<StoredSession | undefined> {
    return undefined
  }

  async save (change: SessionChange): Promise<number> {
    return change.baseVersion + 1
  }

  async delete (_id: string): Promise<boolean> {
    return false
  }

  async expire (_idleSinceMs: number): Promise<string[]> {
    return []
  }

  async close (): Promise<void> {}
}
