import t from 'tap'
import { replica, SharedStore } from '../helpers/shared-store.js'
import type { StoredSession } from '../../src/world/stores/store.js'

// A journal row read back from a store is checked like the rest of a stored session, its persona
// too: one of another shape (written by hand, or by another program) is the store's failure, 503
// store_unavailable, not a 500 on every read of the journal, and the session is read again once mended.

const maya = { authorization: 'Bearer tok_maya' }

t.test('a stored journal row whose persona is not in the stored format: 503 store_unavailable until it is mended', async t => {
  const store = new SharedStore()
  const a = replica(store, {}, t)
  t.equal((await a.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: maya })).status, 200)
  // A shared store records a request's entry with the session's next turn.
  t.equal((await a.fetch('/baas/customers', { headers: maya })).status, 200)
  const good = store.sessions.get('default') as string
  const stored = JSON.parse(good) as StoredSession
  const row = stored.rows.journal.find(r => (r as { operationId?: string }).operationId === 'lockCard') as Record<string, unknown> | undefined
  t.same(row?.persona, { customerId: 'cus_maya', via: 'token' }, 'the row keeps its persona')

  let version = stored.version
  for (const persona of [null, 'cus_maya', { customerId: 7, via: 'token' }, { customerId: 'cus_maya', via: 7 }, { via: 'token' }]) {
    const tampered = JSON.parse(good) as StoredSession
    const bad = tampered.rows.journal.find(r => (r as { operationId?: string }).operationId === 'lockCard') as unknown as Record<string, unknown>
    bad.persona = persona
    tampered.version = ++version
    store.sessions.set('default', JSON.stringify(tampered))
    // A replica that has not held the session reads it whole.
    const b = replica(store, {}, t)
    const res = await b.fetch('/__mock/requests')
    t.equal(res.status, 503, `persona ${JSON.stringify(persona)}: the store's failure`)
    t.match(await res.json(), { code: 'store_unavailable' })
  }

  // A newer replica's way of choosing a persona (a rolling deploy): an older one still reads the row.
  const newer = JSON.parse(good) as StoredSession
  const newerRow = newer.rows.journal.find(r => (r as { operationId?: string }).operationId === 'lockCard') as unknown as Record<string, unknown>
  newerRow.persona = { customerId: 'cus_maya', via: 'header' }
  newer.version = ++version
  store.sessions.set('default', JSON.stringify(newer))
  const read = await replica(store, {}, t).fetch('/__mock/requests?order=asc')
  t.equal(read.status, 200, 'a persona chosen in a way this version does not know is read')
  t.same((await read.json() as { data: Array<{ operationId: string; persona?: unknown }> }).data.find(e => e.operationId === 'lockCard')?.persona, { customerId: 'cus_maya', via: 'header' })

  store.sessions.set('default', JSON.stringify({ ...stored, version: version + 1 }))
  const mended = await replica(store, {}, t).fetch('/__mock/requests?order=asc')
  t.equal(mended.status, 200, 'mended, it is read again')
  const journal = await mended.json() as { data: Array<{ operationId: string; persona?: unknown }> }
  t.same(journal.data.find(e => e.operationId === 'lockCard')?.persona, { customerId: 'cus_maya', via: 'token' })
})
