import t from 'tap'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'
import { defaultConfig } from '../../src/config/config.js'

const BASE = '/baas/scheduled-transfers'

const internalBody = (over: Record<string, unknown> = {}) => ({
  fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 25000, frequency: 'MONTHLY', startDate: '2026-12-10', ...over
})

const achBody = (over: Record<string, unknown> = {}) => ({
  fromAccountId: 'acct_maya_checking',
  counterparty: { name: 'Bayview Properties', routingNumber: '021000021', accountNumber: '000123458841', accountType: 'CHECKING' },
  amount: 185000,
  frequency: 'MONTHLY',
  startDate: '2026-12-01',
  description: 'RENT',
  memo: 'December rent',
  ...over
})

async function state (call: TestApp['call'], session?: string) {
  return (await call('GET', '/__mock/state', session === undefined ? {} : { session })).body
}

async function balances (call: TestApp['call']): Promise<Record<string, number>> {
  const s = await state(call)
  return Object.fromEntries((s.accounts as { id: string; balance: number }[]).map(a => [a.id, a.balance]))
}

async function transferCount (call: TestApp['call']): Promise<number> {
  return (await state(call)).scheduledTransfers.length
}

t.test('walk-through: create a monthly transfer, advance a month, read the executions and the balances', async t => {
  const { call } = await buildTestApp(t)
  const before = await balances(call)
  const created = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, body: internalBody({ startDate: '2026-11-30', memo: 'Rainy day' }) })
  t.equal(created.status, 201)
  t.match(created.body, {
    type: 'INTERNAL', amount: 25000, currency: 'USD', fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', memo: 'Rainy day',
    frequency: 'MONTHLY', startDate: '2026-11-30', nextRunDate: '2026-11-30', occurrencesCompleted: 0, status: 'ACTIVE', executions: [],
    createdAt: '2026-11-23T15:00:00.000Z'
  })
  t.match(created.body.id, /^sxfer_[A-Za-z0-9]{16}$/)
  for (const internalField of ['customerId', 'nextIndex', 'failNextWith']) t.notOk(internalField in created.body, `${internalField} is not shown`)

  const advanced = await call('POST', '/__mock/clock/advance', { body: { by: 'P1M' } })
  t.equal(advanced.status, 200)
  t.equal(advanced.body.now, '2026-12-23T15:00:00.000Z')
  t.same(advanced.body.fired.filter((e: { entityId: string }) => e.entityId === created.body.id).map((e: { kind: string; at: string }) => [e.kind, e.at]),
    [['scheduled_transfer.execution_succeeded', '2026-11-30T00:00:00.000Z']])

  const read = await call('GET', `${BASE}/${created.body.id}`, { token: TOKENS.maya })
  t.equal(read.status, 200)
  t.match(read.body, { status: 'ACTIVE', occurrencesCompleted: 1, nextRunDate: '2026-12-30', updatedAt: '2026-11-30T00:00:00.000Z' })
  t.same(read.body.executions, [{ scheduledDate: '2026-11-30', executionDate: '2026-11-30', amount: 25000, status: 'SUCCEEDED' }])

  // Maya's fixtures ran too: rent (ACH 1,850.00 on Dec 1) and savings (500.00 on Dec 3).
  const after = await balances(call)
  t.equal(after.acct_maya_checking, (before.acct_maya_checking ?? 0) - 25000 - 185000 - 50000)
  t.equal(after.acct_maya_savings, (before.acct_maya_savings ?? 0) + 25000 + 50000)
})

t.test('ACH: the full account number goes in, only its last 4 digits come out; direction and SEC code default', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', `${BASE}/ach`, { token: TOKENS.maya, body: achBody() })
  t.equal(res.status, 201)
  t.same(res.body.counterparty, { name: 'Bayview Properties', routingNumber: '021000021', accountNumberLast4: '8841', accountType: 'CHECKING' })
  t.notOk(res.text.includes('000123458841'), 'the full number never leaves')
  t.match(res.body, { type: 'ACH', direction: 'CREDIT', secCode: 'PPD', description: 'RENT', memo: 'December rent', nextRunDate: '2026-12-01' })
  t.notOk('toAccountId' in res.body)
  const snapshot = await state(call)
  t.notOk(JSON.stringify(snapshot).includes('000123458841'), 'nor is it stored')

  const pull = await call('POST', `${BASE}/ach`, { token: TOKENS.maya, body: achBody({ direction: 'DEBIT', secCode: 'WEB', frequency: 'ONCE', startDate: '2026-11-24' }) })
  t.match(pull.body, { direction: 'DEBIT', secCode: 'WEB' })
})

t.test('an ACH run on a Saturday or a Fed holiday executes on the next banking day', async t => {
  const { call } = await buildTestApp(t, { now: new Date('2027-06-28T12:00:00.000Z') })
  const saturday = await call('POST', `${BASE}/ach`, { token: TOKENS.maya, body: achBody({ frequency: 'ONCE', startDate: '2027-07-03', amount: 1000 }) })
  const sunday = await call('POST', `${BASE}/ach`, { token: TOKENS.maya, body: achBody({ frequency: 'ONCE', startDate: '2027-07-04', amount: 1000 }) })
  t.equal(saturday.body.nextRunDate, '2027-07-06')
  t.equal(sunday.body.nextRunDate, '2027-07-06', 'Independence Day falls on Sunday: Monday Jul 5 is closed')
  await call('POST', '/__mock/clock/advance', { body: { to: '2027-07-06T08:00:00Z' } })
  const done = await call('GET', `${BASE}/${saturday.body.id}`, { token: TOKENS.maya })
  t.match(done.body, { status: 'COMPLETED', nextRunDate: null, executions: [{ scheduledDate: '2027-07-03', executionDate: '2027-07-06', status: 'PENDING' }] }, 'sent Tuesday; it settles Wednesday')
})

t.test('month-end dates clamp and are counted from the anchor (Jan 31 → Feb 28 → Mar 31)', async t => {
  const { call } = await buildTestApp(t, { now: new Date('2027-01-25T12:00:00.000Z') })
  const created = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, body: internalBody({ startDate: '2027-01-31', amount: 100 }) })
  await call('POST', '/__mock/clock/advance', { body: { to: '2027-03-31T12:00:00Z' } })
  const read = await call('GET', `${BASE}/${created.body.id}`, { token: TOKENS.maya })
  t.same(read.body.executions.map((e: { executionDate: string }) => e.executionDate), ['2027-01-31', '2027-02-28', '2027-03-31'])
  t.equal(read.body.nextRunDate, '2027-04-30')
})

t.test('insufficient funds: the run FAILS, no money moves, a recurring transfer stays ACTIVE', async t => {
  const { call } = await buildTestApp(t)
  const before = await balances(call)
  const res = await call('POST', '/__mock/clock/advance', { body: { by: 'P5D' } })
  t.match(res.body.fired.find((e: { entityId: string }) => e.entityId === 'sxfer_sam_car_loan'), { kind: 'scheduled_transfer.execution_failed', at: '2026-11-27T00:00:00.000Z' })
  const car = await call('GET', `${BASE}/sxfer_sam_car_loan`, { token: TOKENS.sam })
  t.match(car.body, { status: 'ACTIVE', occurrencesCompleted: 1, nextRunDate: '2026-12-28' })
  t.same(car.body.executions, [{ scheduledDate: '2026-11-26', executionDate: '2026-11-27', amount: 150000, status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' }])
  t.equal((await balances(call)).acct_sam_checking, before.acct_sam_checking)
})

t.test('COMPLETED after numberOfOccurrences', async t => {
  const { call } = await buildTestApp(t)
  const created = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, body: internalBody({ frequency: 'WEEKLY', startDate: '2026-11-24', numberOfOccurrences: 2, amount: 100 }) })
  const fired = (await call('POST', '/__mock/clock/advance', { body: { by: 'P1M' } })).body.fired.filter((e: { entityId: string }) => e.entityId === created.body.id)
  t.same(fired.map((e: { kind: string }) => e.kind), ['scheduled_transfer.execution_succeeded', 'scheduled_transfer.execution_succeeded', 'scheduled_transfer.completed'])
  const read = await call('GET', `${BASE}/${created.body.id}`, { token: TOKENS.maya })
  t.match(read.body, { status: 'COMPLETED', occurrencesCompleted: 2, numberOfOccurrences: 2, nextRunDate: null })
  const late = await call('POST', `${BASE}/${created.body.id}`, { token: TOKENS.maya, body: { amount: 5 } })
  t.equal(late.status, 409)
  t.equal(late.body.code, 'invalid_transfer_state')
})

t.test('schema errors are 400 naming each field, and store nothing', async t => {
  const { call } = await buildTestApp(t)
  const count = await transferCount(call)
  const cases: [string, string, Record<string, unknown>, string[]][] = [
    ['unknown field', 'internal', internalBody({ priority: 'HIGH' }), ['/priority']],
    ['amount 0', 'internal', internalBody({ amount: 0 }), ['/amount']],
    ['amount negative', 'internal', internalBody({ amount: -5 }), ['/amount']],
    ['amount with cents fraction', 'internal', internalBody({ amount: 10.5 }), ['/amount']],
    ['frequency', 'internal', internalBody({ frequency: 'FORTNIGHTLY' }), ['/frequency']],
    ['date format', 'internal', internalBody({ startDate: '12/10/2026' }), ['/startDate']],
    ['not a real date', 'internal', internalBody({ startDate: '2027-02-30' }), ['/startDate']],
    ['memo over 80', 'internal', internalBody({ memo: 'm'.repeat(81) }), ['/memo']],
    ['missing accounts', 'internal', { amount: 100, frequency: 'ONCE', startDate: '2026-12-01' }, ['/fromAccountId', '/toAccountId']],
    ['description over 10', 'ach', achBody({ description: 'APARTMENT RENT' }), ['/description']],
    ['routing not 9 digits', 'ach', achBody({ counterparty: { ...achBody().counterparty, routingNumber: '02100002' } }), ['/counterparty/routingNumber']],
    ['account number too long', 'ach', achBody({ counterparty: { ...achBody().counterparty, accountNumber: '1'.repeat(18) } }), ['/counterparty/accountNumber']],
    ['accountNumberLast4 instead of the number', 'ach', achBody({ counterparty: { name: 'X', routingNumber: '021000021', accountNumberLast4: '8841', accountType: 'CHECKING' } }),
      ['/counterparty/accountNumber', '/counterparty/accountNumberLast4']],
    ['bad direction', 'ach', achBody({ direction: 'PUSH' }), ['/direction']],
    ['bad SEC code', 'ach', achBody({ secCode: 'TEL' }), ['/secCode']],
    ['currency', 'ach', achBody({ currency: 'EUR' }), ['/currency']]
  ]
  for (const [name, kind, body, pointers] of cases) {
    const res = await call('POST', `${BASE}/${kind}`, { token: TOKENS.maya, body })
    t.equal(res.status, 400, name)
    t.equal(res.body.code, 'validation_failed', name)
    t.same(res.body.errors.map((e: { pointer: string }) => e.pointer).sort(), pointers, name)
  }
  t.equal(await transferCount(call), count, 'nothing was stored')
})

t.test('semantic errors are 422 with field pointers, and store nothing', async t => {
  const { call } = await buildTestApp(t, { settings: { ...defaultConfig().settings, maxTransferAmount: 100000 } })
  const count = await transferCount(call)
  const before = await balances(call)
  const cases: [string, string, Record<string, unknown>, string, string[]][] = [
    ['routing checksum', 'ach', achBody({ amount: 5000, counterparty: { ...achBody().counterparty, routingNumber: '021000022' } }), 'invalid_routing_number', ['/counterparty/routingNumber']],
    ['amount over the configured limit', 'internal', internalBody({ amount: 100001 }), 'amount_over_limit', ['/amount']],
    ['another customer\'s account', 'internal', internalBody({ toAccountId: 'acct_sam_savings' }), 'account_not_found', ['/toAccountId']],
    ['an unknown account', 'ach', achBody({ amount: 5000, fromAccountId: 'acct_nobody' }), 'account_not_found', ['/fromAccountId']],
    ['the same account', 'internal', internalBody({ toAccountId: 'acct_maya_checking' }), 'same_account', ['/toAccountId']],
    ['start date yesterday', 'internal', internalBody({ startDate: '2026-11-22' }), 'start_date_in_past', ['/startDate']],
    ['end date before start', 'internal', internalBody({ endDate: '2026-12-09' }), 'end_date_before_start', ['/endDate']],
    ['end date and occurrences', 'internal', internalBody({ endDate: '2027-12-09', numberOfOccurrences: 4 }), 'conflicting_end_conditions', ['/numberOfOccurrences']],
    ['ONCE with occurrences', 'internal', internalBody({ frequency: 'ONCE', numberOfOccurrences: 4 }), 'invalid_field', ['/numberOfOccurrences']]
  ]
  for (const [name, kind, body, code, pointers] of cases) {
    const res = await call('POST', `${BASE}/${kind}`, { token: TOKENS.maya, body })
    t.equal(res.status, 422, name)
    t.equal(res.body.code, code, name)
    t.same(res.body.errors.map((e: { pointer: string }) => e.pointer), pointers, name)
    // The detail reads as a sentence: the field, then what is wrong with it.
    t.match(res.body.detail, new RegExp(`^The transfer is invalid: ${pointers[0]?.slice(1)} (must|cannot|is|has|belongs|fails) `), name)
  }
  const limit = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, body: internalBody({ amount: 100001 }) })
  t.equal(limit.body.maxAmount, 100000, 'the limit is in the problem')
  t.equal(await transferCount(call), count, 'nothing was stored')
  t.same(await balances(call), before, 'no money moved')
})

t.test('cancel stays readable; then update and cancel are 409; delete makes it 404', async t => {
  const { call } = await buildTestApp(t)
  const created = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, body: internalBody() })
  const url = `${BASE}/${created.body.id}`
  const cancelled = await call('POST', `${url}/cancel`, { token: TOKENS.maya })
  t.equal(cancelled.status, 200)
  t.match(cancelled.body, { status: 'CANCELLED', nextRunDate: null, cancelledAt: '2026-11-23T15:00:00.000Z' })
  t.equal((await call('GET', url, { token: TOKENS.maya })).body.status, 'CANCELLED', 'still readable')
  for (const [path, body] of [[url, { amount: 5 }], [`${url}/cancel`, {}]] as const) {
    const res = await call('POST', path, { token: TOKENS.maya, body })
    t.equal(res.status, 409, path)
    t.match(res.body, { code: 'invalid_transfer_state', transferStatus: 'CANCELLED' })
  }
  const fired = (await call('POST', '/__mock/clock/advance', { body: { by: 'P1M' } })).body.fired
  t.notOk(fired.some((e: { entityId: string }) => e.entityId === created.body.id), 'a cancelled transfer never runs')

  const deleted = await call('PUT', `${url}/delete`, { token: TOKENS.maya })
  t.equal(deleted.status, 200)
  t.same(deleted.body, { id: created.body.id, deleted: true })
  t.equal((await call('GET', url, { token: TOKENS.maya })).status, 404)
  t.equal((await call('PUT', `${url}/delete`, { token: TOKENS.maya })).body.code, 'transfer_not_found')
  const list = await call('GET', BASE, { token: TOKENS.maya })
  t.notOk(list.body.data.some((x: { id: string }) => x.id === created.body.id))
})

t.test('delete works in any state, ACTIVE or COMPLETED', async t => {
  const { call } = await buildTestApp(t)
  for (const id of ['sxfer_maya_savings', 'sxfer_maya_dentist']) {
    t.equal((await call('PUT', `${BASE}/${id}/delete`, { token: TOKENS.maya })).status, 200, id)
    t.equal((await call('GET', `${BASE}/${id}`, { token: TOKENS.maya })).status, 404, id)
  }
})

t.test('another customer\'s transfer is 404 for every operation, and is left alone', async t => {
  const { call } = await buildTestApp(t)
  const url = `${BASE}/sxfer_sam_car_loan`
  const attempts: [string, string, unknown][] = [['GET', url, undefined], ['POST', url, { amount: 1 }], ['POST', `${url}/cancel`, {}], ['PUT', `${url}/delete`, {}]]
  for (const [method, path, body] of attempts) {
    const res = await call(method, path, { token: TOKENS.maya, ...(body === undefined ? {} : { body }) })
    t.equal(res.status, 404, `${method} ${path}`)
    t.equal(res.body.code, 'transfer_not_found')
  }
  t.match((await call('GET', url, { token: TOKENS.sam })).body, { status: 'ACTIVE', amount: 150000 })
})

t.test('a FROZEN customer reads its transfers but cannot create, update, cancel or delete (409)', async t => {
  const { call } = await buildTestApp(t)
  const url = `${BASE}/sxfer_riley_utilities`
  t.equal((await call('GET', url, { token: TOKENS.riley })).status, 200)
  const attempts: [string, string, unknown][] = [
    ['POST', `${BASE}/ach`, achBody({ fromAccountId: 'acct_riley_checking', amount: 100 })],
    ['POST', url, { amount: 1 }], ['POST', `${url}/cancel`, {}], ['PUT', `${url}/delete`, {}]
  ]
  for (const [method, path, body] of attempts) {
    const res = await call(method, path, { token: TOKENS.riley, body })
    t.equal(res.status, 409, `${method} ${path}`)
    t.equal(res.body.code, 'customer_not_writable')
  }
  t.match((await call('GET', url, { token: TOKENS.riley })).body, { status: 'ACTIVE', amount: 8900 })
})

t.test('list: { data } of the customer\'s transfers, filtered by status and type', async t => {
  const { call } = await buildTestApp(t)
  const ids = async (query: string, token: string = TOKENS.maya): Promise<string[]> => {
    const res = await call('GET', `${BASE}${query}`, { token })
    t.equal(res.status, 200, query)
    return res.body.data.map((x: { id: string }) => x.id)
  }
  t.same(await ids(''), ['sxfer_maya_dentist', 'sxfer_maya_rent', 'sxfer_maya_allowance', 'sxfer_maya_savings'], 'newest first')
  t.same(await ids('?status=ACTIVE'), ['sxfer_maya_rent', 'sxfer_maya_savings'])
  t.same(await ids('?status=CANCELLED'), ['sxfer_maya_allowance'])
  t.same(await ids('?status=COMPLETED&type=ACH'), ['sxfer_maya_dentist'])
  t.same(await ids('?type=INTERNAL'), ['sxfer_maya_allowance', 'sxfer_maya_savings'])
  t.same(await ids('?status=FAILED', TOKENS.sam), ['sxfer_sam_topup'])
  t.same(await ids('', TOKENS.jordan), [])
  const bad = await call('GET', `${BASE}?status=PAUSED`, { token: TOKENS.maya })
  t.equal(bad.status, 400)
  t.same(bad.body.errors.map((e: { pointer: string }) => e.pointer), ['/status'])
  t.equal((await call('GET', `${BASE}?page=2`, { token: TOKENS.maya })).status, 400, 'unknown query parameters are refused')
})

t.test('update: amount for future runs, re-anchoring, end conditions; bad updates change nothing', async t => {
  const { call } = await buildTestApp(t)
  const url = `${BASE}/sxfer_maya_savings`
  const before = (await call('GET', url, { token: TOKENS.maya })).body
  const refused: [Record<string, unknown>, number, string, string[]][] = [
    [{}, 400, 'validation_failed', ['']],
    [{ fromAccountId: 'acct_maya_savings' }, 400, 'validation_failed', ['/fromAccountId']],
    [{ amount: 0 }, 400, 'validation_failed', ['/amount']],
    [{ startDate: '2026-11-01' }, 422, 'start_date_in_past', ['/startDate']],
    [{ numberOfOccurrences: 2 }, 422, 'invalid_field', ['/numberOfOccurrences']],
    [{ endDate: '2026-11-30' }, 422, 'invalid_field', ['/endDate']],
    [{ endDate: '2027-06-01', numberOfOccurrences: 8 }, 422, 'conflicting_end_conditions', ['/numberOfOccurrences']],
    [{ description: 'SAVE' }, 422, 'invalid_field', ['/description']]
  ]
  for (const [body, status, code, pointers] of refused) {
    const res = await call('POST', url, { token: TOKENS.maya, body })
    t.equal(res.status, status, JSON.stringify(body))
    t.equal(res.body.code, code, JSON.stringify(body))
    t.same(res.body.errors?.map((e: { pointer: string }) => e.pointer), pointers, JSON.stringify(body))
  }
  t.same((await call('GET', url, { token: TOKENS.maya })).body, before, 'unchanged')

  const updated = await call('POST', url, { token: TOKENS.maya, body: { amount: 60000, memo: 'More savings', numberOfOccurrences: 4 } })
  t.equal(updated.status, 200)
  t.match(updated.body, { amount: 60000, memo: 'More savings', numberOfOccurrences: 4, occurrencesCompleted: 2, nextRunDate: '2026-12-03', updatedAt: '2026-11-23T15:00:00.000Z' })
  t.same(updated.body.executions.map((e: { amount: number }) => e.amount), [50000, 50000], 'past executions stay as they were')

  const reanchored = await call('POST', url, { token: TOKENS.maya, body: { frequency: 'WEEKLY', startDate: '2026-11-27' } })
  t.match(reanchored.body, { frequency: 'WEEKLY', startDate: '2026-11-27', nextRunDate: '2026-11-27' })
  await call('POST', '/__mock/clock/advance', { body: { by: 'P1M' } })
  const done = (await call('GET', url, { token: TOKENS.maya })).body
  t.match(done, { status: 'COMPLETED', occurrencesCompleted: 4 }, 'numberOfOccurrences counted the two runs made before the update')
  t.same(done.executions.map((e: { scheduledDate: string; amount: number }) => [e.scheduledDate, e.amount]).slice(2), [['2026-11-27', 60000], ['2026-12-04', 60000]])
})

t.test('an ACH DAILY transfer never runs on a weekend or holiday', async t => {
  const { call } = await buildTestApp(t)
  const created = await call('POST', `${BASE}/ach`, { token: TOKENS.maya, body: achBody({ frequency: 'DAILY', startDate: '2026-11-24', endDate: '2026-11-30', amount: 100 }) })
  await call('POST', '/__mock/clock/advance', { body: { by: 'P10D' } })
  const read = await call('GET', `${BASE}/${created.body.id}`, { token: TOKENS.maya })
  t.same(read.body.executions.map((e: { executionDate: string }) => e.executionDate), ['2026-11-24', '2026-11-25', '2026-11-27', '2026-11-30'],
    'Thanksgiving (Thu 26) and the weekend are skipped')
  t.equal(read.body.status, 'COMPLETED')
})

t.test('sessions are isolated: a transfer and its runs stay in their session', async t => {
  const { call } = await buildTestApp(t)
  const created = await call('POST', `${BASE}/internal`, { token: TOKENS.maya, session: 'ci-1', body: internalBody() })
  t.equal((await call('GET', `${BASE}/${created.body.id}`, { token: TOKENS.maya, session: 'ci-1' })).status, 200)
  t.equal((await call('GET', `${BASE}/${created.body.id}`, { token: TOKENS.maya })).status, 404)
})
