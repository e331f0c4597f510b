import type { LoadOptions, SessionChange, SessionMeta, StoredSession, WorldStore } from '../../src/world/stores/store.js'

/** A store that passes every call on to `inner` and keeps the changes it was asked to save, as sent. */
export class RecordingStore implements WorldStore {
  readonly kind: string
  readonly location: string
  readonly persistent: boolean
  readonly shared: boolean
  readonly saves: SessionChange[] = []

  constructor (private readonly inner: WorldStore) {
    this.kind = inner.kind
    this.location = inner.location
    this.persistent = inner.persistent
    this.shared = inner.shared
  }

  async list (): Promise<SessionMeta[]> {
    return await this.inner.list()
  }

  async load (id: string, options?: LoadOptions): Promise<StoredSession | 'unchanged' | undefined> {
    return await this.inner.load(id, options)
  }

  async save (change: SessionChange): Promise<number> {
    this.saves.push(JSON.parse(JSON.stringify(change)) as SessionChange)
    return await this.inner.save(change)
  }

  async delete (id: string): Promise<boolean> {
    return await this.inner.delete(id)
  }

  async expire (idleSinceMs: number): Promise<string[]> {
    return await this.inner.expire(idleSinceMs)
  }

  async close (): Promise<void> {
    await this.inner.close()
  }

  /** The saves recorded since the last call. */
  take (): SessionChange[] {
    return this.saves.splice(0)
  }
}
