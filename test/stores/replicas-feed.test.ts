import t from 'tap'
import { replica, SharedStore } from '../helpers/shared-store.js'
import { watch } from '../helpers/feed-reader.js'

/**
 * The dashboard's live feed when replicas share the sessions (issue 20): a stream open on one
 * replica shows what the session's requests did on every replica, each once.
 */


const as = (token: string, session: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-mock-session': session })

t.test('a feed open on replica B shows the journal entry and the message of a request served by replica A', async t => {
  const store = new SharedStore()
  const a = replica(store, {}, t)
  const b = replica(store, {}, t)
  const feed = await watch(t, b, 'watched')
  const sent = await a.fetch('/mfa/send-code', { method: 'POST', headers: { ...as('tok_jordan', 'watched'), 'content-type': 'application/json' }, body: '{}' })
  t.equal(sent.status, 202)
  const entry = await feed.next('request', e => e.operationId === 'sendPhoneVerificationCode')
  const sms = await feed.next('outbox')
  const journal = await (await b.fetch('/__mock/requests?order=asc', { headers: { 'x-mock-session': 'watched' } })).json() as { data: unknown[] }
  t.same(journal.data, [entry.data], 'the entry as the journal lists it')
  const latest = await (await b.fetch('/__mock/outbox/latest-code', { headers: { 'x-mock-session': 'watched' } })).json() as { code: string }
  t.match(sms.data, { channel: 'sms', to: '+12125550187', data: { code: latest.code } })
})

t.test('the card A locked shows as its event; B\'s own requests show once; other sessions stay out', async t => {
  const store = new SharedStore()
  const a = replica(store, {}, t)
  const b = replica(store, {}, t)
  const feed = await watch(t, b, 'watched')
  t.equal((await a.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: as('tok_maya', 'elsewhere') })).status, 200)
  t.equal((await b.fetch('/baas/customers', { headers: as('tok_maya', 'watched') })).status, 200)
  await feed.next('request', e => e.operationId === 'getCustomer')
  t.equal((await a.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: as('tok_maya', 'watched') })).status, 200)
  const event = await feed.next('event')
  t.match(event.data, { type: 'card.locked', data: { id: 'card_maya_virtual', status: 'LOCKED' } })
  await feed.next('request', e => e.operationId === 'lockCard')
  // The feed is in order: B's own entry, had it come back from the store's feed, would have been before A's.
  t.same(feed.events.filter(e => e.event === 'request').map(e => e.data.operationId), ['getCustomer', 'lockCard'], 'each entry once; nothing from the other session')
  t.equal(feed.events.filter(e => e.event === 'event').length, 1)
})
