import type { DomainEvent, EventType } from '../domain/events.js'
import type { EventOverride, EventTemplateContext } from '../fixtures/events.js'
import type { SessionIdSource } from './ids.js'
import type { Accounted, JournalBudget } from './journal-budget.js'
import { Queue } from './queue.js'

/**
 * Set by the test suite (.taprc): every event is frozen, deep, as it is recorded. An event is
 * presented when first read, so a domain change that went on mutating an event's data would alter
 * what is listed and sent later; frozen, that change throws in the suite instead.
 */
const FREEZE_EVENT_DATA = typeof process !== 'undefined' && process.env.BAAS_MOCK_FREEZE_EVENTS === '1'

function deepFreeze (value: object): void {
  Object.freeze(value)
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null && !Object.isFrozen(inner)) deepFreeze(inner)
}

/** How events are made into what the API shows and what a partner sends. */
export interface EventPresentation {
  /** The event's resource as the API answers it (the same serializer, the same masking), JSON text. */
  data (event: DomainEvent): string
  /** What the scenario's fixtures make of events of this type; undefined: sent as the mock makes them. */
  override (scenario: string, type: EventType): EventOverride | undefined
  /** How the scenario's dialect shows events; undefined (the common case): as the mock makes them. */
  view? (scenario: string): EventView | undefined
}

/** A scenario's events as its dialect (src/dialect) shows them; `data` undefined where no shape applies (the API's own serializer then). */
export interface EventView {
  data (event: DomainEvent): string | undefined
  previousAttributes (event: DomainEvent): Record<string, unknown> | undefined
}

/** An event as `GET /__mock/webhooks/events` lists it. */
export interface WebhookEvent {
  id: string
  /** As sent: a fixture may rename it (then `originalType` is the mock's own). */
  type: string
  /** The session's mock clock when it happened. */
  timestamp: string
  data: unknown
  previousAttributes?: Record<string, unknown>
  detail: string
  originalType?: string
  /** The body sent, when a fixture reshaped it (parsed when it is JSON). */
  payload?: unknown
  /** Why a fixture's body template failed: nothing was sent. */
  templateError?: string
}

/** An event as stored: its texts, accounted against the shared budget. */
export interface StoredEventJson {
  id: string
  type: string
  originalType: EventType
  timestamp: string
  detail: string
  /** `{type, timestamp, data, previousAttributes?}` as the mock makes it. */
  canonical: string
  /** The body sent when a fixture reshaped it; otherwise the canonical text is sent. */
  reshaped?: string
  templateError?: string
}

/** An event as a store keeps it, a row of its own: `id` is its number in the session (StoredEvent.seq), so list cursors survive a restore. */
export interface StoredEventRow {
  id: number
  event: StoredEventJson
}

/** Accounting per event besides its texts (the object, its strings), as the journal does it. */
const PER_EVENT_BYTES = 256
/** What canonicalText adds around the type, the instant and the data, and before previousAttributes. */
const CANONICAL_FRAME_LENGTH = '{"type":"","timestamp":"","data":}'.length
const PREVIOUS_KEY_LENGTH = ',"previousAttributes":'.length

export class StoredEvent implements Accounted {
  held = true
  readonly bytes: number
  /** Its number in the session (1 for the first event recorded, dropped ones counted): its place in the list. */
  seq = 0
  readonly id: string
  readonly type: string
  private readonly originalType: string
  /** Its texts, or, until it is first read, the event as the domain made it. */
  private source: StoredEventJson | DomainEvent

  /**
   * Either an event as stored (restored, or reshaped by a fixture), or one presented when first
   * read: most events are never listed nor sent, and presenting every one at once (the API's
   * serializer, a string held until the cap drops it) was most of what a write cost beyond a read.
   * Its data is the domain's, never changed once emitted (see DomainEvent.data); its bytes are
   * then the JSON text's length estimated, so the budget holds the same either way. Its fields
   * are few on purpose: hundreds are held per session, and each object costs the collector.
   */
  constructor (readonly log: EventLog, from: StoredEventJson | { id: string; type: string; event: DomainEvent }) {
    this.id = from.id
    this.type = from.type
    if ('canonical' in from) {
      this.source = from
      this.originalType = from.originalType
      this.bytes = PER_EVENT_BYTES + from.canonical.length + (from.reshaped?.length ?? 0) + from.detail.length + from.id.length
    } else {
      const { event } = from
      this.source = event
      this.originalType = event.type
      const previous = event.previousAttributes === undefined ? 0 : PREVIOUS_KEY_LENGTH + jsonLengthEstimate(event.previousAttributes)
      this.bytes = PER_EVENT_BYTES + CANONICAL_FRAME_LENGTH + from.type.length + event.at.length + jsonLengthEstimate(event.data) + previous + event.detail.length + from.id.length
    }
  }

  /** The event's texts, presented now if they were not yet. */
  get json (): StoredEventJson {
    const source = this.source
    if ('canonical' in source) return source
    const presented: StoredEventJson = {
      id: this.id, type: this.type, originalType: source.type, timestamp: source.at, detail: source.detail,
      canonical: canonicalText(this.type, source, this.log.presentation.data(source))
    }
    this.source = presented
    return presented
  }

  /** The exact body a partner sends; undefined when a fixture's template failed (nothing is sent). */
  get payload (): string | undefined {
    const { templateError, reshaped, canonical } = this.json
    return templateError === undefined ? reshaped ?? canonical : undefined
  }

  matches (type: string): boolean {
    return this.type === type || this.originalType === type
  }

  evict (): void {
    this.log.evictOldest(this)
  }

  entry (): WebhookEvent {
    const { id, type, originalType, timestamp, detail, canonical, reshaped, templateError } = this.json
    const { data, previousAttributes } = JSON.parse(canonical) as { data: unknown; previousAttributes?: Record<string, unknown> }
    return {
      id, type, timestamp, data, ...(previousAttributes === undefined ? {} : { previousAttributes }), detail,
      ...(type === originalType ? {} : { originalType }),
      ...(reshaped === undefined ? {} : { payload: parsedOrText(reshaped) }),
      ...(templateError === undefined ? {} : { templateError })
    }
  }
}

/** `{type, timestamp, data, previousAttributes?}`: the body a partner is sent, unless a fixture reshapes it. */
function canonicalText (type: string, event: DomainEvent, data: string, previousAttributes = event.previousAttributes): string {
  const previous = previousAttributes === undefined ? '' : `,"previousAttributes":${JSON.stringify(previousAttributes)}`
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(event.at)},"data":${data}${previous}}`
}

/** About the length of `value` as JSON, without making the text: what an event not yet presented accounts for. */
export function jsonLengthEstimate (value: unknown): number {
  switch (typeof value) {
    case 'string': return value.length + 2
    case 'number': return 8
    case 'boolean': return 5
    case 'object': {
      if (value === null) return 4
      let length = 2
      if (Array.isArray(value)) {
        for (const item of value) length += jsonLengthEstimate(item) + 1
        return length
      }
      for (const key in value) length += key.length + 4 + jsonLengthEstimate((value as Record<string, unknown>)[key])
      return length
    }
    default: return 0
  }
}

function parsedOrText (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export interface EventQuery {
  /** The type as sent or the mock's own. */
  type?: string | undefined
  /** Only events recorded after the one with this id. */
  after?: string | undefined
  order?: 'asc' | 'desc' | undefined
}

/**
 * One session's events, bounded twice like the journal: at most `capacity`, and a byte budget
 * shared with every other session's log, the oldest going first.
 */
export class EventLog {
  private readonly events = new Queue<StoredEvent>()
  private recordedCount = 0

  /** `presentation`: how this session's events are made into what the API shows, when first read. */
  constructor (readonly capacity: number, private readonly budget: JournalBudget, private readonly ids: Pick<SessionIdSource, 'prefixedToken'>, readonly presentation: EventPresentation) {}

  /**
   * Makes the stored event of a domain event (one a fixture does not silence): its id drawn now,
   * so ids keep their order; presented when first read, unless a fixture reshapes it.
   */
  make (event: DomainEvent, override: EventOverride | undefined, session: string, scenario?: string): StoredEvent {
    if (FREEZE_EVENT_DATA) deepFreeze(event)
    const { presentation } = this
    const id = this.ids.prefixedToken('evt_', 20)
    const type = override?.type ?? event.type
    // A dialect's view is presented at once: the scenario in effect now is the one whose dialect shows it.
    const view = scenario === undefined ? undefined : presentation.view?.(scenario)
    if (override?.body === undefined && view === undefined) return new StoredEvent(this, { id, type, event })
    const data = view?.data(event) ?? presentation.data(event)
    const previous = view === undefined ? event.previousAttributes : view.previousAttributes(event)
    const json: StoredEventJson = { id, type, originalType: event.type, timestamp: event.at, detail: event.detail, canonical: canonicalText(type, event, data, previous) }
    if (override?.body === undefined) return new StoredEvent(this, json)
    // The template sees the event as the dialect shows it, when there is one.
    const context: EventTemplateContext = {
      id, type: event.type, timestamp: event.at, data: JSON.parse(data), previousAttributes: previous ?? null, session
    }
    try {
      json.reshaped = override.body(context)
    } catch (error) {
      json.templateError = `${override.file}: ${(error as Error).message}`
    }
    return new StoredEvent(this, json)
  }

  add (stored: StoredEvent): void {
    this.events.push(stored)
    stored.seq = ++this.recordedCount
    if (this.events.size > this.capacity) this.budget.release(this.events.shift() as StoredEvent)
    this.budget.admit(stored)
  }

  /** Counts events that were recorded but would be dropped at once (a batch larger than the log). */
  skip (count: number): void {
    this.recordedCount += count
  }

  /** Events recorded since the session began, those the caps dropped included. */
  get recorded (): number {
    return this.recordedCount
  }

  get size (): number {
    return this.events.size
  }

  find (id: string): StoredEvent | undefined {
    return this.events.toArray().find(e => e.id === id)
  }

  /**
   * Matching events, newest first unless `order: 'asc'` (so in the order of their `seq`), each made
   * into an entry only when read (a page reads a few); undefined when `after` names no event held.
   */
  select (q: EventQuery = {}): StoredEvent[] | undefined {
    let held = this.events.toArray()
    if (q.after !== undefined) {
      const index = held.findIndex(e => e.id === q.after)
      if (index === -1) return undefined
      held = held.slice(index + 1)
    }
    const type = q.type
    const kept = type === undefined ? held : held.filter(e => e.matches(type))
    if (q.order !== 'asc') kept.reverse()
    return kept
  }

  /** The shared budget takes out the oldest event of all, which is this log's oldest. */
  evictOldest (stored: StoredEvent): void {
    if (this.events.peek() === stored) this.events.shift()
    else this.events.keep(e => e !== stored)
  }

  /** Gives every event's bytes back (the session is gone). */
  clear (): void {
    for (const stored of this.events.toArray()) this.budget.release(stored)
    this.events.clear()
  }

  /** The last event held, if any. */
  get newest (): StoredEvent | undefined {
    return this.events.peekLast()
  }

  /** The number of the oldest event held (the next one's when none is): a store may drop the rows before it. */
  get firstSeq (): number {
    return this.events.peek()?.seq ?? this.recordedCount + 1
  }

  /** The events held recorded after number `seq`, as rows, oldest first. */
  rowsAfter (seq: number): StoredEventRow[] {
    // From the newest back: a save after a write finds its one or two new events without copying the log.
    let from = this.events.size
    while (from > 0 && (this.events.at(from - 1) as StoredEvent).seq > seq) from--
    const rows: StoredEventRow[] = []
    // The texts are never changed once made: shared, not copied.
    for (let i = from; i < this.events.size; i++) {
      const e = this.events.at(i) as StoredEvent
      rows.push({ id: e.seq, event: e.json })
    }
    return rows
  }

  /**
   * Puts back events a snapshot of the webhooks held inside it (store format 1), oldest first,
   * within the caps. The events held are the last ones recorded: numbered as they were, so cursors stay meaningful.
   */
  restoreInline (events: readonly StoredEventJson[], recorded: number): void {
    this.clear()
    this.recordedCount = Math.max(recorded, events.length) - events.length
    for (const json of events) this.add(new StoredEvent(this, { ...json }))
  }

  /** Puts back what a store kept: the rows, each with its number, within the caps; `recorded` counts the dropped ones too. */
  restore (recorded: number, rows: readonly StoredEventRow[]): void {
    this.clear()
    for (const row of rows.slice(-this.capacity)) this.push(row)
    this.recordedCount = Math.max(recorded, rows.at(-1)?.id ?? 0)
  }

  /**
   * Brings the log to what a store holds when the store sent only its rows after `keptThrough`, the
   * last event this log holds as saved: events after it (recorded here, never saved) go, the new
   * rows follow, within the caps.
   */
  extend (recorded: number, rows: readonly StoredEventRow[], keptThrough: number): void {
    for (const e of this.events.toArray()) if (e.seq > keptThrough) this.budget.release(e)
    this.events.keep(e => e.seq <= keptThrough)
    for (const row of rows) if (row.id > keptThrough) this.push(row)
    this.recordedCount = Math.max(recorded, this.newest?.seq ?? 0)
  }

  private push (row: StoredEventRow): void {
    const stored = new StoredEvent(this, { ...row.event })
    stored.seq = row.id
    this.events.push(stored)
    if (this.events.size > this.capacity) this.budget.release(this.events.shift() as StoredEvent)
    this.budget.admit(stored)
  }
}
