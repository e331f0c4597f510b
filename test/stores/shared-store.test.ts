import t from 'tap'
import { replica as startReplica, SharedStore } from '../helpers/shared-store.js'
import type { WorldStore } from '../../src/world/stores/store.js'

function replica (store: WorldStore): (path: string, init?: RequestInit) => Promise<Response> {
  return startReplica(store).fetch
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
