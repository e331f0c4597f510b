import { Type } from 'typebox'
import { HttpProblem, problem } from '../core/problem.js'
import { sessionIdFrom } from '../core/session-id.js'
import type { FinishedRequest } from '../core/exchange.js'
import type { CoreServices } from '../core/services.js'
import { StrictObject } from '../core/schemas/common.js'
import type { Listeners } from '../world/listeners.js'
import type { Session, SessionStore } from '../world/sessions.js'
import type { World } from '../world/world.js'
import { CONTROL_TAGS, responses } from './schemas.js'
import { controlRoute, respondStream, type ControlRoute } from './route.js'
import { EventStream } from './event-stream.js'

export interface EventFeedOptions {
  /** Streams open at once; a demo has a few tabs, and more is a leak somewhere. */
  maxStreams: number
  /** Streams one client (one connecting address) may hold, so that no client takes them all. */
  maxStreamsPerClient: number
  /** Keep-alive comment interval: under the server's 60 s socket timeout and any proxy's. */
  heartbeatMs: number
  /** A client this far behind stopped reading: its stream is dropped (EventSource reconnects and re-reads). */
  maxBufferedBytes: number
}

export const EVENT_FEED_DEFAULTS: EventFeedOptions = { maxStreams: 64, maxStreamsPerClient: 8, heartbeatMs: 15_000, maxBufferedBytes: 1 << 20 }

/** Seconds a refused client is told to wait before it tries again. */
const RETRY_AFTER_SECONDS = 5

/** How long shutdown waits for streams to flush before cutting them. */
const CLOSE_GRACE_MS = 500

interface Watcher {
  readonly sessionId: string
  readonly client: string
  session: Session
  world: World
  readonly stream: EventStream
  unsubscribe: () => void
  /** Told through the store's feed (replicas), which follows the session whatever object holds it here. */
  fannedOut: boolean
}

/**
 * Server-Sent Events for one session at a time per stream: `hello` on connect, `request` for each
 * journal entry, `outbox` for each message sent, `change` after a successful write (API or control
 * plane) that may have changed the world, so a watcher re-reads `GET /__mock/state`. With a store
 * that fans out (replicas), the journal entries, messages, events and deliveries of every replica.
 */
export class EventFeed {
  private readonly watchers = new Set<Watcher>()
  /** Streams open per client address. */
  private readonly perClient = new Map<string, number>()
  private heartbeat: ReturnType<typeof setInterval> | undefined
  /** Stops listening to finished requests: while no stream is open we do not listen, so requests pay one check. */
  private stopListening = (): void => {}

  constructor (private readonly sessions: SessionStore, private readonly finished: Listeners<FinishedRequest>, private readonly options: EventFeedOptions = EVENT_FEED_DEFAULTS) {}

  get size (): number {
    return this.watchers.size
  }

  /**
   * A new stream for `client` (its address) watching `sessionId` (created if needed, as any
   * request would); starts with `hello`.
   */
  open (sessionId: string, client: string): EventStream {
    const held = this.perClient.get(client) ?? 0
    if (held >= this.options.maxStreamsPerClient) {
      throw new HttpProblem(problem(429, 'too_many_event_streams_from_client',
        `At most ${this.options.maxStreamsPerClient} event streams may be open from one address; close a dashboard tab.`), RETRY_AFTER_SECONDS)
    }
    if (this.watchers.size >= this.options.maxStreams) {
      throw new HttpProblem(problem(503, 'too_many_event_streams', `At most ${this.options.maxStreams} event streams may be open at once; close a dashboard tab.`), RETRY_AFTER_SECONDS)
    }
    const session = this.sessions.get(sessionId)
    const watcher: Watcher = { sessionId, client, session, world: session.world, stream: new EventStream(), unsubscribe: () => {}, fannedOut: false }
    this.bind(watcher)
    this.watchers.add(watcher)
    this.perClient.set(client, held + 1)
    if (this.watchers.size === 1) this.start()
    // Closed by us (end, destroy) or by the transport when the client goes away: either way, stop listening.
    watcher.stream.onClose(() => this.remove(watcher))
    this.write(watcher, 'retry: 2000\n\n')
    this.send(watcher, 'hello', this.summary(watcher))
    return watcher.stream
  }

  /** Ends every stream (server shutdown), cutting those that do not flush within a moment. */
  async closeAll (): Promise<void> {
    const streams = [...this.watchers].map(w => w.stream)
    for (const watcher of [...this.watchers]) this.remove(watcher)
    await Promise.all(streams.map(stream => new Promise<void>(resolve => {
      if (stream.destroyed) return resolve()
      const cut = setTimeout(() => stream.destroy(), CLOSE_GRACE_MS)
      stream.onClose(() => { clearTimeout(cut); resolve() })
      stream.end()
    })))
  }

  private start (): void {
    this.stopListening = this.finished.subscribe(done => this.requestDone(done))
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs)
    // A browser's timers are numbers, and keep nothing alive.
    if (typeof this.heartbeat === 'object') this.heartbeat.unref()
  }

  private remove (watcher: Watcher): void {
    if (!this.watchers.delete(watcher)) return
    const held = (this.perClient.get(watcher.client) ?? 1) - 1
    if (held > 0) this.perClient.set(watcher.client, held)
    else this.perClient.delete(watcher.client)
    watcher.unsubscribe()
    if (this.watchers.size > 0) return
    this.stopListening()
    clearInterval(this.heartbeat)
    this.heartbeat = undefined
  }

  private bind (watcher: Watcher): void {
    if (watcher.fannedOut) return
    const fanned = this.sessions.watch(watcher.sessionId, notice => this.send(watcher, notice.kind, notice.value))
    if (fanned !== undefined) {
      watcher.fannedOut = true
      watcher.unsubscribe = fanned
      return
    }
    watcher.unsubscribe()
    const offJournal = watcher.session.journal.subscribe(entry => this.send(watcher, 'request', entry))
    const offOutbox = watcher.world.outbox.subscribe(message => this.send(watcher, 'outbox', message))
    const offWebhooks = watcher.session.webhooks.subscribe(notice => this.send(watcher, notice.kind, notice.value))
    watcher.unsubscribe = () => { offJournal(); offOutbox(); offWebhooks() }
  }

  /**
   * Follows the watched session when it was reset (a new world and outbox), or dropped and so
   * created anew (a new journal too). Watching keeps a session alive, as a polling tab would.
   */
  private follow (watcher: Watcher): boolean {
    const session = this.sessions.get(watcher.sessionId)
    if (session === watcher.session && session.world === watcher.world) return false
    watcher.session = session
    watcher.world = session.world
    this.bind(watcher)
    return true
  }

  private requestDone ({ method, path, status, writes, session }: FinishedRequest): void {
    if (!writes || status >= 400) return
    for (const watcher of this.watchers) {
      // Another app in the same process has other sessions: only ours, by identity, count.
      if (this.follow(watcher) || watcher.session === session) {
        this.send(watcher, 'change', { method, path, status, ...this.summary(watcher) })
      }
    }
  }

  private beat (): void {
    for (const watcher of this.watchers) {
      if (this.follow(watcher)) this.send(watcher, 'change', { method: null, path: null, status: null, ...this.summary(watcher) })
      this.write(watcher, ': keep-alive\n\n')
    }
  }

  private summary (watcher: Watcher): Record<string, unknown> {
    const { world } = watcher
    return { session: watcher.sessionId, scenario: world.scenario, now: world.clock.now().toISOString(), frozen: world.clock.frozen }
  }

  private send (watcher: Watcher, event: string, data: unknown): void {
    this.write(watcher, `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  private write (watcher: Watcher, text: string): void {
    const { stream } = watcher
    if (stream.destroyed || stream.writableEnded) return
    if (stream.writableLength > this.options.maxBufferedBytes) {
      stream.destroy()
      return
    }
    stream.write(text)
  }
}

const EventsQuery = StrictObject({
  session: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$', description: 'The session to watch (EventSource cannot send x-mock-session); default: the x-mock-session header, else default' }))
})

/** One feed per mock (per services), made on first use; the transports close it when they stop. */
const feeds = new WeakMap<CoreServices, EventFeed>()

export function eventFeedOf (services: CoreServices): EventFeed {
  let feed = feeds.get(services)
  if (feed === undefined) {
    feed = new EventFeed(services.sessions, services.finishedRequests)
    feeds.set(services, feed)
  }
  return feed
}

/** Ends the mock's open streams, if it has a feed at all. */
export async function closeEventFeed (services: CoreServices): Promise<void> {
  await feeds.get(services)?.closeAll()
}

/** `GET /__mock/events`: the dashboard's live feed, usable with any EventSource, `curl -N` or a streamed `mock.fetch` body. */
export const eventRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/events',
    schema: {
      operationId: 'mockEvents',
      tags: CONTROL_TAGS,
      summary: 'Live feed of a session (Server-Sent Events)',
      description: 'Events: `hello` {session, scenario, now, frozen} on connect; `request` (a journal entry, as in GET /__mock/requests) for each API request; ' +
        '`outbox` (a message, as in GET /__mock/outbox) for each e-mail or SMS sent; `event` (as in GET /__mock/webhooks/events) for each event the world made; `delivery` (as in GET /__mock/webhooks/deliveries) when a webhook delivery is made, attempted or settled; `change` {method, path, status, session, scenario, now, frozen} after a successful write ' +
        '(API or control plane) to the session, or when it was dropped and started anew: re-read GET /__mock/state. A comment every 15 s keeps the connection open. ' +
        'Browsers pass the session and the admin token in the query: `new EventSource("/__mock/events?session=demo&token=...")`. An open stream keeps its session alive. ' +
        `At most ${EVENT_FEED_DEFAULTS.maxStreams} streams at once (503), ${EVENT_FEED_DEFAULTS.maxStreamsPerClient} from one address (429).`,
      querystring: EventsQuery,
      response: {
        ...responses({ 200: { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } } }),
        429: { ...Type.Ref('Problem'), description: 'Too many streams open from this address (too_many_event_streams_from_client); see Retry-After' },
        503: { ...Type.Ref('Problem'), description: 'Too many streams open at once (too_many_event_streams); see Retry-After' }
      }
    },
    handle: ({ services, request, query }) => {
      // The connecting address, not one a header names: X-Forwarded-For is the client's to write, and would let it dodge the bound.
      const stream = eventFeedOf(services).open(query.session ?? sessionIdFrom(request.headers), request.clientAddress ?? 'unknown')
      return respondStream(200, stream.readable, 'text/event-stream; charset=utf-8', {
        'cache-control': 'no-store',
        'x-accel-buffering': 'no' // nginx and friends: do not buffer the stream
      })
    }
  })
]
