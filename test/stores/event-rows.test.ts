import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { openSqliteStore } from '../../src/world/stores/sqlite.js'
import { RecordingStore } from '../helpers/recording-store.js'
import { replica } from '../helpers/shared-store.js'

// Webhook events are rows of their own (store.ts ROW_LOGS): a write that records an event saves
// that event's row and the small events part, never the whole log inside the webhooks part.

const maya = { authorization: 'Bearer tok_maya' }

async function sqliteReplica (t: Test): Promise<{ store: RecordingStore; fetch: (path: string, init?: RequestInit) => Promise<Response> }> {
  const dir = mkdtempSync(join(tmpdir(), 'baas-event-rows-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { store: sqlite } = await openSqliteStore(dir)
  const store = new RecordingStore(sqlite)
  t.teardown(() => store.close())
  const { fetch } = replica(store, {}, t)
  return { store, fetch }
}

t.test('a write that records an event saves its row and the events part, not the webhooks part', async t => {
  const { store, fetch } = await sqliteReplica(t)
  t.equal((await fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: maya })).status, 200)
  const first = store.take()
  t.ok(first.some(change => 'webhooks' in change.parts), 'the session\'s first save writes every part')
  for (let i = 0; i < 4; i++) {
    const path = i % 2 === 0 ? 'unlock' : 'lock'
    t.equal((await fetch(`/baas/debit-cards/card_maya_virtual/${path}`, { method: i % 2 === 0 ? 'PUT' : 'POST', headers: maya })).status, 200)
  }
  await new Promise(resolve => setImmediate(resolve))
  const later = store.take()
  t.ok(later.length >= 4, `a save per write at least (${later.length})`)
  t.notOk(later.some(change => 'webhooks' in change.parts), 'no later save rewrites the webhooks part')
  t.same(later.flatMap(change => change.rows.events.appended.map(row => row.id)), [2, 3, 4, 5], 'each event saved once, as a row numbered in the session')
  t.same(later.filter(change => 'events' in change.parts).map(change => change.parts.events), [{ recorded: 2 }, { recorded: 3 }, { recorded: 4 }, { recorded: 5 }], 'with the count beside')
  const events = await (await fetch('/__mock/webhooks/events?order=asc')).json() as { data: Array<{ type: string }> }
  t.same(events.data.map(e => e.type), ['card.locked', 'card.unlocked', 'card.locked', 'card.unlocked', 'card.locked'])
})

t.test('an endpoint added is a change of the webhooks part: saved then', async t => {
  const { store, fetch } = await sqliteReplica(t)
  t.equal((await fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: maya })).status, 200)
  store.take()
  const added = await fetch('/__mock/webhooks/endpoints', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['statement.sent'] })
  })
  t.equal(added.status, 201)
  t.ok(store.take().some(change => 'webhooks' in change.parts), 'the endpoint is saved')
  t.equal((await fetch('/baas/debit-cards/card_maya_virtual/unlock', { method: 'PUT', headers: maya })).status, 200)
  t.notOk(store.take().some(change => 'webhooks' in change.parts), 'an event the endpoint does not want makes no delivery: the part stays')
})
