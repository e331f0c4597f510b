import { Type, type Static, type TSchema } from 'typebox'
import { compiledCheck } from '../compiled-check.js'
import type { FaultRulesData } from '../faults.js'
import type { JournalMeta, StoredJournalRow } from '../journal.js'
import type { StoredEventRow } from '../event-log.js'
import type { OutboxSnapshot } from '../outbox.js'
import type { Session } from '../session.js'
import type { WebhooksSnapshot } from '../webhooks.js'
import type { WorldData } from '../world.js'
import type { RowLog, StoredRow, StoredSession } from './store.js'

/**
 * One named part of a session as a store keeps it: plain JSON made by `snapshot`, put back by
 * `restore` onto a session whose world is restored already. `revision`, when given, is cheap and
 * changes whenever the part does, so a save skips the part otherwise; without it the part is
 * snapshot and written with every save.
 */
export interface SessionPart {
  readonly name: string
  revision?: (session: Session) => unknown
  snapshot: (session: Session) => unknown
  /**
   * `stored` is the whole stored session, for a part with rows of its own (the journal). Answers
   * 'rewrite' when the data was in an older layout the store still holds (the session store then
   * saves the part again, in this one, with the next save).
   */
  restore: (session: Session, data: unknown, stored: StoredSession) => void | 'rewrite'
}

/** The part, its data checked against `schema` before it is put back (a store from another version must not half-restore). */
function checked<S extends TSchema> (
  name: string, schema: S, part: Omit<SessionPart, 'name' | 'restore'> & { restore: (session: Session, data: Static<S>, stored: StoredSession) => void | 'rewrite' }
): SessionPart {
  const valid = compiledCheck(schema)
  return {
    name,
    ...part,
    restore: (session, data, stored) => {
      if (!valid(data)) throw new TypeError(`its ${name} is not in the stored format`)
      return part.restore(session, data, stored)
    }
  }
}

/** A log's rows as stored, each checked by `valid` like a part (a store from another version must not half-restore). */
function checkedRows<T extends StoredRow> (log: RowLog, valid: (row: unknown) => row is T, rows: readonly StoredRow[]): readonly T[] {
  if (rows.every(valid)) return rows
  throw new TypeError(`its ${log} rows are not in the stored format`)
}

const Entries = Type.Array(Type.Tuple([Type.String(), Type.Object({})]))

/** The world's envelope: its entities are checked as objects, their fields are what this mock wrote. */
export const WorldDataSchema = Type.Unsafe<WorldData>(Type.Object({
  scenario: Type.String(),
  startedAt: Type.String(),
  defaultCustomerId: Type.String(),
  tokens: Type.Array(Type.Tuple([Type.String(), Type.String()])),
  clock: Type.Union([Type.Object({ frozenAtMs: Type.Number() }), Type.Object({ offsetMs: Type.Number() })]),
  ids: Type.Union([Type.Array(Type.Number()), Type.Null()]),
  state: Type.Object({
    customers: Entries,
    accounts: Entries,
    debitCards: Entries,
    statements: Entries,
    statementCycles: Entries,
    scheduledTransfers: Entries,
    phoneVerifications: Entries,
    phoneSendLog: Type.Array(Type.Tuple([Type.String(), Type.Array(Type.Number())])),
    pinLinks: Entries
  })
}))

const OutboxData = Type.Unsafe<OutboxSnapshot>(Type.Object({
  messages: Type.Array(Type.Object({ id: Type.String(), sentAt: Type.String() })),
  delivered: Type.Integer({ minimum: 0 })
}))
const FaultsData = Type.Unsafe<FaultRulesData>(Type.Object({
  rules: Type.Array(Type.Object({ id: Type.String() })),
  nextId: Type.Integer({ minimum: 1 }),
  random: Type.Union([Type.Array(Type.Number()), Type.Null()])
}))
const EventJson = Type.Object({
  id: Type.String(),
  type: Type.String(),
  originalType: Type.String(),
  timestamp: Type.String(),
  detail: Type.String(),
  canonical: Type.String(),
  reshaped: Type.Optional(Type.String()),
  templateError: Type.Optional(Type.String())
})
/** Every field restore() reads: a record missing one must fail here (503), not half-restore. */
const WebhooksFields = {
  endpoints: Type.Array(Type.Object({ id: Type.String(), url: Type.String(), secret: Type.String(), events: Type.Union([Type.Array(Type.String()), Type.Null()]) })),
  deliveries: Type.Array(Type.Object({
    id: Type.String(),
    eventId: Type.String(),
    endpointId: Type.String(),
    url: Type.String(),
    status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]),
    attempts: Type.Array(Type.Object({ at: Type.String(), durationMs: Type.Number() })),
    nextAttemptAt: Type.Union([Type.String(), Type.Null()]),
    payload: Type.Optional(Type.String()),
    seq: Type.Optional(Type.Integer({ minimum: 1 })),
    claim: Type.Optional(Type.Object({ by: Type.String(), until: Type.Number(), sending: Type.Boolean() }))
  })),
  droppedDeliveries: Type.Integer({ minimum: 0 })
}
const WebhooksData = Type.Unsafe<WebhooksSnapshot>(Type.Union([
  Type.Object({ version: Type.Literal(2), ...WebhooksFields }),
  // Written before events were rows (SQLite store format 1, Redis format 1): the events inside.
  Type.Object({ version: Type.Literal(1), events: Type.Array(EventJson), recorded: Type.Integer({ minimum: 0 }), ...WebhooksFields })
]))
const EventsMeta = Type.Object({ recorded: Type.Integer({ minimum: 0 }) })
const EventRow = Type.Unsafe<StoredEventRow>(Type.Object({ id: Type.Integer({ minimum: 1 }), event: EventJson }))
const JournalMetaData = Type.Unsafe<JournalMeta>(Type.Object({ nextId: Type.Integer({ minimum: 1 }), clearedBefore: Type.Integer({ minimum: 0 }) }))
/** A journal row's envelope; its fields are what this mock wrote. */
const JournalRow = Type.Unsafe<StoredJournalRow>(Type.Object({
  id: Type.Integer({ minimum: 1 }),
  timeMs: Type.Number(),
  method: Type.String(),
  url: Type.String(),
  status: Type.Integer(),
  headers: Type.Record(Type.String(), Type.String()),
  body: Type.Union([Type.String(), Type.Null()]),
  // Read by every journal answer (persona.customerId): one of another shape would fail there, on a request.
  // `via` any string: a newer replica's way of choosing a persona must not make the row unreadable to an older one.
  persona: Type.Optional(Type.Object({ customerId: Type.String(), via: Type.String() }))
}))
const isEventRow = compiledCheck(EventRow)
const isJournalRow = compiledCheck(JournalRow)

/** The world: entities, clock, ids, personas. Always stored; restored first, by the session store (it makes the World). */
export const WORLD_PART = 'world'

/**
 * The parts of a session beside its world, saved when changed and restored in this order. Each
 * per-session state adds one line here, `{ name, snapshot: s => s.x.snapshot(), restore: (s, json) => s.x.restore(json) }`,
 * and a store keeps it from then on; a session stored before a part existed keeps that part as a
 * new session has it. The journal's entries and the webhook events are rows of their own
 * (SESSION_ROW_LOGS); their parts hold the counters.
 */
export const SESSION_PARTS: readonly SessionPart[] = [
  checked('outbox', OutboxData, { revision: s => s.world.outbox.revision, snapshot: s => s.world.outbox.snapshot(), restore: (s, data) => s.world.outbox.restore(data) }),
  checked('faults', FaultsData, { revision: s => s.faults.revision, snapshot: s => s.faults.snapshot(), restore: (s, data) => s.faults.restore(data) }),
  checked('webhooks', WebhooksData, {
    revision: s => s.webhooks.revision,
    snapshot: s => s.webhooks.snapshot(),
    restore: (s, data) => {
      s.webhooks.restore(data)
      // Events inside (Redis format 1): saved again as the events part, its rows, and this part without them.
      return data.version === 1 ? 'rewrite' : undefined
    }
  }),
  // After the webhooks: restoring those puts back a format 1 store's events, which these then replace when the store has them as rows.
  checked('events', EventsMeta, {
    revision: s => s.webhooks.events.recorded,
    snapshot: s => ({ recorded: s.webhooks.events.recorded }),
    restore: (s, data, stored) => {
      const rows = checkedRows('events', isEventRow, stored.rows.events)
      s.webhooks.restoreEvents(data.recorded, rows, stored.rowsAfter?.events)
    }
  }),
  // Checked by the store itself (IdempotencySnapshot).
  { name: 'idempotency', revision: s => s.idempotency.revision, snapshot: s => s.idempotency.snapshot(), restore: (s, data) => s.idempotency.restore(data) },
  checked('journal', JournalMetaData, {
    revision: s => s.journal.revision,
    snapshot: s => s.journal.meta(),
    restore: (s, data, stored) => {
      const rows = checkedRows('journal', isJournalRow, stored.rows.journal)
      // A shared store may send only the rows after those this process holds (StoredSession.rowsAfter).
      if (stored.rowsAfter === undefined) s.journal.restore(data, rows)
      else s.journal.extend(data, rows, stored.rowsAfter.journal)
    }
  })
]

/**
 * A log whose entries a store keeps as rows (store.ts ROW_LOGS), each with the part above that
 * holds its counters: a save appends the rows recorded since the last one and trims those gone.
 */
export interface SessionRowLog {
  readonly log: RowLog
  /** The part holding its counters: a store without it (an older layout) is sent every row held. */
  readonly part: string
  /** The id of the last row recorded (0 before the first). */
  lastId: (session: Session) => number
  /** The id of the oldest row held: a store drops the rows before it (a cap, the shared budget, a clear). */
  firstId: (session: Session) => number
  /** The rows held after row `id`, oldest first. */
  rowsAfter: (session: Session, id: number) => StoredRow[]
}

export const SESSION_ROW_LOGS: Readonly<Record<RowLog, SessionRowLog>> = {
  journal: { log: 'journal', part: 'journal', lastId: s => s.journal.lastId, firstId: s => s.journal.firstId, rowsAfter: (s, id) => s.journal.rowsAfter(id) },
  events: { log: 'events', part: 'events', lastId: s => s.webhooks.events.recorded, firstId: s => s.webhooks.events.firstSeq, rowsAfter: (s, id) => s.webhooks.events.rowsAfter(id) }
}

/** Checks a stored world's envelope, so a store from another version fails at start, not on a request. */
export const isWorldData: (data: unknown) => data is WorldData = compiledCheck(WorldDataSchema)
