import type { MockProcess } from './processes.js'

/** One answer (or none: `status` 0 when the connection failed), to be sorted into outage windows at the end. */
export interface Answer { group: string; write: boolean; path: string; startMs: number; endMs: number; status: number }

/**
 * What one session was acknowledged, to be looked for at the end: every scheduled transfer created
 * (by id), every code sent (by number), and the card's status after the last card write, when no
 * write of the card failed without an answer after it (a connection cut mid-request may or may
 * not have applied it; a 4xx or a 503 changes nothing, as the mock promises).
 */
/**
 * `refusedCard`: states asked for after the last acknowledged one and answered 5xx. A command that
 * timed out or whose reply a closing connection cut may still have run: finding one of them is a
 * refused write applied (counted apart), not an acknowledged write lost.
 */
export interface SessionRecord { id: string; group: string; transfers: string[]; phones: string[]; card: string | undefined; cardUnknown: boolean; refusedCard: string[] }

/** A set of mocks that share their state (two replicas on one Redis) or one on its own; requests go round-robin. */
export class Group {
  private next = 0
  /** Taken out of the rotation, as a load balancer's health check takes a dead replica out. */
  readonly down = new Set<MockProcess>()
  constructor (readonly name: string, readonly members: MockProcess[]) {}

  pick (): MockProcess {
    const up = this.members.filter(m => !this.down.has(m))
    const chosen = up[this.next++ % up.length] ?? this.members[0]
    if (chosen === undefined) throw new Error(`group ${this.name} has no members`)
    return chosen
  }
}

const HEADERS = { authorization: 'Bearer tok_maya', 'content-type': 'application/json' }
/** Maya has scheduled transfers of her own, and a customer 50 at most: a session makes fewer, then the worker moves on. */
const ITERATIONS_PER_SESSION = 30
const CARD = 'card_maya_virtual'

export class Load {
  readonly answers: Answer[] = []
  readonly sessions: SessionRecord[] = []
  private stopped = false
  private readonly running: Array<Promise<void>> = []

  /** `workers` loops on `group`, each through sessions of its own, until stop(). */
  run (group: Group, workers: number): void {
    for (let i = 0; i < workers; i++) this.running.push(this.worker(group, i))
  }

  async stop (): Promise<void> {
    this.stopped = true
    await Promise.all(this.running)
  }

  private async call (group: Group, session: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
    const target = group.pick()
    const startMs = Date.now()
    let status: number
    let json: Record<string, unknown> | undefined
    try {
      const res = await fetch(`${target.url}${path}`, {
        method, headers: { ...HEADERS, 'x-mock-session': session }, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000)
      })
      status = res.status
      const text = await res.text()
      json = status < 300 && text !== '' ? JSON.parse(text) as Record<string, unknown> : undefined
    } catch {
      status = 0
    }
    this.answers.push({ group: group.name, write: method !== 'GET', path: path.replace(/\?.*/, ''), startMs, endMs: Date.now(), status })
    return { status, json }
  }

  private async worker (group: Group, index: number): Promise<void> {
    for (let generation = 0; !this.stopped; generation++) {
      const record: SessionRecord = { id: `${group.name}-w${index}-${generation}`, group: group.name, transfers: [], phones: [], card: undefined, cardUnknown: false, refusedCard: [] }
      this.sessions.push(record)
      for (let n = 0; n < ITERATIONS_PER_SESSION && !this.stopped; n++) await this.iteration(group, record, n)
    }
  }

  /** A demo's user: the customer, a card locked or unlocked, the transfers listed and one scheduled, a phone verified. */
  private async iteration (group: Group, record: SessionRecord, n: number): Promise<void> {
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> | undefined }> => await this.call(group, record.id, method, path, body)
    await call('GET', '/baas/customers')
    const lock = n % 2 === 0
    const card = await call(lock ? 'POST' : 'PUT', `/baas/debit-cards/${CARD}/${lock ? 'lock' : 'unlock'}`, {})
    if (card.status >= 200 && card.status < 300) {
      record.card = lock ? 'LOCKED' : 'ACTIVE'
      record.cardUnknown = false
      record.refusedCard = []
    } else if (card.status >= 500) {
      record.refusedCard.push(lock ? 'LOCKED' : 'ACTIVE')
    } else if (card.status === 0) {
      record.cardUnknown = true
    }
    await call('GET', '/baas/scheduled-transfers')
    const transfer = await call('POST', '/baas/scheduled-transfers/internal', { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100 + n, frequency: 'WEEKLY', startDate: '2099-01-01' })
    if (typeof transfer.json?.id === 'string') record.transfers.push(transfer.json.id)
    const phone = `+1415555${String(n).padStart(4, '0')}`
    const sent = await call('POST', '/mfa/send-code', { phone })
    if (sent.status >= 200 && sent.status < 300) record.phones.push(phone)
    const latest = await call('GET', `/__mock/outbox/latest-code?phone=${encodeURIComponent(phone)}`)
    if (typeof latest.json?.code === 'string') await call('POST', '/mfa/verify', { phone, code: latest.json.code })
  }
}

/** What the end of the run finds of what was acknowledged. */
export interface Found { found: number; lost: number; lostWhat: string[]; unknownCards: number; refusedApplied: string[] }

interface State { debitCards?: Array<{ id: string; status: string }>; scheduledTransfers?: Array<{ id: string }>; outbox?: Array<{ to: string }> }

/** Reads each session's state through `reader` and looks for every acknowledged write. */
export async function lookFor (sessions: SessionRecord[], reader: MockProcess): Promise<Found> {
  const result: Found = { found: 0, lost: 0, lostWhat: [], unknownCards: 0, refusedApplied: [] }
  const lost = (what: string): void => { result.lost++; result.lostWhat.push(what) }
  for (const session of sessions) {
    const res = await fetch(`${reader.url}/__mock/state`, { headers: { 'x-mock-session': session.id } })
    if (!res.ok) throw new Error(`reading session ${session.id} from ${reader.name}: ${res.status} ${await res.text()}`)
    const state = await res.json() as State
    const transfers = new Set((state.scheduledTransfers ?? []).map(t => t.id))
    for (const id of session.transfers) {
      if (transfers.has(id)) result.found++
      else lost(`${session.id}: transfer ${id}`)
    }
    const sentTo = new Set((state.outbox ?? []).map(m => m.to))
    for (const phone of session.phones) {
      if (sentTo.has(phone)) result.found++
      else lost(`${session.id}: code sent to ${phone}`)
    }
    if (session.card === undefined) continue
    if (session.cardUnknown) { result.unknownCards++; continue }
    const status = state.debitCards?.find(c => c.id === CARD)?.status
    if (status === session.card) result.found++
    // Only over the network: SQLite's refused write is rolled back in the process that refused it.
    else if (session.group === 'replicas' && status !== undefined && session.refusedCard.includes(status)) result.refusedApplied.push(`${session.id}: card ${session.card} acknowledged, then ${status} answered 5xx, found ${status}`)
    else lost(`${session.id}: card ${session.card}, found ${status}`)
  }
  return result
}
