/**
 * The server's limits in one place, so the README can state them. A shared CI server or a
 * week-long demo meets slow, huge and endless clients: each is cut off with a problem+json answer
 * instead of tying up the process. The body limit is a setting (`--body-limit`, default 64 KiB).
 */
export const SERVER_LIMITS = {
  /** Request line plus headers, bytes (Node's default, set explicitly): more is 431 headers_too_large. */
  maxHeaderBytes: 16 * 1024,
  /**
   * Longest path parameter the router hands to a route (Fastify's default is 100). Longer than any
   * parameter schema allows (session ids and PIN-link tokens go to 128), so the schema answers an
   * over-long one with its pointer, and only absurd ones stop at the router (400 path_parameter_too_long).
   */
  maxParamLength: 1024,
  /** The headers must have arrived this long after the connection starts a request: else 408 (slow clients). */
  headersTimeoutMs: 15_000,
  /** The whole request, body included, must have arrived within this: else 408. */
  requestTimeoutMs: 30_000,
  /**
   * How often Node looks for requests past the two time-outs above. Node's default (30 s) let them
   * fire at up to 45 and 60 s; every second, they hold to within a second, for a scan of the open
   * connections per second.
   */
  connectionsCheckingIntervalMs: 1_000,
  /** A socket with no traffic at all for this long is closed. */
  connectionTimeoutMs: 60_000,
  /** An idle keep-alive connection stays open this long (above the usual 60 s of load balancers, so they close first). */
  keepAliveTimeoutMs: 72_000,
  /**
   * On SIGTERM or SIGINT, requests in flight get this long to finish; then their connections are
   * closed and the process exits 0, within the 10 s that Docker waits before killing it.
   */
  shutdownGraceMs: 5_000
} as const

export type ServerLimits = { readonly [K in keyof typeof SERVER_LIMITS]: number }

/** What events and webhooks may hold, besides the per-session settings (`--event-cap`). */
export const WEBHOOK_LIMITS = {
  /** Bytes the event logs of all sessions hold together, accounted as the journal's are: past it, the oldest events go, whatever their session. */
  eventsMaxBytes: 64 * 1024 * 1024,
  /** Webhook endpoints one session may have. */
  endpointsPerSession: 10,
  /** Deliveries one session lists, with their attempts; the oldest go first. */
  deliveriesPerSession: 500,
  /** Deliveries waiting for an attempt, all sessions together: past it, a session's new one is refused (FAILED, counted, logged). */
  maxPendingDeliveries: 5_000,
  /** Deliveries of one session waiting for an attempt, its share of the queue: past it, its new ones are refused. */
  maxPendingDeliveriesPerSession: 200,
  /** Delivery requests in flight at once: the sockets receivers that never answer can tie up. */
  maxDeliveriesInFlight: 16,
  /** Delivery requests of one session in flight at once, its share of the sockets (they go round-robin between sessions). */
  maxDeliveriesInFlightPerSession: 4
} as const

/** The longest wait one request may be given: fault rules, `Prefer: delay` and example delays together. */
export const MAX_DELAY_MS = 30_000
