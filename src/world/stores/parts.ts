import { Type, type Static, type TSchema } from 'typebox'
import { Value } from 'typebox/value'
import type { FaultRulesData } from '../faults.js'
import type { JournalMeta } from '../journal.js'
import type { OutboxSnapshot } from '../outbox.js'
import type { Session } from '../session.js'
import type { WebhooksSnapshot } from '../webhooks.js'
import type { WorldData } from '../world.js'
import type { StoredSession } from './store.js'

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
  /** `stored` is the whole stored session, for a part with rows of its own (the journal). */
  restore: (session: Session, data: unknown, stored: StoredSession) => void
}

/** The part, its data checked against `schema` before it is put back (a store from another version must not half-restore). */
function checked<S extends TSchema> (
  name: string, schema: S, part: Omit<SessionPart, 'name' | 'restore'> & { restore: (session: Session, data: Static<S>, stored: StoredSession) => void }
): SessionPart {
  return {
    name,
    ...part,
    restore: (session, data, stored) => {
      if (!Value.Check(schema, data)) throw new TypeError(`its ${name} is not in the stored format`)
      part.restore(session, data, stored)
    }
  }
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
const WebhooksData = Type.Unsafe<WebhooksSnapshot>(Type.Object({
  version: Type.Literal(1),
  events: Type.Array(Type.Object({})),
  recorded: Type.Integer({ minimum: 0 }),
  endpoints: Type.Array(Type.Object({ id: Type.String(), url: Type.String(), secret: Type.String() })),
  deliveries: Type.Array(Type.Object({ id: Type.String(), status: Type.String() })),
  droppedDeliveries: Type.Integer({ minimum: 0 })
}))
const JournalMetaData = Type.Unsafe<JournalMeta>(Type.Object({ nextId: Type.Integer({ minimum: 1 }), clearedBefore: Type.Integer({ minimum: 0 }) }))

/** The world: entities, clock, ids, personas. Always stored; restored first, by the session store (it makes the World). */
export const WORLD_PART = 'world'

/**
 * The parts of a session beside its world, saved when changed and restored in this order. Each
 * per-session state adds one line here, `{ name, snapshot: s => s.x.snapshot(), restore: (s, json) => s.x.restore(json) }`,
 * and a store keeps it from then on; a session stored before a part existed keeps that part as a
 * new session has it. The journal's entries are rows of their own (SessionChange.journalAppended).
 */
export const SESSION_PARTS: readonly SessionPart[] = [
  checked('outbox', OutboxData, { revision: s => s.world.outbox.revision, snapshot: s => s.world.outbox.snapshot(), restore: (s, data) => s.world.outbox.restore(data) }),
  checked('faults', FaultsData, { revision: s => s.faults.revision, snapshot: s => s.faults.snapshot(), restore: (s, data) => s.faults.restore(data) }),
  checked('webhooks', WebhooksData, { revision: s => s.webhooks.revision, snapshot: s => s.webhooks.snapshot(), restore: (s, data) => s.webhooks.restore(data) }),
  // Checked by the store itself (IdempotencySnapshot).
  { name: 'idempotency', revision: s => s.idempotency.revision, snapshot: s => s.idempotency.snapshot(), restore: (s, data) => s.idempotency.restore(data) },
  checked('journal', JournalMetaData, { revision: s => s.journal.revision, snapshot: s => s.journal.meta(), restore: (s, data, stored) => {
    // A shared store may send only the rows after those this process holds (StoredSession.journalAfter).
    if (stored.journalAfter === undefined) s.journal.restore(data, stored.journal)
    else s.journal.extend(data, stored.journal, stored.journalAfter)
  } })
]

/** Checks a stored world's envelope, so a store from another version fails at start, not on a request. */
export function isWorldData (data: unknown): data is WorldData {
  return Value.Check(WorldDataSchema, data)
}
