import type { AddressInfo } from 'node:net'
import t from 'tap'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'
import { EventStreamClient } from './sse-client.js'

interface Teardown { teardown: (fn: () => unknown) => void }

/** A listening app (an event stream needs a real socket) and the contract-checked `call`. */
async function liveApp (t: Teardown, overrides: Parameters<typeof buildTestApp>[1] = {}): Promise<TestApp & { url: string }> {
  const test = await buildTestApp(t, overrides)
  await test.app.listen({ port: 0, host: '127.0.0.1' })
  return { ...test, url: `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}` }
}

async function watch (t: Teardown, url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const client = await EventStreamClient.open(url, headers)
  t.teardown(() => client.close())
  return client
}

t.test('a stream starts with hello: the session, its scenario and clock', async t => {
  const { url } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=hello-1`)
  t.equal(stream.status, 200)
  t.match(stream.response.headers['content-type'], /^text\/event-stream/)
  t.equal(stream.response.headers['cache-control'], 'no-store')
  const hello = await stream.next('hello')
  t.same(hello.data, { session: 'hello-1', scenario: 'default', now: TEST_NOW.toISOString(), frozen: true })
})

t.test('without ?session= the x-mock-session header, and then default, choose the session', async t => {
  const { url } = await liveApp(t)
  const byHeader = await watch(t, `${url}/__mock/events`, { 'x-mock-session': 'from-header' })
  t.equal((await byHeader.next('hello')).data.session, 'from-header')
  const plain = await watch(t, `${url}/__mock/events`)
  t.equal((await plain.next('hello')).data.session, 'default')
})

t.test('every API request of the watched session arrives as its journal entry; other sessions stay out', async t => {
  const { url, call } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=watched`)
  await stream.next('hello')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'elsewhere' })).status, 200)
  t.equal((await call('POST', '/baas/debit-cards/card_sam_locked/unlock', { token: TOKENS.sam, session: 'watched' })).status, 405, 'unlock is PUT: an unmatched request is journaled too')
  t.equal((await call('PUT', '/baas/debit-cards/card_sam_locked/unlock', { token: TOKENS.sam, session: 'watched' })).status, 200)
  const first = await stream.next('request')
  t.match(first.data, { method: 'POST', path: '/baas/debit-cards/card_sam_locked/unlock', status: 405, operationId: null })
  const second = await stream.next('request', e => e.id !== first.data.id)
  t.match(second.data, { method: 'PUT', status: 200, operationId: 'unlockCard', headers: { authorization: '[REDACTED]' } })
  const journal = await call('GET', '/__mock/requests?order=asc', { session: 'watched' })
  t.same([first.data, second.data], journal.body.data, 'the events are the journal entries')
  t.notOk(stream.events.some(e => e.event === 'request' && e.data.headers['x-mock-session'] === 'elsewhere'), 'nothing from another session')
})

t.test('each message sent arrives on the stream, the code as the outbox has it', async t => {
  const { url, call } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=codes`)
  await stream.next('hello')
  t.equal((await call('POST', '/mfa/send-code', { token: TOKENS.jordan, session: 'codes', body: {} })).status, 202)
  const sms = await stream.next('outbox')
  const latest = await call('GET', '/__mock/outbox/latest-code', { session: 'codes' })
  t.match(sms.data, { channel: 'sms', to: '+12125550187', kind: 'sendPhoneVerificationCode', data: { code: latest.body.code } })
  t.equal((await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { token: TOKENS.maya, session: 'codes' })).status, 202)
  t.match((await stream.next('outbox', m => m.channel === 'email')).data, { to: 'maya.chen@example.com', data: { statementId: 'stmt_maya_2026_10' } })
})

t.test('each event the watched world makes arrives on the stream, as the event log lists it', async t => {
  const { url, call } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=made`)
  await stream.next('hello')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'elsewhere' })).status, 200)
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'made' })).status, 200)
  const event = await stream.next('event')
  const [listed] = (await call('GET', '/__mock/webhooks/events', { session: 'made' })).body.data
  t.same(event.data, listed)
  t.match(event.data, { type: 'card.locked', data: { id: 'card_maya_virtual', status: 'LOCKED' } })
  t.equal(stream.events.filter(e => e.event === 'event').length, 1, 'nothing from another session')
})

t.test('a successful write to the session says change; reads and refused writes do not', async t => {
  const { url, call } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=changes`)
  await stream.next('hello')
  t.equal((await call('POST', '/__mock/clock/advance', { session: 'changes', body: { by: '-P1D' } })).status, 422)
  t.equal((await call('GET', '/__mock/state', { session: 'changes' })).status, 200)
  t.equal((await call('POST', '/__mock/clock/advance', { session: 'other', body: { by: 'P1D' } })).status, 200)
  t.equal((await call('POST', '/__mock/clock/advance', { session: 'changes', body: { by: 'PT2H' } })).status, 200)
  const change = await stream.next('change')
  t.same(change.data, { method: 'POST', path: '/__mock/clock/advance', status: 200, session: 'changes', scenario: 'default', now: '2026-11-23T17:00:00.000Z', frozen: true })
  t.equal(stream.events.filter(e => e.event === 'change').length, 1, 'only that write')
})

t.test('the stream follows a reset into the new world, and a dropped session into the next one', async t => {
  const { url, call } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=follow`)
  await stream.next('hello')

  t.equal((await call('POST', '/__mock/reset', { session: 'follow', body: { scenario: 'new-customer' } })).status, 200)
  t.match((await stream.next('change')).data, { path: '/__mock/reset', scenario: 'new-customer' })
  t.equal((await call('POST', '/mfa/send-code', { token: 'tok_noa', session: 'follow', body: {} })).status, 202)
  t.match((await stream.next('outbox')).data, { customerId: 'cus_noa' }, 'messages of the new world arrive')

  const seen = stream.events.length
  t.equal((await call('DELETE', '/__mock/sessions/follow')).status, 204)
  t.match((await stream.next('change', () => true, seen)).data, { path: '/__mock/sessions/follow', session: 'follow', scenario: 'default' }, 'a watched session starts anew at once')
  t.equal((await call('GET', '/baas/customers', { token: TOKENS.maya, session: 'follow' })).status, 200)
  t.match((await stream.next('request', () => true, seen)).data, { id: 1, operationId: 'getCustomer' }, 'the new journal is followed')
})

t.test('a client that hangs up leaves the server and its session working (the feed letting go is in feed.test.ts and feed-per-client.test.ts)', async t => {
  const { url, call } = await liveApp(t)
  const stream = await watch(t, `${url}/__mock/events?session=bye`)
  await stream.next('hello')
  stream.close()
  await stream.closed()
  t.equal((await call('POST', '/__mock/clock/advance', { session: 'bye', body: { by: 'PT1H' } })).status, 200, 'the session goes on without it')
})

t.test('closing the server ends open streams instead of waiting for them', async t => {
  const test = await buildTestApp(t)
  await test.app.listen({ port: 0, host: '127.0.0.1' })
  const port = (test.app.server.address() as AddressInfo).port
  const streams = await Promise.all(['a', 'b'].map(s => EventStreamClient.open(`http://127.0.0.1:${port}/__mock/events?session=${s}`)))
  await Promise.all(streams.map(s => s.next('hello')))
  await test.app.close()
  await Promise.all(streams.map(s => s.closed()))
  t.ok(streams.every(s => s.ended), 'both streams ended')
})

t.test('the admin token guards the stream: header, or ?token= for EventSource', async t => {
  const { url } = await liveApp(t, { adminToken: 'sesame' })
  const refused = await watch(t, `${url}/__mock/events?session=x`)
  t.equal(refused.status, 401)
  t.match(JSON.parse(await refused.text()), { code: 'admin_token_required' })
  const wrong = await watch(t, `${url}/__mock/events?token=nope`)
  t.equal(wrong.status, 401)
  const byQuery = await watch(t, `${url}/__mock/events?session=x&token=sesame`)
  t.equal(byQuery.status, 200)
  t.equal((await byQuery.next('hello')).data.session, 'x')
  const byHeader = await watch(t, `${url}/__mock/events`, { 'x-mock-admin-token': 'sesame' })
  t.equal((await byHeader.next('hello')).data.session, 'default')
})

t.test('a malformed session id is a 400 problem, from the query or the header', async t => {
  const { url } = await liveApp(t)
  const byQuery = await watch(t, `${url}/__mock/events?session=${encodeURIComponent('no spaces')}`)
  t.equal(byQuery.status, 400)
  t.match(byQuery.response.headers['content-type'], /^application\/problem\+json/)
  t.match(JSON.parse(await byQuery.text()), { errors: [{ pointer: '/session' }] })
  const unknown = await watch(t, `${url}/__mock/events?sessions=x`)
  t.equal(unknown.status, 400, 'unknown query fields are rejected')
  const byHeader = await watch(t, `${url}/__mock/events`, { 'x-mock-session': 'no/slash' })
  t.equal(byHeader.status, 400)
  t.match(JSON.parse(await byHeader.text()), { code: 'invalid_session_id' })
})

t.test('the stream is in the OpenAPI document, under the control plane', async t => {
  const { call } = await buildTestApp(t)
  const doc = (await call('GET', '/openapi.json')).body
  const op = doc.paths['/__mock/events'].get
  t.equal(op.operationId, 'mockEvents')
  t.same(op.tags, ['Mock control'])
  t.ok(op.responses['200'].content['text/event-stream'])
  t.notOk(doc.paths['/__mock/ui'], 'the page itself is not an API')
})
