import t from 'tap'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

interface Card { id: string; status: string; form: string; closedReason?: string; shipment?: { status: string } }

t.test('GET /__mock/scenarios lists the bundled scenarios with personas and response examples', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/__mock/scenarios')
  t.equal(res.status, 200)
  t.equal(res.body.active, 'default')
  const names = res.body.scenarios.map((s: { name: string }) => s.name)
  t.ok(names.includes('default') && names.includes('new-customer') && names.includes('every-card-state'), names.join(', '))
  const base = res.body.scenarios.find((s: { name: string }) => s.name === 'default')
  t.equal(base.active, true)
  t.match(base.personas.find((p: { customerId: string }) => p.customerId === 'cus_maya'), { name: 'Maya Chen', tokens: ['tok_maya'], default: true, persona: 'typical' })
  t.same(base.responseExamples.getCustomer, ['minimal'])
  t.same(base.responseExamples.lockCard, ['processor-timeout'])
  const fresh = res.body.scenarios.find((s: { name: string }) => s.name === 'new-customer')
  t.equal(fresh.active, false)
  t.match(fresh.counts, { customers: 1, accounts: 1, debitCards: 1, statements: 0 })
})

t.test('new-customer: one brand-new customer, a virtual card only, phone not verified', async t => {
  const { call } = await buildTestApp(t, { scenario: 'new-customer' })
  const customer = await call('GET', '/baas/customers')
  t.match(customer.body, { id: 'cus_noa', phoneVerified: false, status: 'ACTIVE', createdAt: '2026-11-23T14:50:00.000Z' })
  const state = await call('GET', '/__mock/state')
  t.equal(state.body.customers.length, 1)
  t.same(state.body.debitCards.map((c: Card) => [c.form, c.status]), [['VIRTUAL', 'ACTIVE']])
  t.same(state.body.statements, [])
  const physical = await call('PUT', '/baas/debit-cards/physical', { body: {} })
  t.equal(physical.status, 201, 'the new customer can order a first physical card')
  t.equal(physical.body.status, 'PENDING_ACTIVATION')
})

t.test('every-card-state: a card in each state and each shipment stage', async t => {
  const { call } = await buildTestApp(t, { scenario: 'every-card-state' })
  const cards = (await call('GET', '/__mock/state')).body.debitCards as Card[]
  t.same(new Set(cards.map(c => c.status)), new Set(['PENDING_ACTIVATION', 'ACTIVE', 'LOCKED', 'CLOSED']))
  t.same(new Set(cards.filter(c => c.closedReason !== undefined).map(c => c.closedReason)), new Set(['LOST', 'STOLEN', 'REPLACED', 'CUSTOMER_REQUEST']))
  t.same(new Set(cards.filter(c => c.shipment !== undefined).map(c => c.shipment?.status)), new Set(['ORDERED', 'SHIPPED', 'DELIVERED', 'RETURNED']))
  t.equal(new Set(cards.map(c => (c as unknown as { customerId: string }).customerId)).size, 1, 'one customer holds them all')
})

t.test('POST /__mock/reset rebuilds the caller\'s session only, from its scenario or another', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'a' })
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'b' })
  await call('POST', '/__mock/faults', { session: 'a', body: { status: 500 } })

  const reset = await call('POST', '/__mock/reset', { session: 'a', body: { scenario: 'new-customer' } })
  t.equal(reset.status, 200)
  t.same(reset.body, { session: 'a', scenario: 'new-customer', now: '2026-11-23T15:00:00.000Z' })
  t.equal((await call('GET', '/baas/customers', { session: 'a' })).body.id, 'cus_noa', 'faults went with the reset')
  t.equal((await call('GET', '/__mock/faults', { session: 'a' })).body.faults.length, 0)
  t.equal((await call('GET', '/baas/customers', { session: 'b' })).body.id, 'cus_maya', 'session b keeps its world')
  t.equal((await call('GET', '/baas/customers', { session: 'c' })).body.id, 'cus_maya', 'new sessions still start from the active scenario')
  const journal = await call('GET', '/__mock/requests', { session: 'a' })
  t.equal(journal.body.data.length, 2, 'the journal survives a reset')

  await call('PUT', '/baas/customers', { session: 'a', body: { email: 'noa@new.example', phone: '+16175550142', address: { line1: '1 A St', city: 'Boston', state: 'MA', postalCode: '02110', country: 'US' } } })
  const again = await call('POST', '/__mock/reset', { session: 'a' })
  t.equal(again.body.scenario, 'new-customer', 'a bare reset keeps the session\'s scenario')
  t.equal((await call('GET', '/baas/customers', { session: 'a' })).body.email, 'noa.patel@example.com')

  const back = await call('POST', '/__mock/reset', { session: 'b', body: {} })
  t.equal(back.body.scenario, 'default')
  const card = (await call('GET', '/__mock/state', { session: 'b' })).body.debitCards.find((c: Card) => c.id === 'card_maya_virtual')
  t.equal(card.status, 'ACTIVE')
})

t.test('resetting to an unknown scenario is 404 and changes nothing', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  const res = await call('POST', '/__mock/reset', { body: { scenario: 'nope' } })
  t.equal(res.status, 404)
  t.equal(res.body.code, 'scenario_not_found')
  const bad = await call('POST', '/__mock/reset', { body: { scenario: 'Bad Name' } })
  t.equal(bad.status, 400)
  const extra = await call('POST', '/__mock/reset', { body: { scenario: 'default', wipe: true } })
  t.equal(extra.status, 400)
  const card = (await call('GET', '/__mock/state')).body.debitCards.find((c: Card) => c.id === 'card_maya_virtual')
  t.equal(card.status, 'LOCKED', 'state untouched')
})

t.test('the bundled scenarios pass the fixture checks', async t => {
  const scenarios = loadScenarios(BUNDLED_FIXTURES)
  for (const name of ['new-customer', 'every-card-state']) t.ok(scenarios.get(name)?.description, `${name} has a description`)
})
