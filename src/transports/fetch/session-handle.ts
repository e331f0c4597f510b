import { SESSION_HEADER } from '../../core/session-id.js'
import type { WorldSnapshot } from '../../world/snapshot.js'
import type { AdvanceResult, ClockState, FaultRequest, FaultRule, JournalEntry, LatestCode, OutboxMessage, WebhookDelivery, WebhookEvent } from '../../control/types.js'

/** A problem answer of the control plane, thrown by a session handle. */
export class MockProblemError extends Error {
  constructor (readonly status: number, readonly problem: { code?: string; detail?: string; [key: string]: unknown }) {
    super(`${status} ${problem.code ?? ''}: ${problem.detail ?? ''}`)
    this.name = 'MockProblemError'
  }
}

/** A webhook endpoint as the control plane answers it. */
export interface WebhookEndpointAnswer { id: string; url: string; events: string[] | null; secret: string }

type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>
type Query = Record<string, string | number | undefined>
/** A page of a control-plane list: its items, and where the next page starts (absent on the last). */
export interface ListPage<T> {
  data: T[]
  nextCursor?: string
}

// Type aliases, not interfaces: they pass as a Query (an interface has no index signature).
type PageQuery = { limit?: number; cursor?: string; order?: 'asc' | 'desc' }
type EventsQuery = PageQuery & { type?: string; after?: string }
type DeliveriesQuery = PageQuery & { status?: string; endpoint?: string; event?: string }

/** What a list method answers: with `limit` or `cursor`, the one page asked for; without, every page's items. */
async function everyItem<Q extends Query, T> (page: (query: Q) => Promise<ListPage<T>>, query: Q): Promise<T[]> {
  if (query.limit !== undefined || query.cursor !== undefined) return (await page(query)).data
  const items: T[] = []
  let cursor: string | undefined
  do {
    const next = await page({ ...query, cursor })
    items.push(...next.data)
    cursor = next.nextCursor
  } while (cursor !== undefined)
  return items
}

/**
 * One session's world and control plane, each method the control-plane route of the same name
 * with the same answer: asynchronous, because a session may live in a remote store.
 */
export class SessionHandle {
  readonly id: string

  constructor (private readonly fetch: Fetch, id = 'default') {
    this.id = id
  }

  /** As GET /__mock/state. */
  state (): Promise<WorldSnapshot> {
    return this.call('GET', '/__mock/state')
  }

  /** As POST /__mock/reset; with a scenario, this session switches to it. */
  reset (options: { scenario?: string } = {}): Promise<{ session: string; scenario: string; now: string }> {
    return this.call('POST', '/__mock/reset', options)
  }

  readonly clock = {
    /** As GET /__mock/clock. */
    get: (): Promise<ClockState> => this.call('GET', '/__mock/clock'),
    /** As POST /__mock/clock/advance: `{ by: 'P1M' }` or `{ to: '2027-02-01T00:00:00Z' }`. */
    advance: (body: { by?: string; to?: string }): Promise<AdvanceResult> => this.call('POST', '/__mock/clock/advance', body)
  }

  readonly outbox = {
    /** As GET /__mock/outbox: one page of messages, newest first unless `order: 'asc'`. */
    list: (query: Query = {}): Promise<ListPage<OutboxMessage> & { session: string }> => this.call('GET', '/__mock/outbox', undefined, query),
    /** As GET /__mock/outbox/latest-code. */
    latestCode: (query: { phone?: string } = {}): Promise<LatestCode> =>
      this.call('GET', '/__mock/outbox/latest-code', undefined, query),
    /** As DELETE /__mock/outbox. */
    clear: (): Promise<void> => this.call('DELETE', '/__mock/outbox')
  }

  readonly journal = {
    /**
     * As GET /__mock/requests; the entries, newest first unless `order: 'asc'`: every matching one,
     * page after page, or with `limit` (or `cursor`) that one page.
     */
    list: (query: Query = {}): Promise<JournalEntry[]> => everyItem(this.journal.page, query),
    /** As GET /__mock/requests: one page, and the cursor of the next. */
    page: (query: Query = {}): Promise<ListPage<JournalEntry> & { session: string; capacity: number; size: number; recorded: number }> => this.call('GET', '/__mock/requests', undefined, query),
    /** As DELETE /__mock/requests. */
    clear: (): Promise<void> => this.call('DELETE', '/__mock/requests')
  }

  readonly faults = {
    /** As POST /__mock/faults; answers the rule. */
    add: (rule: FaultRequest): Promise<FaultRule> => this.call('POST', '/__mock/faults', rule),
    /** As GET /__mock/faults. */
    list: async (): Promise<FaultRule[]> => (await this.call<{ faults: FaultRule[] }>('GET', '/__mock/faults')).faults,
    /** As DELETE /__mock/faults. */
    clear: (): Promise<void> => this.call('DELETE', '/__mock/faults')
  }

  readonly webhooks = {
    /**
     * As GET /__mock/webhooks/events: the session's events, newest first unless `order: 'asc'`; `after` an event id, `type` one type.
     * Every matching one, page after page, or with `limit` (or `cursor`) that one page.
     */
    events: (query: EventsQuery = {}): Promise<WebhookEvent[]> => everyItem(this.webhooks.eventsPage, query),
    /** As GET /__mock/webhooks/events: one page, and the cursor of the next. */
    eventsPage: (query: EventsQuery = {}): Promise<ListPage<WebhookEvent> & { session: string; capacity: number; size: number; recorded: number }> =>
      this.call('GET', '/__mock/webhooks/events', undefined, query),
    endpoints: {
      /** As POST /__mock/webhooks/endpoints: answers the endpoint with its secret. */
      add: (endpoint: { url: string; events?: string[]; secret?: string }): Promise<WebhookEndpointAnswer> => this.call('POST', '/__mock/webhooks/endpoints', endpoint),
      /** As GET /__mock/webhooks/endpoints. */
      list: async (): Promise<WebhookEndpointAnswer[]> => (await this.call<{ endpoints: WebhookEndpointAnswer[] }>('GET', '/__mock/webhooks/endpoints')).endpoints,
      /** As DELETE /__mock/webhooks/endpoints/{id}. */
      remove: (id: string): Promise<void> => this.call('DELETE', `/__mock/webhooks/endpoints/${encodeURIComponent(id)}`)
    },
    /**
     * As GET /__mock/webhooks/deliveries: newest first unless `order: 'asc'`, with every attempt.
     * Every matching one, page after page, or with `limit` (or `cursor`) that one page.
     */
    deliveries: (query: DeliveriesQuery = {}): Promise<WebhookDelivery[]> => everyItem(this.webhooks.deliveriesPage, query),
    /** As GET /__mock/webhooks/deliveries: one page, and the cursor of the next. */
    deliveriesPage: (query: DeliveriesQuery = {}): Promise<ListPage<WebhookDelivery> & { session: string; retrySchedule: string; dropped: number }> =>
      this.call('GET', '/__mock/webhooks/deliveries', undefined, query),
    /** As POST /__mock/webhooks/deliveries/{id}/retry: one attempt now. */
    retry: (deliveryId: string): Promise<WebhookDelivery> => this.call('POST', `/__mock/webhooks/deliveries/${encodeURIComponent(deliveryId)}/retry`)
  }

  private async call<T> (method: string, path: string, body?: unknown, query: Query = {}): Promise<T> {
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value))
    const headers: Record<string, string> = { [SESSION_HEADER]: this.id }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await this.fetch(`${path}${search.size > 0 ? `?${search}` : ''}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await response.text()
    const parsed: unknown = text === '' ? undefined : JSON.parse(text)
    if (!response.ok) throw new MockProblemError(response.status, parsed as MockProblemError['problem'])
    return parsed as T
  }
}
