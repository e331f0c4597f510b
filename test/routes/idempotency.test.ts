import type { AddressInfo } from 'node:net'
import t from 'tap'
import { IDEMPOTENCY_LIMITS } from '../../src/world/idempotency.js'
import { buildTestApp, TOKENS, type CallOptions, type TestApp } from '../helpers/app.js'
import { HeldSleep } from '../helpers/held-sleep.js'

const INTERNAL = '/baas/scheduled-transfers/internal'
const transfer = { amount: 5000, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'MONTHLY', startDate: '2027-01-15' }
const keyed = (key: string, options: CallOptions = {}): CallOptions => ({ token: TOKENS.maya, ...options, headers: { 'idempotency-key': key, ...options.headers } })

interface Transfer { id: string; amount: number }

async function transfersOf (call: TestApp['call'], session?: string, token: string = TOKENS.maya): Promise<Transfer[]> {
  return (await call('GET', '/baas/scheduled-transfers', { token, ...(session === undefined ? {} : { session }) })).body.data
}

async function journalOf (call: TestApp['call'], session?: string): Promise<Array<Record<string, unknown>>> {
  return (await call('GET', '/__mock/requests?order=asc', session === undefined ? {} : { session })).body.data
}

t.test('the same key and request: the stored answer again, byte for byte, marked replayed; nothing changes', async t => {
  const { call } = await buildTestApp(t)
  const before = await transfersOf(call)
  const first = await call('POST', INTERNAL, keyed('order-1', { body: transfer }))
  t.equal(first.status, 201)
  t.equal(first.headers['idempotent-replayed'], undefined, 'the first answer is not a replay')
  // The same body with its fields in another order is the same request.
  const reordered = Object.fromEntries(Object.entries(transfer).reverse())
  for (const body of [transfer, reordered]) {
    const again = await call('POST', INTERNAL, keyed('order-1', { body }))
    t.equal(again.status, 201)
    t.equal(again.headers['idempotent-replayed'], 'true')
    t.equal(again.headers['content-type'], first.headers['content-type'])
    t.equal(again.text, first.text, 'the same bytes')
  }
  const after = await transfersOf(call)
  t.equal(after.length, before.length + 1, 'one transfer, not three')
  t.equal(after.filter(x => x.id === first.body.id).length, 1)

  const journal = await journalOf(call)
  const writes = journal.filter(e => e.operationId === 'createInternalScheduledTransfer')
  t.same(writes.map(e => [e.status, e.source]), [[201, undefined], [201, 'replay'], [201, 'replay']], 'the journal records every request, the replays marked')
})

t.test('the same key with another body, path or operation is 422 idempotency_key_reused and changes nothing', async t => {
  const { call } = await buildTestApp(t)
  t.equal((await call('POST', INTERNAL, keyed('k', { body: transfer }))).status, 201)
  const before = await call('GET', '/__mock/state')
  const attempts: Array<[string, string, unknown]> = [
    ['POST', INTERNAL, { ...transfer, amount: 5001 }],
    ['POST', '/baas/debit-cards/card_maya_physical/lock', undefined],
    ['PUT', '/baas/debit-cards/card_maya_physical/unlock', undefined]
  ]
  for (const [method, path, body] of attempts) {
    const res = await call(method, path, keyed('k', body === undefined ? {} : { body }))
    t.equal(res.status, 422, `${method} ${path}`)
    t.match(res.body, { code: 'idempotency_key_reused', errors: [{ pointer: '/headers/idempotency-key' }] })
  }
  // The card's path parameter is part of the request: another card is another request.
  t.equal((await call('POST', '/baas/debit-cards/card_maya_physical/lock', keyed('card'))).status, 200)
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', keyed('card'))).body.code, 'idempotency_key_reused')
  const after = await call('GET', '/__mock/state')
  t.same(after.body.scheduledTransfers, before.body.scheduledTransfers, 'no transfer changed')
  t.equal(after.body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'the other card was not locked')
})

t.test('Idempotency-Key must be 1 to 255 printable ASCII characters: else 400 naming the header, and nothing happens', async t => {
  const { call } = await buildTestApp(t)
  const before = (await transfersOf(call)).length
  for (const key of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
    const res = await call('POST', INTERNAL, keyed(key, { body: transfer }))
    t.equal(res.status, 400, JSON.stringify(key))
    t.match(res.body, { code: 'invalid_idempotency_key', errors: [{ pointer: '/headers/idempotency-key' }] })
  }
  t.equal((await transfersOf(call)).length, before)
  t.equal((await call('POST', INTERNAL, keyed('~ !'.repeat(85), { body: transfer }))).status, 201, '255 printable characters, spaces included, are a key')
  t.equal((await call('GET', '/baas/customers', keyed(''))).status, 200, 'a read ignores the header')
})

t.test('a domain refusal is kept for replay; a 429, a fault and Prefer: code= are not, so a retry runs', async t => {
  const { call } = await buildTestApp(t)
  const same = { ...transfer, toAccountId: 'acct_maya_checking' }
  const refused = await call('POST', INTERNAL, keyed('same-account', { body: same }))
  t.equal(refused.body.code, 'same_account')
  const replayed = await call('POST', INTERNAL, keyed('same-account', { body: same }))
  t.equal(replayed.status, 422)
  t.equal(replayed.headers['idempotent-replayed'], 'true')
  t.equal(replayed.text, refused.text)

  // 429 resend_too_soon says when to retry: the retry, after it, runs.
  t.equal((await call('POST', '/mfa/send-code', { token: TOKENS.jordan })).status, 202)
  const tooSoon = await call('POST', '/mfa/send-code', keyed('resend', { token: TOKENS.jordan }))
  t.equal(tooSoon.status, 429)
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'PT31S' } })).status, 200)
  const resent = await call('POST', '/mfa/send-code', keyed('resend', { token: TOKENS.jordan }))
  t.equal(resent.status, 202)
  t.equal(resent.headers['idempotent-replayed'], undefined)

  t.equal((await call('POST', '/__mock/faults', { body: { operation: 'lockCard', status: 503, count: 1 } })).status, 201)
  const lock = '/baas/debit-cards/card_maya_virtual/lock'
  t.equal((await call('POST', lock, keyed('lock'))).status, 503, 'the fault answers')
  const forced = await call('POST', lock, keyed('lock', { headers: { prefer: 'code=500' } }))
  t.equal(forced.status, 500, 'Prefer: code= answers')
  const ran = await call('POST', lock, keyed('lock'))
  t.equal(ran.status, 200)
  t.equal(ran.headers['idempotent-replayed'], undefined, 'neither was kept: the retry ran')
  t.equal(ran.body.status, 'LOCKED')
  const again = await call('POST', lock, keyed('lock', { headers: { prefer: 'code=503' } }))
  t.equal(again.headers['idempotent-replayed'], 'true', 'once kept, a replay answers before fault rules and Prefer')
  t.equal(again.text, ran.text)
})

t.test('a duplicate while the first is in flight (Prefer: delay) is 409 idempotency_request_in_progress; after it, a replay', async t => {
  const clock = new HeldSleep()
  const { call } = await buildTestApp(t, {}, { sleep: clock.sleep })
  const before = (await transfersOf(call)).length
  const first = call('POST', INTERNAL, keyed('slow', { body: transfer, headers: { prefer: 'delay=5000' } }))
  await clock.begun(1)
  const duplicate = await call('POST', INTERNAL, keyed('slow', { body: transfer }))
  t.equal(duplicate.status, 409)
  t.match(duplicate.body, { code: 'idempotency_request_in_progress', errors: [{ pointer: '/headers/idempotency-key' }] })
  t.equal(duplicate.headers['retry-after'], '1')
  t.equal((await call('POST', INTERNAL, keyed('slow', { body: { ...transfer, amount: 1 } }))).body.code, 'idempotency_key_reused', 'another body is a reuse even in flight')
  clock.release()
  const done = await first
  t.equal(done.status, 201)
  t.equal(done.headers['preference-applied'], 'delay=5000')
  const replay = await call('POST', INTERNAL, keyed('slow', { body: transfer }))
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.equal(replay.headers['preference-applied'], undefined, 'what the first request preferred is not part of the answer')
  t.equal(replay.text, done.text)
  t.equal((await transfersOf(call)).length, before + 1)
})

t.test('kept 24 hours of the session clock: at 23 h a replay, at 25 h the request runs again', async t => {
  const { call } = await buildTestApp(t)
  const first = await call('POST', INTERNAL, keyed('daily', { body: transfer }))
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'PT23H' } })).status, 200)
  t.equal((await call('POST', INTERNAL, keyed('daily', { body: transfer }))).text, first.text)
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'PT2H' } })).status, 200)
  const later = await call('POST', INTERNAL, keyed('daily', { body: transfer }))
  t.equal(later.status, 201)
  t.equal(later.headers['idempotent-replayed'], undefined)
  t.not(later.body.id, first.body.id, 'a second transfer')
})

t.test('keys are per customer and per session, and a reset forgets them', async t => {
  const { call } = await buildTestApp(t)
  const maya = await call('PUT', '/baas/debit-cards/physical', keyed('card', { body: {} }))
  const jordan = await call('PUT', '/baas/debit-cards/physical', keyed('card', { token: TOKENS.jordan, body: {} }))
  t.equal(maya.status, 200, 'Maya has a physical card')
  t.equal(jordan.status, 201, 'Jordan\'s request with the same key is his own: he gets a new card')
  t.equal(jordan.headers['idempotent-replayed'], undefined)
  t.equal((await call('PUT', '/baas/debit-cards/physical', keyed('card', { token: TOKENS.jordan, body: {} }))).text, jordan.text)

  for (const session of ['a', 'b']) {
    const res = await call('POST', INTERNAL, keyed('shared', { body: transfer, session }))
    t.equal(res.headers['idempotent-replayed'], undefined, `session ${session} runs it`)
    t.equal((await transfersOf(call, session)).filter(x => x.amount === transfer.amount && x.id === res.body.id).length, 1)
  }

  t.equal((await call('POST', '/__mock/reset', { session: 'a' })).status, 200)
  const afterReset = await call('POST', INTERNAL, keyed('shared', { body: transfer, session: 'a' }))
  t.equal(afterReset.status, 201)
  t.equal(afterReset.headers['idempotent-replayed'], undefined, 'the reset world has no stored answers')
  t.equal((await call('POST', INTERNAL, keyed('shared', { body: transfer, session: 'b' }))).headers['idempotent-replayed'], 'true', 'the other session kept its own')
})

t.test(`at most ${IDEMPOTENCY_LIMITS.keys} answers per session: the oldest go first`, async t => {
  const { call } = await buildTestApp(t)
  const lock = (key: string): Promise<{ status: number; headers: Record<string, unknown> }> => call('POST', '/baas/debit-cards/card_maya_virtual/lock', keyed(key))
  let locked = 0
  for (let i = 0; i <= IDEMPOTENCY_LIMITS.keys; i++) if ((await lock(`k${i}`)).status === 200) locked++
  t.equal(locked, IDEMPOTENCY_LIMITS.keys + 1)
  t.equal((await lock(`k${IDEMPOTENCY_LIMITS.keys}`)).headers['idempotent-replayed'], 'true', 'the newest is kept')
  t.equal((await lock('k1')).headers['idempotent-replayed'], 'true', 'the second oldest too')
  t.equal((await lock('k0')).headers['idempotent-replayed'], undefined, 'the oldest went, so its retry ran')
})

t.test('over HTTP with keep-alive: the client gives up during a delay, retries with the key after the first finished, and gets its answer', async t => {
  const clock = new HeldSleep()
  const { app, call } = await buildTestApp(t, {}, { sleep: clock.sleep })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const session = 'timeout'
  const headers = { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': session, 'content-type': 'application/json', 'idempotency-key': 'retry-me' }
  const send = (extra: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> =>
    fetch(base + INTERNAL, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(transfer), ...(signal === undefined ? {} : { signal }) })
  const before = (await transfersOf(call, session)).length

  const gaveUp = new AbortController()
  const first = send({ prefer: 'delay=10000' }, gaveUp.signal)
  await clock.begun(1)
  gaveUp.abort() // the client's time-out
  await t.rejects(first, { name: 'AbortError' })
  const tooEarly = await send()
  t.equal(tooEarly.status, 409, 'a retry while the first is still being answered')
  t.equal((await tooEarly.json() as { code: string }).code, 'idempotency_request_in_progress')

  clock.release()
  // The first request ends a few turns of the event loop after its delay: its journal entry says when.
  const firstDone = (entries: Array<Record<string, unknown>>): boolean => entries.some(e => e.status === 201)
  for (let turns = 0; !firstDone(await journalOf(call, session)) && turns < 1000; turns++) await new Promise(setImmediate)
  const retry = await send()
  t.equal(retry.status, 201)
  t.equal(retry.headers.get('idempotent-replayed'), 'true')
  const created = await retry.json() as Transfer
  const transfers = await transfersOf(call, session)
  t.equal(transfers.length, before + 1, 'one transfer was made, by the request the client gave up on')
  t.ok(transfers.some(x => x.id === created.id), 'the replay names it')

  const journal = (await journalOf(call, session)).filter(e => e.operationId === 'createInternalScheduledTransfer')
  t.same(journal.map(e => [e.status, e.source]), [[409, undefined], [201, undefined], [201, 'replay']], 'the journal has the refused retry, the first request and the replay')
})

t.test('a request in flight across a reset acts on the rebuilt world, and its retry gets that answer', async t => {
  const clock = new HeldSleep()
  const { call } = await buildTestApp(t, {}, { sleep: clock.sleep })
  const first = call('POST', INTERNAL, keyed('across', { body: transfer, headers: { prefer: 'delay=1000' } }))
  await clock.begun(1)
  t.equal((await call('POST', '/__mock/reset')).status, 200)
  clock.release()
  const done = await first
  t.equal(done.status, 201)
  t.ok((await transfersOf(call)).some(x => x.id === done.body.id), 'the transfer is in the rebuilt world')
  const retry = await call('POST', INTERNAL, keyed('across', { body: transfer }))
  t.equal(retry.headers['idempotent-replayed'], 'true')
  t.equal(retry.text, done.text)
})

t.test('strict auth: without a persona there is no key scope, so the 401 is kept for nobody and the retry with a token runs', async t => {
  const { call } = await buildTestApp(t, { auth: 'strict' })
  const refused = await call('POST', INTERNAL, { headers: { 'idempotency-key': 'no-token' }, body: transfer })
  t.equal(refused.status, 401)
  t.equal(refused.body.code, 'unauthenticated')
  const ran = await call('POST', INTERNAL, keyed('no-token', { body: transfer }))
  t.equal(ran.status, 201)
  t.equal(ran.headers['idempotent-replayed'], undefined)
})
