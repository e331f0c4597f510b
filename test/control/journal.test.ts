import t from 'tap'
import { createMock } from '../../src/index.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

t.test('every API request of the session is journaled, secrets redacted', async t => {
  const { call } = await buildTestApp(t)
  await call('GET', '/baas/customers', { token: TOKENS.maya, headers: { cookie: 'sid=1', 'x-trace': 'abc' } })
  await call('POST', '/baas/debit-cards/card_nope/lock', { token: TOKENS.maya, body: {} })
  await call('GET', '/baas/unknown?x=1')
  await call('GET', '/__mock/state')
  const res = await call('GET', '/__mock/requests')
  t.equal(res.status, 200)
  t.match(res.body, { session: 'default', capacity: 500, size: 3, recorded: 3 })
  const [unknown, lock, get] = res.body.data
  t.match(get, { method: 'GET', path: '/baas/customers', operationId: 'getCustomer', status: 200, time: '2026-11-23T15:00:00.000Z', body: null })
  t.equal(get.headers.authorization, '[REDACTED]')
  t.equal(get.headers.cookie, '[REDACTED]')
  t.equal(get.headers['x-trace'], 'abc')
  t.type(get.durationMs, 'number')
  t.match(lock, { method: 'POST', path: '/baas/debit-cards/card_nope/lock', operationId: 'lockCard', status: 404, body: {} })
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal((await call('GET', '/__mock/requests?limit=1')).body.data[0].body, null, 'a POST without a body is journaled with none')
  t.match(unknown, { path: '/baas/unknown', url: '/baas/unknown?x=1', operationId: null, status: 404 })
})

t.test('filters: operation, method, path, status, since, after, limit, order', async t => {
  const { call } = await buildTestApp(t)
  await call('GET', '/baas/customers')
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { body: {} })
  await call('PUT', '/baas/debit-cards/card_maya_virtual/unlock', { body: {} })
  await call('POST', '/baas/debit-cards/card_sam_lost/lock', { token: TOKENS.sam })
  const ids = async (query: string): Promise<string[]> =>
    (await call('GET', `/__mock/requests${query}`)).body.data.map((r: { id: number; operationId: string }) => `${r.id}:${r.operationId}`)
  t.same(await ids(''), ['4:lockCard', '3:unlockCard', '2:lockCard', '1:getCustomer'], 'newest first')
  t.same(await ids('?order=asc&limit=2'), ['1:getCustomer', '2:lockCard'])
  t.same(await ids('?operation=lockCard'), ['4:lockCard', '2:lockCard'])
  t.same(await ids('?operation=API_BAAS_CUSTOMER_CARD_UNLOCK'), ['3:unlockCard'])
  t.same(await ids('?method=put'), ['3:unlockCard'])
  t.same(await ids('?path=/baas/debit-cards/card_maya_virtual/*'), ['3:unlockCard', '2:lockCard'])
  t.same(await ids('?status=4xx'), ['4:lockCard'])
  t.same(await ids('?status=409'), ['4:lockCard'])
  t.same(await ids('?after=2'), ['4:lockCard', '3:unlockCard'])
  t.same(await ids('?since=2026-11-23T15:00:00Z&limit=1'), ['4:lockCard'])
  t.same(await ids('?since=2026-11-24T00:00:00Z'), [])
})

t.test('bad filters are 400', async t => {
  const { call } = await buildTestApp(t)
  for (const query of ['status=6xx', 'limit=0', 'since=yesterday', 'operation=nope', 'order=random', 'colour=red']) {
    const res = await call('GET', `/__mock/requests?${query}`)
    t.equal(res.status, 400, query)
  }
})

t.test('DELETE clears the session\'s journal only; the cap bounds it', async t => {
  const { call } = await buildTestApp(t, { journalCap: 3 })
  for (let i = 0; i < 5; i++) await call('GET', '/baas/customers')
  await call('GET', '/baas/customers', { session: 'other' })
  const full = await call('GET', '/__mock/requests')
  t.match(full.body, { capacity: 3, size: 3, recorded: 5 })
  t.same(full.body.data.map((r: { id: number }) => r.id), [5, 4, 3], 'the oldest went first')
  t.equal((await call('DELETE', '/__mock/requests')).status, 204)
  t.same((await call('GET', '/__mock/requests')).body.data, [])
  t.equal((await call('GET', '/__mock/requests', { session: 'other' })).body.data.length, 1)
})

t.test('prefer and override answers are marked in the journal', async t => {
  const { call } = await buildTestApp(t)
  await call('GET', '/baas/customers', { headers: { prefer: 'code=500' } })
  await call('GET', '/baas/customers', { headers: { prefer: 'example=minimal' } })
  const sources = (await call('GET', '/__mock/requests?order=asc')).body.data.map((r: { source: string }) => r.source)
  t.same(sources, ['prefer', 'override'])
})

t.test('big bodies are journaled as a note, chunked ones too; unmatched requests create no session', async t => {
  const { app, call } = await buildTestApp(t)
  const big = JSON.stringify({ email: 'a@example.com', note: 'x'.repeat(5000) })
  const { Readable } = await import('node:stream')
  const chunked = await app.inject({ method: 'PUT', url: '/baas/customers', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', authorization: `Bearer ${TOKENS.maya}` }, payload: Readable.from([big]) })
  t.equal(chunked.statusCode, 400, 'the unknown field is rejected')
  await call('PUT', '/baas/customers', { token: TOKENS.maya, payload: big, headers: { 'content-type': 'application/json' } })
  const bodies = (await call('GET', '/__mock/requests')).body.data.map((r: { body: unknown }) => r.body)
  t.same(bodies, [{ truncated: true, bytes: big.length }, { truncated: true, bytes: big.length }], 'with and without Content-Length')

  for (let i = 0; i < 3; i++) t.equal((await call('GET', `/no/such/route/${i}`, { session: `scan-${i}` })).status, 404)
  const sessions = (await call('GET', '/__mock/sessions')).body.sessions.map((s: { id: string }) => s.id)
  t.notOk(sessions.some((id: string) => id.startsWith('scan-')), 'a 404 with a new session id builds no world')
  await call('GET', '/baas/customers', { session: 'ci-1' })
  await call('GET', '/no/such/route', { session: 'ci-1' })
  t.equal((await call('GET', '/__mock/requests', { session: 'ci-1' })).body.size, 2, 'an existing session journals its 404s')
})

t.test('the journal tells the control plane by its decoded path: /__mockery is journaled, /%5F%5Fmock/... is not', async t => {
  // A path that does not decode (400 malformed_url) is journaled by neither transport.
  const paths = ['/__mockery', '/__mock-ish/state', '/%5F%5Fmock/nothing', '/__mock/nothing', '/baas/debit-cards/%zz/lock']
  const { call } = await buildTestApp(t)
  for (const path of paths) t.ok([400, 404].includes((await call('GET', path)).status), path)
  const overHttp = (await call('GET', '/__mock/requests')).body.data.map((entry: { path: string }) => entry.path)
  t.same(overHttp.sort(), ['/__mock-ish/state', '/__mockery'], 'over HTTP')

  const mock = await createMock()
  t.teardown(() => mock.close())
  for (const path of paths) t.ok([400, 404].includes((await mock.fetch(path)).status), path)
  const inProcess = (await mock.session().journal.list({ order: 'asc' })).map(entry => entry.path)
  t.same(inProcess.sort(), ['/__mock-ish/state', '/__mockery'], 'through mock.fetch')
})
