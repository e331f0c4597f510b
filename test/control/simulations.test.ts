import t from 'tap'
import { buildTestApp, TOKENS } from '../helpers/app.js'

interface Execution { scheduledDate: string; executionDate: string; status: string; failureReason?: string }

t.test('cards: ship, deliver (which activates) and activate, on any customer\'s card', async t => {
  const { call } = await buildTestApp(t, { scenario: 'every-card-state' })
  const shipped = await call('POST', '/__mock/simulations/cards/card_casey_ordered/ship')
  t.equal(shipped.status, 200)
  t.match(shipped.body, { status: 'PENDING_ACTIVATION', shipment: { status: 'SHIPPED', trackingNumber: /^\d{22}$/, shippedAt: '2026-11-23T15:00:00.000Z' } })
  const delivered = await call('POST', '/__mock/simulations/cards/card_casey_ordered/deliver', { body: {} })
  t.match(delivered.body, { status: 'ACTIVE', shipment: { status: 'DELIVERED' } })

  const straight = await call('POST', '/__mock/simulations/cards/card_casey_shipped/activate')
  t.match(straight.body, { id: 'card_casey_shipped', status: 'ACTIVE' })
  const state = await call('GET', '/__mock/state')
  t.equal(state.body.debitCards.find((c: { id: string }) => c.id === 'card_casey_shipped').status, 'ACTIVE', 'reads back')
})

t.test('card simulations refuse what the card\'s state does not allow, changing nothing', async t => {
  const { call } = await buildTestApp(t, { scenario: 'every-card-state' })
  const active = await call('POST', '/__mock/simulations/cards/card_casey_active/activate')
  t.equal(active.status, 409)
  t.equal(active.body.code, 'invalid_card_state')
  t.equal((await call('POST', '/__mock/simulations/cards/card_casey_delivered/ship')).status, 409)
  t.equal((await call('POST', '/__mock/simulations/cards/card_casey_closed_lost/deliver')).status, 409)
  const missing = await call('POST', '/__mock/simulations/cards/card_nope/ship')
  t.equal(missing.status, 404)
  t.equal(missing.body.code, 'card_not_found')
  t.equal((await call('POST', '/__mock/simulations/cards/card_casey_ordered/ship', { body: { now: true } })).status, 400)
  const card = (await call('GET', '/__mock/state')).body.debitCards.find((c: { id: string }) => c.id === 'card_casey_ordered')
  t.equal(card.shipment.status, 'ORDERED')
})

t.test('transfers: run now, and fail the next execution', async t => {
  const { call } = await buildTestApp(t)
  const before = (await call('GET', '/__mock/state')).body.accounts.find((a: { id: string }) => a.id === 'acct_maya_checking').balance
  const ran = await call('POST', '/__mock/simulations/transfers/sxfer_maya_savings/run')
  t.equal(ran.status, 200)
  const last = ran.body.transfer.executions.at(-1) as Execution
  t.match(last, { executionDate: '2026-11-23', status: 'SUCCEEDED' })
  t.ok(ran.body.fired.length > 0, 'what fired is reported')
  const after = (await call('GET', '/__mock/state')).body.accounts.find((a: { id: string }) => a.id === 'acct_maya_checking').balance
  t.equal(after, before - 50000, 'money moved')

  const marked = await call('POST', '/__mock/simulations/transfers/sxfer_maya_savings/fail-next', { body: { reason: 'ACCOUNT_FROZEN' } })
  t.equal(marked.status, 200)
  t.equal(marked.body.id, 'sxfer_maya_savings')
  const failed = await call('POST', '/__mock/simulations/transfers/sxfer_maya_savings/run')
  t.match(failed.body.transfer.executions.at(-1), { status: 'FAILED', failureReason: 'ACCOUNT_FROZEN' })
  t.equal((await call('GET', '/__mock/state')).body.accounts.find((a: { id: string }) => a.id === 'acct_maya_checking').balance, after, 'a failed run moves nothing')
  const read = await call('GET', '/baas/scheduled-transfers/sxfer_maya_savings', { token: TOKENS.maya })
  t.equal(read.body.executions.at(-1).failureReason, 'ACCOUNT_FROZEN', 'the API shows it')

  await call('POST', '/__mock/simulations/transfers/sxfer_maya_rent/fail-next')
  const rent = await call('POST', '/__mock/simulations/transfers/sxfer_maya_rent/run')
  t.equal(rent.body.transfer.executions.at(-1).failureReason, 'INSUFFICIENT_FUNDS', 'the default reason')
})

t.test('transfer simulations refuse inactive or unknown transfers', async t => {
  const { call } = await buildTestApp(t)
  const cancelled = await call('POST', '/__mock/simulations/transfers/sxfer_maya_allowance/run')
  t.equal(cancelled.status, 409)
  t.equal(cancelled.body.code, 'invalid_transfer_state')
  t.equal((await call('POST', '/__mock/simulations/transfers/sxfer_maya_dentist/fail-next', { body: {} })).status, 409)
  t.equal((await call('POST', '/__mock/simulations/transfers/sxfer_nope/run')).status, 404)
  t.equal((await call('POST', '/__mock/simulations/transfers/sxfer_maya_rent/fail-next', { body: { reason: 'lower case' } })).status, 400)
})

t.test('failing-transfers: every scheduled transfer fails when its day comes', async t => {
  const { call } = await buildTestApp(t, { scenario: 'failing-transfers' })
  const advanced = await call('POST', '/__mock/clock/advance', { body: { by: 'P3D' } })
  t.equal(advanced.status, 200)
  const list = await call('GET', '/baas/scheduled-transfers')
  const byId = new Map<string, { status: string; executions: Execution[] }>(list.body.data.map((x: { id: string }) => [x.id, x]))
  t.match(byId.get('sxfer_drew_rent')?.executions.at(-1), { status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' })
  t.equal(byId.get('sxfer_drew_rent')?.status, 'ACTIVE', 'a recurring transfer stays ACTIVE after a failed run')
  t.match(byId.get('sxfer_drew_savings')?.executions.at(-1), { status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' })
  t.match(byId.get('sxfer_drew_gym')?.executions.at(-1), { status: 'FAILED', failureReason: 'ACCOUNT_CLOSED' })
  t.equal(byId.get('sxfer_drew_once')?.status, 'FAILED')
  const checking = (await call('GET', '/__mock/state')).body.accounts.find((a: { id: string }) => a.id === 'acct_drew_checking')
  t.equal(checking.balance, 4210, 'no money left the account')
})
