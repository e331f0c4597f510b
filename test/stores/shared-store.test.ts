import t from 'tap'
import { loadCore, OPERATION_HANDLERS } from '../../src/core/build.js'
import { CoreServices } from '../../src/core/services.js'
import { operationRoutes } from '../../src/core/route-definition.js'
import { controlDefinitions } from '../../src/control/route.js'
import { CONTROL_ROUTES } from '../../src/control/routes.js'
import { createFetchHandler } from '../../src/transports/fetch/handler.js'
import { defaultConfig } from '../../src/config/config.js'
import { StoreConflictError, type SessionChange, type SessionMeta, type StoredSession, type WorldStore } from '../../src/world/stores/store.js'
import { TEST_NOW } from '../helpers/app.js'

/**
 * The store boundary as a remote store (Redis, issue 20) meets it: every call answers on a later
 * turn, data crosses as JSON text, and two "replicas" (two cores in this process) share it. A
 * request may land on either; each must see what the other acknowledged.
 */
class SharedStore implements WorldStore {
  readonly kind = 'shared-test'
  readonly location = 'memory://shared'
  readonly persistent = true
  readonly shared = true
  readonly sessions = new Map<string, string>()
  saves = 0

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
      const journal = [...(stored?.journal ?? []), ...serialised.journalAppended].filter(row => row.id >= serialised.journalFrom)
      const next: StoredSession = { ...serialised.meta, version: serialised.baseVersion + 1, parts: { ...stored?.parts, ...serialised.parts }, journal }
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

function replica (store: WorldStore): (path: string, init?: RequestInit) => Promise<Response> {
  const services = loadCore(defaultConfig({ now: TEST_NOW, seed: 7 }), CoreServices, { store })
  const handle = createFetchHandler(services, [...operationRoutes(services, OPERATION_HANDLERS), ...controlDefinitions(services, CONTROL_ROUTES)])
  return async (path, init) => await handle(new Request(`http://localhost${path}`, init))
}

const maya = { authorization: 'Bearer tok_maya' }

t.test('two replicas on one shared, asynchronous store: a write through one is read through the other', async t => {
  const store = new SharedStore()
  const a = replica(store)
  const b = replica(store)
  t.equal((await a('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: maya })).status, 200)
  const card = await (await b('/__mock/state')).json() as { debitCards: Array<{ id: string; status: string }> }
  t.equal(card.debitCards.find(c => c.id === 'card_maya_virtual')?.status, 'LOCKED', 'B loaded what A saved')
  t.equal((await b('/baas/debit-cards/card_maya_virtual/unlock', { method: 'PUT', headers: maya })).status, 200)
  t.equal((await b('/__mock/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"by":"P1D"}' })).status, 200)
  const state = await (await a('/__mock/state')).json() as { now: string; debitCards: Array<{ id: string; status: string }> }
  t.equal(state.debitCards.find(c => c.id === 'card_maya_virtual')?.status, 'ACTIVE')
  t.equal(state.now, '2026-11-24T15:00:00.000Z', 'the clock B advanced')
  const journal = await (await a('/__mock/requests?order=asc')).json() as { data: Array<{ operationId: string }> }
  t.same(journal.data.map(r => r.operationId), ['lockCard', 'unlockCard'], 'both replicas\' journal entries, in order')
})

t.test('concurrent writes to one session through two replicas: none is lost (a conflict runs the request again)', async t => {
  const store = new SharedStore()
  const a = replica(store)
  const b = replica(store)
  const body = (amount: number) => JSON.stringify({ amount, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'ONCE', startDate: '2026-12-01' })
  const created = await Promise.all([1, 2, 3, 4, 5, 6].map(async n => {
    const res = await (n % 2 === 0 ? a : b)('/baas/scheduled-transfers/internal', { method: 'POST', headers: { ...maya, 'content-type': 'application/json' }, body: body(n) })
    return res.status
  }))
  t.same(created, [201, 201, 201, 201, 201, 201])
  const list = await (await a('/baas/scheduled-transfers?type=INTERNAL', { headers: maya })).json() as { data?: Array<{ amount: number }> } | Array<{ amount: number }>
  const amounts = (Array.isArray(list) ? list : list.data ?? []).map(x => x.amount).filter(x => x <= 6).sort()
  t.same(amounts, [1, 2, 3, 4, 5, 6], 'every acknowledged transfer is there, once')
})
