import { loadCore, OPERATION_HANDLERS } from '../../src/core/build.js'
import { CoreServices } from '../../src/core/services.js'
import { operationRoutes } from '../../src/core/route-definition.js'
import { controlDefinitions } from '../../src/control/route.js'
import { CONTROL_ROUTES } from '../../src/control/routes.js'
import { closeEventFeed } from '../../src/control/events.js'
import { createFetchHandler } from '../../src/transports/fetch/handler.js'
import { defaultConfig, type Config } from '../../src/config/config.js'
import { perLog, StoreConflictError, type FeedNotice, type SessionChange, type SessionMeta, type StoreFeed, type StoredSession, type WorldStore } from '../../src/world/stores/store.js'
import { TEST_NOW } from './app.js'

/**
 * The store boundary as a remote store (Redis, issue 20) meets it: every call answers on a later
 * turn, data crosses as JSON text, and two "replicas" (two cores in this process) share it. A
 * request may land on either; each must see what the other acknowledged. Its feed is a pub/sub bus
 * as Redis's: a notice published reaches every subscriber of its session, the publisher's process
 * included, on a later turn, as JSON text.
 */
export class SharedStore implements WorldStore {
  readonly kind = 'shared-test'
  readonly location = 'memory://shared'
  readonly persistent = true
  readonly shared = true
  readonly sessions = new Map<string, string>()
  saves = 0
  /** Notices published, as sent. */
  readonly published: FeedNotice[] = []
  private readonly subscribers = new Map<string, Set<(notice: FeedNotice) => void>>()

  readonly feed: StoreFeed = {
    publish: notice => {
      const text = JSON.stringify(notice)
      this.published.push(JSON.parse(text) as FeedNotice)
      setImmediate(() => { for (const listener of this.subscribers.get(notice.session) ?? []) listener(JSON.parse(text) as FeedNotice) })
    },
    subscribe: (sessionId, listener) => {
      const listeners = this.subscribers.get(sessionId) ?? new Set()
      this.subscribers.set(sessionId, listeners)
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    }
  }

  private async later<T> (work: () => T): Promise<T> {
    await new Promise(resolve => setImmediate(resolve))
    return work()
  }

  async list (): Promise<SessionMeta[]> {
    return await this.later(() => [...this.sessions.values()].map(text => JSON.parse(text) as StoredSession).map(({ id, createdMs, lastSeenMs, pinned }) => ({ id, createdMs, lastSeenMs, pinned })))
  }

  async load (id: string): Promise<StoredSession | undefined> {
    return await this.later(() => {
      const text = this.sessions.get(id)
      return text === undefined ? undefined : JSON.parse(text) as StoredSession
    })
  }

  async save (change: SessionChange): Promise<number> {
    const serialised = JSON.parse(JSON.stringify(change)) as SessionChange
    return await this.later(() => {
      const text = this.sessions.get(serialised.meta.id)
      const stored = text === undefined ? undefined : JSON.parse(text) as StoredSession
      if ((stored?.version ?? 0) !== serialised.baseVersion) throw new StoreConflictError(serialised.meta.id)
      const rows = perLog(log => [...(stored?.rows[log] ?? []), ...serialised.rows[log].appended].filter(row => row.id >= serialised.rows[log].from))
      const next: StoredSession = { ...serialised.meta, version: serialised.baseVersion + 1, parts: { ...stored?.parts, ...serialised.parts }, rows }
      this.sessions.set(next.id, JSON.stringify(next))
      this.saves++
      return next.version
    })
  }

  async delete (id: string): Promise<boolean> {
    return await this.later(() => this.sessions.delete(id))
  }

  async expire (): Promise<string[]> {
    return []
  }

  async close (): Promise<void> {}
}

export interface Replica {
  fetch: (path: string, init?: RequestInit) => Promise<Response>
  services: CoreServices
  /** Stops its deliveries and streams, as the process going away would. */
  close: () => Promise<void>
}

interface Teardown { teardown: (fn: () => unknown) => void }

/** One replica: a core of its own over `store`, answering through the fetch transport. */
export function replica (store: WorldStore, overrides: Partial<Config> = {}, t?: Teardown): Replica {
  const services = loadCore(defaultConfig({ now: TEST_NOW, seed: 7, ...overrides }), CoreServices, { store })
  const handle = createFetchHandler(services, [...operationRoutes(services, OPERATION_HANDLERS), ...controlDefinitions(services, CONTROL_ROUTES)])
  const close = async (): Promise<void> => {
    await closeEventFeed(services)
    await services.sessions.webhooks.queue.close()
  }
  t?.teardown(close)
  return { fetch: async (path, init) => await handle(new Request(`http://localhost${path}`, init)), services, close }
}
