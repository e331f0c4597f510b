import t from 'tap'
import { buildTestApp, TEST_NOW, TOKENS } from '../helpers/app.js'

t.test('GET /__mock/clock: the frozen test clock and when the world started', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/__mock/clock')
  t.equal(res.status, 200)
  t.same(res.body, { now: TEST_NOW.toISOString(), frozen: true, startedAt: TEST_NOW.toISOString() })
})

t.test('advance by a duration moves the clock and answers what fired, in time order', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/__mock/clock/advance', { body: { by: 'P1M' } })
  t.equal(res.status, 200)
  t.equal(res.body.now, '2026-12-23T15:00:00.000Z', 'a calendar month')
  const transfers = res.body.fired.filter((e: { kind: string }) => e.kind.startsWith('scheduled_transfer.'))
  t.same(transfers.map((e: { kind: string; entityId: string; at: string }) => [e.at, e.kind, e.entityId]), [
    ['2026-11-27T00:00:00.000Z', 'scheduled_transfer.execution_failed', 'sxfer_sam_car_loan'],
    ['2026-12-01T00:00:00.000Z', 'scheduled_transfer.execution_succeeded', 'sxfer_maya_rent'],
    ['2026-12-02T00:00:00.000Z', 'scheduled_transfer.execution_settled', 'sxfer_maya_rent'],
    ['2026-12-03T00:00:00.000Z', 'scheduled_transfer.execution_succeeded', 'sxfer_maya_savings'],
    ['2026-12-07T00:00:00.000Z', 'scheduled_transfer.execution_succeeded', 'sxfer_riley_utilities'],
    ['2026-12-08T00:00:00.000Z', 'scheduled_transfer.execution_settled', 'sxfer_riley_utilities']
  ], 'Thanksgiving and a Saturday roll ACH runs forward; an ACH run settles the next banking day')
  const ats = res.body.fired.map((e: { at: string }) => e.at)
  t.same(ats, [...ats].sort(), 'every event in time order')
  t.equal((await call('GET', '/__mock/clock')).body.now, '2026-12-23T15:00:00.000Z')
  const again = await call('POST', '/__mock/clock/advance', { body: { by: 'PT0S' } })
  t.same(again.body.fired.filter((e: { kind: string }) => e.kind.startsWith('scheduled_transfer.')), [], 'nothing fires twice')
})

t.test('hours, days and months add in UTC; months clamp to the month end', async t => {
  const { call } = await buildTestApp(t, { now: new Date('2027-01-31T10:00:00.000Z') })
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'PT2H' } })).body.now, '2027-01-31T12:00:00.000Z')
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'P1M' } })).body.now, '2027-02-28T12:00:00.000Z')
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'P3D' } })).body.now, '2027-03-03T12:00:00.000Z')
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'P1W' } })).body.now, '2027-03-10T12:00:00.000Z')
})

t.test('advance to an instant; the time of day decides nothing, the date does', async t => {
  const { call } = await buildTestApp(t)
  const early = await call('POST', '/__mock/clock/advance', { body: { to: '2026-11-30T23:59:59Z' } })
  t.equal(early.body.now, '2026-11-30T23:59:59.000Z')
  t.notOk(early.body.fired.some((e: { entityId: string }) => e.entityId === 'sxfer_maya_rent'), 'rent is due Dec 1')
  const due = await call('POST', '/__mock/clock/advance', { body: { to: '2026-12-01T00:00:00+00:00' } })
  t.ok(due.body.fired.some((e: { entityId: string; kind: string }) => e.entityId === 'sxfer_maya_rent' && e.kind === 'scheduled_transfer.execution_succeeded'))
  const offset = await call('POST', '/__mock/clock/advance', { body: { to: '2026-12-01T09:00:00-05:00' } })
  t.equal(offset.body.now, '2026-12-01T14:00:00.000Z', 'offsets are honoured, answers are UTC')
})

t.test('bad advances are problems that leave the clock where it was', async t => {
  const { call } = await buildTestApp(t)
  const cases: [unknown, number, string, string][] = [
    [{}, 400, 'validation_failed', '/by'],
    [{ by: 'P1M', to: '2027-01-01T00:00:00Z' }, 400, 'validation_failed', '/to'],
    [{ by: 'one month' }, 400, 'validation_failed', '/by'],
    [{ by: 'P1X' }, 400, 'validation_failed', '/by'],
    [{ by: 'P' }, 400, 'validation_failed', '/by'],
    [{ by: 30 }, 400, 'validation_failed', '/by'],
    [{ to: 'tomorrow' }, 400, 'validation_failed', '/to'],
    [{ to: '2026-12-01' }, 400, 'validation_failed', '/to'],
    [{ weeks: 2 }, 400, 'validation_failed', '/weeks'],
    [{ by: '-P1D' }, 422, 'clock_backwards', '/by'],
    [{ to: '2026-11-23T14:59:59Z' }, 422, 'clock_backwards', '/to'],
    [{ by: 'P11Y' }, 422, 'advance_too_far', '/by'],
    [{ to: '2040-01-01T00:00:00Z' }, 422, 'advance_too_far', '/to']
  ]
  for (const [body, status, code, pointer] of cases) {
    const res = await call('POST', '/__mock/clock/advance', { body })
    t.equal(res.status, status, JSON.stringify(body))
    t.equal(res.body.code, code, JSON.stringify(body))
    t.ok(res.body.errors.some((e: { pointer: string }) => e.pointer === pointer), `${JSON.stringify(body)} points at ${pointer}`)
  }
  const noBody = await call('POST', '/__mock/clock/advance')
  t.equal(noBody.status, 400)
  t.equal((await call('GET', '/__mock/clock')).body.now, TEST_NOW.toISOString(), 'the clock did not move')
  const state = (await call('GET', '/__mock/state')).body
  t.equal(state.scheduledTransfers.find((x: { id: string }) => x.id === 'sxfer_sam_car_loan').executions.length, 0, 'nothing ran')
  t.equal((await call('POST', '/__mock/clock/advance', { body: { to: TEST_NOW.toISOString() } })).status, 200, 'now itself is fine')
})

t.test('each session has its own clock', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/__mock/clock/advance', { session: 'ci-a', body: { by: 'P1M' } })
  t.equal((await call('GET', '/__mock/clock', { session: 'ci-a' })).body.now, '2026-12-23T15:00:00.000Z')
  t.equal((await call('GET', '/__mock/clock', { session: 'ci-b' })).body.now, TEST_NOW.toISOString())
  t.equal((await call('GET', '/__mock/clock')).body.now, TEST_NOW.toISOString())
  const rent = await call('GET', '/baas/scheduled-transfers/sxfer_maya_rent', { token: TOKENS.maya, session: 'ci-b' })
  t.equal(rent.body.executions.length, 1, 'the other session\'s transfers did not run')
})

t.test('a running (not frozen) clock follows real time plus the advances', async t => {
  const { call } = await buildTestApp(t, { now: undefined })
  const before = (await call('GET', '/__mock/clock')).body
  t.equal(before.frozen, false)
  const res = await call('POST', '/__mock/clock/advance', { body: { by: 'P2D' } })
  const moved = Date.parse(res.body.now) - Date.parse(before.now)
  t.ok(moved >= 2 * 86_400_000, 'at least two days later')
  t.ok(Date.parse((await call('GET', '/__mock/clock')).body.now) >= Date.parse(res.body.now), 'and it keeps running from there')
})
