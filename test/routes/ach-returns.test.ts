import t from 'tap'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'

// TEST_NOW is Monday 2026-11-23, the week of Thanksgiving (Thursday 26th).
const BASE = '/baas/scheduled-transfers'
const maya = { token: TOKENS.maya }

interface Fired { at: string; kind: string; entityId: string; detail: string }

function achBody (accountNumber: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fromAccountId: 'acct_maya_checking',
    counterparty: { name: 'Bayview Properties', routingNumber: '021000021', accountNumber, accountType: 'CHECKING' },
    amount: 12550,
    frequency: 'MONTHLY',
    startDate: '2026-11-25',
    ...over
  }
}

async function create (call: TestApp['call'], accountNumber: string, over: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', `${BASE}/ach`, { ...maya, body: achBody(accountNumber, over) })
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`)
  return res.body.id as string
}

/** Cancels Maya's own scheduled transfers (rent, savings), so her balance moves by the test's alone. */
async function quiet (call: TestApp['call']): Promise<void> {
  for (const id of ['sxfer_maya_rent', 'sxfer_maya_savings']) if ((await call('POST', `${BASE}/${id}/cancel`, maya)).status !== 200) throw new Error(`cancel ${id}`)
}

async function checking (call: TestApp['call']): Promise<number> {
  return (await call('GET', '/__mock/state')).body.accounts.find((a: { id: string }) => a.id === 'acct_maya_checking').balance as number
}

async function advance (call: TestApp['call'], to: string): Promise<Fired[]> {
  const res = await call('POST', '/__mock/clock/advance', { body: { to } })
  if (res.status !== 200) throw new Error(`advance answered ${res.status}: ${res.text}`)
  return res.body.fired as Fired[]
}

t.test('a payment to 10001 goes out, settles after Thanksgiving, comes back R01, and the money is back', async t => {
  const { call } = await buildTestApp(t)
  await quiet(call)
  const id = await create(call, '10001')
  const start = await checking(call)

  const sent = (await advance(call, '2026-11-25T12:00:00Z')).filter(e => e.entityId === id)
  t.same(sent.map(e => [e.kind, e.at]), [['scheduled_transfer.execution_succeeded', '2026-11-25T00:00:00.000Z']])
  t.match((await call('GET', `${BASE}/${id}`, maya)).body.executions, [{ executionDate: '2026-11-25', status: 'PENDING' }])
  t.equal(await checking(call), start - 12550, 'the money left on the execution date')

  const fired = (await advance(call, '2026-12-01T12:00:00Z')).filter(e => e.entityId === id)
  t.same(fired.map(e => [e.kind, e.at]), [
    ['scheduled_transfer.execution_settled', '2026-11-27T00:00:00.000Z'],
    ['scheduled_transfer.execution_returned', '2026-11-30T00:00:00.000Z']
  ], 'settled Friday (Thursday is Thanksgiving), returned Monday, in the fired list with their instants')
  t.match(fired[1]?.detail, 'R01 (Insufficient Funds)')

  const transfer = (await call('GET', `${BASE}/${id}`, maya)).body
  t.same(transfer.executions, [{
    scheduledDate: '2026-11-25', executionDate: '2026-11-25', amount: 12550, status: 'RETURNED', settledAt: '2026-11-27T00:00:00.000Z',
    returnCode: 'R01', returnReason: 'Insufficient Funds', returnedAt: '2026-11-30T00:00:00.000Z'
  }])
  t.match(transfer, { status: 'ACTIVE', nextRunDate: '2026-12-28', counterparty: { accountNumberLast4: '0001' } },
    'R01 leaves it running: next on Dec 28 (Christmas Friday and the weekend roll it)')
  t.notOk('magicReturnCode' in transfer, 'the answer shows no internals')
  t.equal(await checking(call), start, 'the returned money is back')
})

t.test('a payment to 10002 comes back R02: the transfer is FAILED and never runs again', async t => {
  const { call } = await buildTestApp(t)
  await quiet(call)
  const id = await create(call, '10002', { frequency: 'WEEKLY' })
  const start = await checking(call)
  await advance(call, '2026-12-01T00:00:00Z')
  const after = (await call('GET', `${BASE}/${id}`, maya)).body
  t.match(after, { status: 'FAILED', nextRunDate: null, occurrencesCompleted: 1, executions: [{ status: 'RETURNED', returnCode: 'R02', returnReason: 'Account Closed' }] })
  const later = (await advance(call, '2027-01-31T00:00:00Z')).filter(e => e.entityId === id)
  t.same(later, [], 'no further runs')
  t.equal(await checking(call), start)
  t.equal((await call('POST', `${BASE}/${id}/cancel`, maya)).status, 409, 'FAILED is final')
})

t.test('a magic number for a code the mock does not simulate is 422, and nothing is stored', async t => {
  const { call } = await buildTestApp(t)
  const before = (await call('GET', BASE, maya)).body.data.length
  const res = await call('POST', `${BASE}/ach`, { ...maya, body: achBody('10005') })
  t.equal(res.status, 422)
  t.equal(res.body.code, 'unknown_return_code')
  t.same(res.body.errors.map((e: { pointer: string }) => e.pointer), ['/counterparty/accountNumber'])
  t.match(res.body.detail, 'R05')
  t.equal((await call('GET', BASE, maya)).body.data.length, before)
})

t.test('POST /__mock/simulations/transfers/{id}/return returns the latest execution now', async t => {
  const { call } = await buildTestApp(t)
  const id = await create(call, '000123458841', { startDate: '2026-11-23' })
  const start = await checking(call)
  t.match((await call('GET', `${BASE}/${id}`, maya)).body.executions, [{ status: 'PENDING' }], 'due today: sent when created')

  const res = await call('POST', `/__mock/simulations/transfers/${id}/return`, { body: { returnCode: 'R03' } })
  t.equal(res.status, 200)
  t.same(res.body.fired.map((e: Fired) => [e.kind, e.entityId, e.at]), [['scheduled_transfer.execution_returned', id, '2026-11-23T15:00:00.000Z']])
  t.match(res.body.transfer, {
    id, status: 'FAILED', nextRunDate: null,
    executions: [{ status: 'RETURNED', returnCode: 'R03', returnReason: 'No Account/Unable to Locate Account', returnedAt: '2026-11-23T15:00:00.000Z' }]
  })
  t.equal(await checking(call), start + 12550, 'the money is back')
  t.match((await call('GET', `${BASE}/${id}`, maya)).body, { status: 'FAILED' }, 'the customer sees it too')
})

t.test('the return simulation refuses what it cannot do, and changes nothing', async t => {
  const { call } = await buildTestApp(t)
  const id = await create(call, '000123458841', { startDate: '2026-12-01' })
  const state = (await call('GET', '/__mock/state')).body
  const ret = (transfer: string, body: unknown) => call('POST', `/__mock/simulations/transfers/${transfer}/return`, { body })
  const cases: [string, string, unknown, number, string][] = [
    ['an unknown transfer', 'sxfer_nope', { returnCode: 'R01' }, 404, 'transfer_not_found'],
    ['an unknown code', id, { returnCode: 'R99' }, 422, 'unknown_return_code'],
    ['an internal transfer', 'sxfer_maya_savings', { returnCode: 'R01' }, 409, 'not_an_ach_transfer'],
    ['no run yet', id, { returnCode: 'R01' }, 409, 'nothing_to_return'],
    ['a settled payment past its return window (rent, settled Nov 3)', 'sxfer_maya_rent', { returnCode: 'R01' }, 409, 'nothing_to_return'],
    ['no code', id, {}, 400, 'validation_failed']
  ]
  for (const [what, transfer, body, status, code] of cases) {
    const res = await ret(transfer, body)
    t.same([res.status, res.body.code], [status, code], what)
    t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8')
  }
  t.same((await ret(id, { returnCode: 'R99' })).body.errors, [{ pointer: '/returnCode', message: 'must be one of R01, R02, R03, R04, R07, R08, R10, R16, R20, R29' }])
  t.same((await call('GET', '/__mock/state')).body, state, 'nothing changed')
  const unauthorized = await ret('sxfer_maya_rent', { returnCode: 'R10' })
  t.equal(unauthorized.status, 200, 'an unauthorized-debit claim (R10) may come within 60 days')
})

t.test('one advance that runs, settles and returns a payment: each event shows the execution as it was at that moment', async t => {
  const { call } = await buildTestApp(t)
  const id = await create(call, '10001')
  await advance(call, '2026-12-01T12:00:00Z')

  const listed = (await call('GET', '/__mock/webhooks/events?order=asc')).body.data as Array<{ type: string; data: { id: string; executions: Array<{ status: string }> } }>
  const ours = listed.filter(e => e.data.id === id).map(e => [e.type, e.data.executions.map(x => x.status)])
  t.same(ours, [
    ['scheduled_transfer.created', []],
    ['scheduled_transfer.execution_succeeded', ['PENDING']],
    ['scheduled_transfer.execution_settled', ['SETTLED']],
    ['scheduled_transfer.execution_returned', ['RETURNED']]
  ], 'the run was PENDING when it went out, though it settled and came back later in the same advance')
})
