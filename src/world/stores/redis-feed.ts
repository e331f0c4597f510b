import type { Redis } from 'ioredis'
import { Value } from 'typebox/value'
import { FeedNotice, type StoreFeed } from './store.js'

/**
 * The live feed across replicas on Redis pub/sub: a channel per session (`<prefix>feed:<id>`), a
 * notice as its JSON. Publishing goes on the store's own connection, fire and forget, and is
 * dropped while Redis is away (a feed is best effort; requests answer 503 meanwhile anyway).
 * Subscribing takes a connection of its own (Redis allows nothing else on a subscribed one), made
 * at the first watcher, one SUBSCRIBE per watched session however many watch it here; ioredis
 * subscribes again by itself after a reconnection.
 */
export class RedisFeed implements StoreFeed {
  private subscriber: Redis | undefined
  private readonly listeners = new Map<string, Set<(notice: FeedNotice) => void>>()

  constructor (private readonly redis: Redis, private readonly prefix: string) {}

  publish (notice: FeedNotice): void {
    if (this.redis.status !== 'ready') return
    try {
      this.redis.publish(this.channel(notice.session), JSON.stringify(notice)).catch(() => {})
    } catch {
      // A notice that cannot be sent is not shown elsewhere; the request it belongs to is answered all the same.
    }
  }

  subscribe (sessionId: string, listener: (notice: FeedNotice) => void): () => void {
    const channel = this.channel(sessionId)
    let here = this.listeners.get(channel)
    if (here === undefined) {
      here = new Set()
      this.listeners.set(channel, here)
      this.connection().subscribe(channel).catch(() => {})
    }
    here.add(listener)
    return () => {
      if (here.delete(listener) && here.size === 0 && this.listeners.get(channel) === here) {
        this.listeners.delete(channel)
        this.subscriber?.unsubscribe(channel).catch(() => {})
      }
    }
  }

  close (): void {
    this.listeners.clear()
    this.subscriber?.disconnect()
    this.subscriber = undefined
  }

  private channel (sessionId: string): string {
    return `${this.prefix}feed:${sessionId}`
  }

  private connection (): Redis {
    if (this.subscriber !== undefined) return this.subscriber
    // Its SUBSCRIBEs wait for the connection rather than fail: a watcher may come while Redis is away.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false })
    subscriber.on('error', () => {}) // the store's own connection reports outages, once each
    subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.listeners.get(channel)
      if (listeners === undefined) return
      let notice: unknown
      try {
        notice = JSON.parse(message)
      } catch {
        return
      }
      // Another version of the mock on the same Redis may send notices of another shape: those are not shown.
      if (!Value.Check(FeedNotice, notice)) return
      for (const listener of listeners) listener(notice)
    })
    this.subscriber = subscriber
    return subscriber
  }
}
