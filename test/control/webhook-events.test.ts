import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { createMock } from '../../src/index.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

interface Listed { id: string; type: string; timestamp: string; data: Record<string, unknown>; previousAttributes?: Record<string, unknown>; originalType?: string; payload?: unknown }

const ACH = {
  amount: 12550, fromAccountId: 'acct_maya_checking', frequency: 'MONTHLY', startDate: '2026-12-15', numberOfOccurrences: 2,
  counterparty: { name: 'Landlord LLC', routingNumber: '021000021', accountNumber: '123456789', accountType: 'CHECKING' }
}

t.test('a lock makes card.locked: the card as the lock answered it, with what it was before; a repeated lock makes none', async t => {
  const { call } = await buildTestApp(t)
  const locked = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal(locked.status, 200)
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  const listed = await call('GET', '/__mock/webhooks/events')
  t.equal(listed.status, 200)
  t.match(listed.body, { session: 'default', capacity: 500, size: 1, recorded: 1 })
  const [event] = listed.body.data as Listed[]
  t.match(event, { id: /^evt_[A-Za-z0-9]{20}$/, type: 'card.locked', timestamp: '2026-11-23T15:00:00.000Z', previousAttributes: { status: 'ACTIVE', lockedAt: null } })
  t.same(event?.data, locked.body, 'data is the card byte for byte as the API answered it')
})

t.test('an update event\'s previousAttributes lists every field that changed, updatedAt included', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/__mock/clock/advance', { body: { by: 'PT1H' } })
  const state = await call('GET', '/__mock/state')
  const before = (state.body.debitCards as Array<{ id: string; updatedAt: string }>).find(card => card.id === 'card_maya_virtual')
  const locked = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.not(locked.body.updatedAt, before?.updatedAt, 'the lock moved updatedAt')
  await call('POST', '/__mock/clock/advance', { body: { by: 'PT1H' } })
  await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  const events = (await call('GET', '/__mock/webhooks/events?order=asc')).body.data as Listed[]
  const [lock, unlock] = events.filter(event => event.type === 'card.locked' || event.type === 'card.unlocked')
  t.same(lock?.previousAttributes, { status: 'ACTIVE', lockedAt: null, updatedAt: before?.updatedAt }, 'card.locked')
  t.same(unlock?.previousAttributes, { status: 'LOCKED', lockedAt: locked.body.lockedAt, updatedAt: locked.body.updatedAt }, 'card.unlocked')
})

t.test('every write makes its events, in the order they happened, with the API\'s masking', async t => {
  const { call } = await buildTestApp(t)
  await call('PUT', '/baas/customers', { token: TOKENS.maya, body: { email: 'maya@example.org', phone: '+14155550999', address: { line1: '1 Main St', city: 'Oakland', state: 'CA', postalCode: '94607', country: 'US' } } })
  await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'LOST' } })
  await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { token: TOKENS.maya })
  const sent = await call('POST', '/mfa/send-code', { token: TOKENS.maya, body: {} })
  const code = (await call('GET', '/__mock/outbox/latest-code')).body.code as string
  await call('POST', '/mfa/verify', { token: TOKENS.maya, body: { code } })
  const ach = await call('POST', '/baas/scheduled-transfers/ach', { token: TOKENS.maya, body: ACH })
  await call('POST', `/baas/scheduled-transfers/${ach.body.id as string}`, { token: TOKENS.maya, body: { amount: 13000 } })
  await call('POST', `/baas/scheduled-transfers/${ach.body.id as string}/cancel`, { token: TOKENS.maya })
  await call('PUT', `/baas/scheduled-transfers/${ach.body.id as string}/delete`, { token: TOKENS.maya })

  const events = (await call('GET', '/__mock/webhooks/events?order=asc')).body.data as Listed[]
  t.same(events.map(e => e.type), [
    'customer.updated', 'card.closed', 'card.created', 'statement.sent', 'phone_verification.code_sent', 'phone_verification.approved', 'customer.updated',
    'scheduled_transfer.created', 'scheduled_transfer.updated', 'scheduled_transfer.cancelled', 'scheduled_transfer.deleted'
  ])
  const byType = (type: string, n = 0): Listed => events.filter(e => e.type === type)[n] as Listed
  t.match(byType('customer.updated').previousAttributes, { email: 'maya.chen@example.com', phoneVerified: true })
  t.same(byType('customer.updated', 1).previousAttributes, { phoneVerified: false }, 'approval verifies the new phone on file')
  t.match(byType('card.closed'), { data: { id: 'card_maya_virtual', status: 'CLOSED', closedReason: 'LOST' }, previousAttributes: { status: 'ACTIVE', closedReason: null } })
  t.equal(byType('card.created').data.replacementFor, 'card_maya_virtual')
  t.same(byType('statement.sent').data, { statementId: 'stmt_maya_2026_10', status: 'QUEUED', sentTo: 'm***@example.org', requestedAt: '2026-11-23T15:00:00.000Z' }, 'masked as the API answers it')
  t.same(byType('phone_verification.code_sent').data, sent.body)
  t.same(byType('scheduled_transfer.created').data, ach.body, 'the transfer as created, without the full account number or internal fields')
  t.notMatch(JSON.stringify(events), /123456789|nextIndex/, 'no full account number, no internal field anywhere')
  t.same(byType('scheduled_transfer.updated').previousAttributes, { amount: 12550 })
  t.match(byType('scheduled_transfer.cancelled').previousAttributes, { status: 'ACTIVE' })
  t.match(byType('scheduled_transfer.deleted').data, { id: ach.body.id, status: 'CANCELLED' }, 'the transfer as it was last')
})

t.test('what the clock fires is recorded in date order, stamped when it fell due, and the advance names it alike', async t => {
  const { call } = await buildTestApp(t)
  const card = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: { shippingMethod: 'EXPRESS' } })
  const transfer = await call('POST', '/baas/scheduled-transfers/ach', { token: TOKENS.maya, body: ACH })
  const { body: advanced } = await call('POST', '/__mock/clock/advance', { body: { by: 'P2M' } })
  const all = (await call('GET', `/__mock/webhooks/events?order=asc&after=${await idOf(call, 'scheduled_transfer.created')}`)).body.data as Listed[]

  t.same(all.map(e => [e.type, e.timestamp]), advanced.fired.map((f: { kind: string; at: string }) => [f.kind, f.at]), 'one vocabulary: the advance lists the same events')
  t.same(all.map(e => e.timestamp), [...all.map(e => e.timestamp)].sort(), 'in mock-time order')
  const fired = all.filter(e => e.data.id === card.body.id || e.data.id === transfer.body.id)
  t.same(fired.map(e => e.type), [
    'card.shipped', 'card.delivered', 'card.activated',
    'scheduled_transfer.execution_succeeded', 'scheduled_transfer.execution_settled',
    'scheduled_transfer.execution_succeeded', 'scheduled_transfer.completed', 'scheduled_transfer.execution_settled'
  ], 'an ACH run is PENDING, then settles the next banking day')
  t.same(fired.map(e => e.timestamp).slice(0, 3), ['2026-11-24T00:00:00.000Z', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'], 'stamped at the instant each fell due, not at the advance')
  const [first, second] = fired.filter(e => e.type === 'scheduled_transfer.execution_succeeded')
  t.equal((first?.data.executions as unknown[]).length, 1, 'each run carries the transfer as it stood after that run')
  t.equal((second?.data.executions as unknown[]).length, 2)
  t.same(first?.previousAttributes, { nextRunDate: '2026-12-15', occurrencesCompleted: 0, updatedAt: '2026-11-23T15:00:00.000Z' })
  t.match(second?.data, { id: transfer.body.id, status: 'COMPLETED' })
})

t.test('the back office makes events too: simulations and the PIN page', async t => {
  const { call } = await buildTestApp(t)
  const card = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: {} })
  t.equal((await call('POST', `/__mock/simulations/cards/${card.body.id as string}/deliver`)).status, 200)
  const link = await call('POST', `/baas/debit-cards/${card.body.id as string}/set-pin-url`, { token: TOKENS.jordan })
  const token = new URL(link.body.url as string).pathname.split('/').pop() ?? ''
  t.equal((await call('POST', `/__mock/pin/${token}`, { body: { pin: '8024' } })).status, 200)
  const events = (await call('GET', '/__mock/webhooks/events?order=asc')).body.data as Listed[]
  t.same(events.map(e => e.type), ['card.created', 'card.shipped', 'card.delivered', 'card.activated', 'card.pin_set'])
  t.match(events.at(-1), { data: { id: card.body.id, pinStatus: 'SET' }, previousAttributes: { pinStatus: 'NOT_SET' } })
  t.match(events[3], { data: { status: 'ACTIVE' }, previousAttributes: { status: 'PENDING_ACTIVATION' } })
})

t.test('filters: type (as sent or the mock\'s own), after an id, limit and order; an id no longer held is 404', async t => {
  const { call } = await buildTestApp(t)
  for (let i = 0; i < 3; i++) {
    await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
    await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  }
  const all = (await call('GET', '/__mock/webhooks/events')).body.data as Listed[]
  t.same(all.map(e => e.type), ['card.unlocked', 'card.locked', 'card.unlocked', 'card.locked', 'card.unlocked', 'card.locked'], 'newest first')
  t.same((await call('GET', '/__mock/webhooks/events?type=card.locked&order=asc')).body.data.map((e: Listed) => e.id), all.filter(e => e.type === 'card.locked').map(e => e.id).reverse())
  const after = await call('GET', `/__mock/webhooks/events?after=${all[2]?.id ?? ''}&order=asc&limit=1`)
  t.same(after.body.data.map((e: Listed) => e.id), [all[1]?.id])
  const unknown = await call('GET', '/__mock/webhooks/events?after=evt_nothing')
  t.equal(unknown.status, 404)
  t.match(unknown.body, { code: 'event_not_found', errors: [{ pointer: '/after' }] })
  t.equal((await call('GET', '/__mock/webhooks/events?after=nope')).status, 400, 'not an event id at all')
  t.equal((await call('GET', '/__mock/webhooks/events?limit=0')).status, 400)
})

t.test('each session keeps its own events, at most --event-cap of them', async t => {
  const { call } = await buildTestApp(t, { eventCap: 2 })
  for (const id of ['card_maya_virtual', 'card_maya_physical']) {
    await call('POST', `/baas/debit-cards/${id}/lock`, { token: TOKENS.maya, session: 'a' })
    await call('PUT', `/baas/debit-cards/${id}/unlock`, { token: TOKENS.maya, session: 'a' })
  }
  const a = await call('GET', '/__mock/webhooks/events?order=asc', { session: 'a' })
  t.match(a.body, { capacity: 2, size: 2, recorded: 4 })
  t.same(a.body.data.map((e: Listed) => [e.type, e.data.id]), [['card.locked', 'card_maya_physical'], ['card.unlocked', 'card_maya_physical']], 'the oldest went first')
  t.same((await call('GET', '/__mock/webhooks/events', { session: 'b' })).body.data, [], 'session b saw nothing')
  await call('POST', '/__mock/reset', { session: 'a', body: {} })
  t.equal((await call('GET', '/__mock/webhooks/events', { session: 'a' })).body.size, 2, 'a reset keeps the events, as it keeps the journal')
})

t.test('a refused advance records nothing', async t => {
  const { call } = await buildTestApp(t)
  const refused = await call('POST', '/__mock/clock/advance', { body: { by: 'P11Y' } })
  t.equal(refused.status, 422)
  t.same((await call('GET', '/__mock/webhooks/events')).body.data, [])
})

t.test('through mock.fetch: the session handle lists the same events', async t => {
  const mock = await createMock({ seed: 7, now: '2026-11-23T15:00:00Z' })
  t.teardown(() => mock.close())
  const session = mock.session('handle')
  await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'handle' } })
  t.match(await session.webhooks.events(), [{ type: 'card.locked', data: { id: 'card_maya_virtual', status: 'LOCKED' } }])
  t.same(await session.webhooks.events({ type: 'card.unlocked' }), [])
  t.same(await mock.session().webhooks.events(), [], 'the default session made none')
})

t.test('fixtures rename, reshape (verbatim, templated) or silence events per type, per scenario', async t => {
  const dir = t.testdir()
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  writeFileSync(join(dir, 'events.yaml'), [
    'card.locked:',
    '  type: CARD_FROZEN',
    '  body:',
    '    event: CARD_FROZEN',
    '    card_id: "{{data.id}}"',
    '    was: "{{previousAttributes.status}}"',
    '    occurred_at: "{{timestamp}}"',
    '    last4: "{{data.last4}}"',
    'card.unlocked:',
    '  type: CARD_UNFROZEN',
    'phone_verification.code_sent:',
    '  silent: true'
  ].join('\n'))
  writeFileSync(join(dir, 'scenarios', 'new-customer', 'events.yaml'), 'card.locked:\n  silent: true\n')
  const { call } = await buildTestApp(t, { fixturesDir: dir })
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { token: TOKENS.maya })
  await call('POST', '/mfa/send-code', { token: TOKENS.maya, body: {} })
  const events = (await call('GET', '/__mock/webhooks/events?order=asc')).body.data as Listed[]
  t.same(events.map(e => e.type), ['CARD_FROZEN', 'CARD_UNFROZEN'], 'renamed, and the silenced one is not made at all')
  t.same(events[0]?.payload, { event: 'CARD_FROZEN', card_id: 'card_maya_virtual', was: 'ACTIVE', occurred_at: '2026-11-23T15:00:00.000Z', last4: '4242' },
    'the body as the fixture wrote it, values kept as text when quoted')
  t.match(events[0], { originalType: 'card.locked', data: { id: 'card_maya_virtual', status: 'LOCKED' } }, 'the event itself is still listed')
  t.equal(events[1]?.payload, undefined, 'a rename alone keeps the standard payload')
  t.equal((await call('GET', '/__mock/webhooks/events?type=card.unlocked')).body.data.length, 1, 'the mock\'s own type finds it too')

  await call('POST', '/__mock/reset', { session: 'nc', body: { scenario: 'new-customer' } })
  t.equal((await call('POST', '/baas/debit-cards/card_noa_virtual/lock', { token: 'tok_noa', session: 'nc' })).status, 200)
  t.equal((await call('PUT', '/baas/debit-cards/card_noa_virtual/unlock', { token: 'tok_noa', session: 'nc' })).status, 200)
  t.same((await call('GET', '/__mock/webhooks/events', { session: 'nc' })).body.data.map((e: Listed) => e.type), ['CARD_UNFROZEN'],
    'the scenario\'s own file silences card.locked there; the base file still renames the rest')
})

t.test('an events file naming an unknown type, or a silent event with a body, fails the fixture check with its pointer', async t => {
  const dir = t.testdir()
  cpSync(BUNDLED_FIXTURES, dir, { recursive: true })
  writeFileSync(join(dir, 'events.yaml'), 'card.lockd:\n  silent: true\n')
  t.match(await failure(createMock({ fixtures: dir })), { name: 'FixtureError', file: 'events.yaml', pointer: '/card.lockd', rule: /did you mean card\.locked/ })
  writeFileSync(join(dir, 'events.yaml'), 'card.locked:\n  silent: true\n  type: X\n')
  t.match(await failure(createMock({ fixtures: dir })), { name: 'FixtureError', pointer: '/card.locked/silent' })
  writeFileSync(join(dir, 'events.yaml'), 'card.locked:\n  body: "{{#if}}"\n')
  t.match(await failure(createMock({ fixtures: dir })), { name: 'FixtureError', pointer: '/card.locked/body', rule: /does not compile/ })
  writeFileSync(join(dir, 'events.yaml'), '- card.locked\n')
  t.match(await failure(createMock({ fixtures: dir })), { name: 'FixtureError', file: 'events.yaml', rule: /must map event types/ })
  writeFileSync(join(dir, 'events.yaml'), 'card.locked:\n  silent: true\n')
  writeFileSync(join(dir, 'events.json'), '{}')
  t.match(await failure(createMock({ fixtures: dir })), { name: 'FixtureError', file: 'events.json', rule: /duplicates events.yaml/ })
})

async function failure (promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}

async function idOf (call: Awaited<ReturnType<typeof buildTestApp>>['call'], type: string): Promise<string> {
  const events = (await call('GET', `/__mock/webhooks/events?type=${type}`)).body.data as Listed[]
  return events[0]?.id ?? ''
}
