import type { AddressInfo } from 'node:net'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { buildTestApp, TEST_NOW, TOKENS } from '../helpers/app.js'

t.test('a status fault answers a problem for its operation until its count runs out', async t => {
  const { call } = await buildTestApp(t)
  const added = await call('POST', '/__mock/faults', { body: { operation: 'lockCard', status: 503, retryAfter: 30, count: 2, detail: 'Processor down' } })
  t.equal(added.status, 201)
  t.equal((await call('GET', '/__mock/faults/fault_9')).status, 404)
  t.equal(added.headers.location, '/__mock/faults/fault_1')
  t.match(added.body, { id: 'fault_1', operation: 'lockCard', operationIds: ['lockCard'], status: 503, code: 'fault_injected', remaining: 2, hits: 0, reset: false, probability: 1 })

  const failed = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal(failed.status, 503)
  t.equal(failed.headers['retry-after'], '30')
  t.equal(failed.headers['x-mock-source'], 'fault')
  t.equal(failed.headers['x-mock-fault'], 'fault_1')
  t.match(failed.body, { code: 'fault_injected', detail: 'Processor down', faultId: 'fault_1', status: 503 })
  t.equal((await call('GET', '/baas/customers')).status, 200, 'other operations are untouched')
  t.match((await call('GET', String(added.headers.location))).body, { id: 'fault_1', hits: 1, remaining: 1 }, 'the Location of a new rule reads it back')
  const state = await call('GET', '/__mock/state')
  t.equal(state.body.debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'the operation did not run')

  t.equal((await call('GET', '/__mock/faults')).body.faults[0].remaining, 1)
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 503)
  t.same((await call('GET', '/__mock/faults')).body.faults, [], 'expired after its count')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).body.status, 'LOCKED')
})

t.test('rules without an operation hit every operation; a configuration name covers the operations sharing it', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/__mock/faults', { body: { operation: 'API_BAAS_CUSTOMER', status: 500, code: 'core_down' } })
  t.equal((await call('GET', '/baas/customers')).body.code, 'core_down')
  t.equal((await call('PUT', '/baas/customers', { body: { email: 'a@b.co', phone: '+14155550123', address: { line1: '1', city: 'X', state: 'CA', postalCode: '94105', country: 'US' } } })).status, 500)
  t.equal((await call('POST', '/mfa/verify', { body: { code: '000000' } })).status, 404, 'not the verification operations')
  await call('DELETE', '/__mock/faults')
  await call('POST', '/__mock/faults', { body: { status: 502 } })
  const badGateway = await call('POST', '/mfa/verify', { body: { code: '000000' } })
  t.equal(badGateway.status, 502)
  t.equal(badGateway.headers['retry-after'], undefined, 'only 429 and 503 say when to retry unless told')
  await call('DELETE', '/__mock/faults')
  await call('POST', '/__mock/faults', { body: { status: 429 } })
  t.equal((await call('GET', '/baas/customers')).headers['retry-after'], '1', 'a 429 without retryAfter sends Retry-After: 1')
  await call('DELETE', '/__mock/faults')
  await call('POST', '/__mock/faults', { body: { status: 429, retryAfter: 0 } })
  const bare = await call('GET', '/baas/customers')
  t.equal(bare.status, 429)
  t.equal(bare.headers['retry-after'], undefined, 'retryAfter: 0 sends none')
  t.equal((await call('GET', '/__mock/state')).status, 200, 'never the control plane')
  t.equal((await call('GET', '/baas/nothing')).status, 404, 'nor unknown routes')
})

t.test('a delay fault slows the operation, which then answers normally', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/__mock/faults', { body: { operation: 'getCustomer', delay: { min: 5, max: 15 } } })
  const res = await call('GET', '/baas/customers')
  t.equal(res.status, 200)
  t.equal(res.body.id, 'cus_maya')
  t.equal(res.headers['x-mock-fault'], 'fault_1')
  t.notOk(res.headers['x-mock-source'], 'the operation answered')
  const journal = await call('GET', '/__mock/requests')
  t.match(journal.body.data[0], { status: 200, faults: ['fault_1'] })
  t.notOk('source' in journal.body.data[0])
})

t.test('a reset fault drops the connection (inject sees it) and is journaled with status 0', async t => {
  const { app, call } = await buildTestApp(t)
  await call('POST', '/__mock/faults', { body: { operation: 'lockCard', reset: true, count: 1 } })
  await t.rejects(app.inject({ method: 'POST', url: '/baas/debit-cards/card_maya_virtual/lock' }), { code: 'LIGHT_ECONNRESET' })
  const journal = await call('GET', '/__mock/requests')
  t.match(journal.body.data[0], { operationId: 'lockCard', status: 0, source: 'fault', faults: ['fault_1'] })
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock')).status, 200, 'the next request goes through')
})

t.test('a reset fault destroys a real socket', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, logLevel: 'silent' }), { logger: false })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  await fetch(`${base}/__mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-session': 'net' }, body: JSON.stringify({ reset: true }) })
  await t.rejects(fetch(`${base}/baas/customers`, { headers: { 'x-mock-session': 'net' } }), TypeError)
  t.equal((await fetch(`${base}/baas/customers`)).status, 200, 'other sessions are unaffected')
})

t.test('probabilistic faults repeat exactly on a seeded server', async t => {
  const outcomes = async (): Promise<number[]> => {
    const { call } = await buildTestApp(t, { seed: 99 })
    await call('POST', '/__mock/faults', { session: 'p', body: { operation: 'getCustomer', status: 503, probability: 0.5 } })
    const statuses: number[] = []
    for (let i = 0; i < 24; i++) statuses.push((await call('GET', '/baas/customers', { session: 'p' })).status)
    return statuses
  }
  const first = await outcomes()
  t.same(await outcomes(), first)
  t.ok(first.includes(503) && first.includes(200), first.join(' '))
})

t.test('GET lists, DELETE /:id removes one rule', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/__mock/faults', { body: { delay: 1 } })
  await call('POST', '/__mock/faults', { body: { status: 500, operation: 'getCustomer' } })
  t.same((await call('GET', '/__mock/faults')).body.faults.map((f: { id: string }) => f.id), ['fault_1', 'fault_2'])
  t.equal((await call('DELETE', '/__mock/faults/fault_2')).status, 204)
  t.equal((await call('GET', '/baas/customers')).status, 200)
  const missing = await call('DELETE', '/__mock/faults/fault_2')
  t.equal(missing.status, 404)
  t.equal(missing.body.code, 'fault_not_found')
  t.equal((await call('DELETE', '/__mock/faults')).status, 204)
  t.same((await call('GET', '/__mock/faults')).body.faults, [])
})

t.test('a session holds a bounded number of rules', async t => {
  const { call } = await buildTestApp(t)
  for (let i = 0; i < 100; i++) await call('POST', '/__mock/faults', { body: { operation: 'lockCard', delay: 1 } })
  const full = await call('POST', '/__mock/faults', { body: { delay: 1 } })
  t.equal(full.status, 409)
  t.equal(full.body.code, 'too_many_faults')
  t.equal((await call('GET', '/__mock/faults')).body.faults.length, 100)
})

t.test('invalid rules are rejected and add nothing', async t => {
  const { call } = await buildTestApp(t)
  const schema: [unknown, string][] = [
    [{ operation: 'noSuchOperation', status: 500 }, '/operation'],
    [{ status: 200 }, '/status'],
    [{ delay: 40_000 }, '/delay'],
    [{ status: 500, probability: 0 }, '/probability'],
    [{ status: 500, count: 0 }, '/count'],
    [{ status: 500, colour: 'red' }, '/colour']
  ]
  for (const [body, pointer] of schema) {
    const res = await call('POST', '/__mock/faults', { body })
    t.equal(res.status, 400, JSON.stringify(body))
    t.ok(res.body.errors.some((e: { pointer: string }) => e.pointer === pointer), `${JSON.stringify(body)} names ${pointer}`)
  }
  const semantic: [unknown, string][] = [
    [{}, ''],
    [{ operation: 'getCustomer' }, ''],
    [{ status: 500, reset: true }, '/reset'],
    [{ delay: 5, code: 'x' }, '/code'],
    [{ delay: { min: 10, max: 5 } }, '/delay/max']
  ]
  for (const [body, pointer] of semantic) {
    const res = await call('POST', '/__mock/faults', { body })
    t.equal(res.status, 422, JSON.stringify(body))
    t.equal(res.body.code, 'invalid_fault')
    t.equal(res.body.errors[0].pointer, pointer)
  }
  t.same((await call('GET', '/__mock/faults')).body.faults, [])
})

t.test('a mistyped operation or value is answered with the one it was meant as, and nothing is added', async t => {
  const { call } = await buildTestApp(t)
  const typo = await call('POST', '/__mock/faults', { body: { operation: 'lockcard', status: 503 } })
  t.equal(typo.status, 400)
  t.match(typo.body.errors, [{ pointer: '/operation', message: /^must be one of the \d+ allowed values; did you mean "lockCard"\?$/ }])
  t.match(typo.body.detail, /\/operation must be one of the \d+ allowed values; did you mean "lockCard"\?/)
  const configName = await call('POST', '/__mock/faults', { body: { operation: 'API_BAAS_REISUE', status: 503 } })
  t.match(configName.body.errors, [{ pointer: '/operation', message: /did you mean "API_BAAS_REISSUE"\?$/ }])
  const far = await call('POST', '/__mock/faults', { body: { operation: 'freezeCard', status: 503 } })
  t.match(far.body.errors, [{ pointer: '/operation', message: /^must be one of "getCustomer", "API_BAAS_CUSTOMER", / }], 'nothing near: the whole list')
  t.same((await call('GET', '/__mock/faults')).body.faults, [], 'no rule was added')
})
