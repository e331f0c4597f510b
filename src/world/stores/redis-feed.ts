import type { Redis } from 'ioredis'
import { compiledCheck } from '../compiled-check.js'
import { FeedNotice, type StoreFeed } from './store.js'

const isFeedNotice = compiledCheck(FeedNotice)

/** How long a replica's mark on a watched session lasts unless renewed: a replica that dies stops costing the others publishes this long after. */
const WATCH_MS = 30_000

/** The key that says some replica's dashboard follows session `id` (the load script reads it). */
export function watchKey (prefix: string, id: string): string {
  return `${prefix}watch:${id}`
}

/**
 * The live feed across replicas on Redis pub/sub: a channel per session (`<prefix>feed:<id>`), a
 * notice as its JSON. Publishing goes on the store's own connection, fire and forget, and is
 * dropped while Redis is away (a feed is best effort; requests answer 503 meanwhile anyway).
 * Subscribing takes a connection of its own (Redis allows nothing else on a subscribed one), made
 * at the first watcher, one SUBSCRIBE per watched session however many watch it here; ioredis
 * subscribes again by itself after a reconnection.
 *
 * A session's notices are published only while some replica watches it: each watching replica
 * marks it in Redis once its SUBSCRIBE took (`watch:<id>`, renewed while it watches), and every load of the session tells
 * the loading replica whether it is marked (`isWatched`). Otherwise every request would publish
 * its journal entry and events, serialised, for a dashboard that is seldom open. A request served
 * by another replica within a load of the mark being made may go unshown, as the feed allows.
 */
export class RedisFeed implements StoreFeed {
  private subscriber: Redis | undefined
  private readonly listeners = new Map<string, Set<(notice: FeedNotice) => void>>()
  /** The sessions whose SUBSCRIBE took: only these are marked (and renewed), so no mark promises a listener that is not there. */
  private readonly subscribed = new Set<string>()
  private renewal: ReturnType<typeof setInterval> | undefined

  constructor (private readonly redis: Redis, private readonly prefix: string, private readonly replica: string, private readonly isWatched: (sessionId: string) => boolean) {}

  publish (notice: FeedNotice): void {
    if (this.redis.status !== 'ready' || !this.isWatched(notice.session)) return
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
      this.listen(sessionId)
      this.renewal ??= setInterval(() => { for (const id of this.subscribed) this.mark(id) }, WATCH_MS / 3)
      this.renewal.unref()
    }
    here.add(listener)
    return () => {
      if (here.delete(listener) && here.size === 0 && this.listeners.get(channel) === here) {
        this.listeners.delete(channel)
        this.subscribed.delete(sessionId)
        this.subscriber?.unsubscribe(channel).catch(() => {})
        this.unmark(sessionId)
        if (this.listeners.size === 0) this.stopRenewal()
      }
    }
  }

  close (): void {
    // Sent before the store's connection says goodbye: the other replicas stop publishing for these at their next load.
    for (const id of this.watchedHere()) this.unmark(id)
    this.stopRenewal()
    this.listeners.clear()
    this.subscribed.clear()
    this.subscriber?.disconnect()
    this.subscriber = undefined
  }

  private channel (sessionId: string): string {
    return `${this.prefix}feed:${sessionId}`
  }

  /**
   * SUBSCRIBEs the session's channel, then marks it: a mark seen before the SUBSCRIBE took would let
   * another replica publish into nothing. A SUBSCRIBE that fails (Redis away) is sent again when the
   * subscriber is ready, as long as someone here still watches.
   */
  private listen (sessionId: string): void {
    const channel = this.channel(sessionId)
    this.connection().subscribe(channel).then(() => {
      if (!this.listeners.has(channel)) return
      this.subscribed.add(sessionId)
      this.mark(sessionId)
    }, () => {})
  }

  /** The sessions watched in this process. */
  private watchedHere (): string[] {
    const channels = `${this.prefix}feed:`
    return [...this.listeners.keys()].map(channel => channel.slice(channels.length))
  }

  /** Best effort, like the feed: a mark that fails (Redis away) is made again at the next renewal. */
  private mark (sessionId: string): void {
    const key = watchKey(this.prefix, sessionId)
    this.redis.multi().hset(key, this.replica, '1').pexpire(key, WATCH_MS).exec().catch(() => {})
  }

  private unmark (sessionId: string): void {
    this.redis.hdel(watchKey(this.prefix, sessionId), this.replica).catch(() => {})
  }

  private stopRenewal (): void {
    clearInterval(this.renewal)
    this.renewal = undefined
  }

  private connection (): Redis {
    if (this.subscriber !== undefined) return this.subscriber
    // Its SUBSCRIBEs wait for the connection rather than fail: a watcher may come while Redis is away.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false })
    subscriber.on('error', () => {}) // the store's own connection reports outages, once each
    // ioredis subscribes again only to channels whose SUBSCRIBE it saw answered.
    subscriber.on('ready', () => { for (const id of this.watchedHere()) if (!this.subscribed.has(id)) this.listen(id) })
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
      if (!isFeedNotice(notice)) return
      for (const listener of listeners) listener(notice)
    })
    this.subscriber = subscriber
    return subscriber
  }
}
