import type { AddressInfo } from 'node:net'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'

/** A test process of its own: only its session id tells it apart from the other. */
function client (baseUrl: string, session: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const headers: Record<string, string> = { 'x-mock-session': session, authorization: `Bearer ${TOKENS.maya}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await res.text()
    return { status: res.status, body: text === '' ? null : JSON.parse(text) }
  }
}

async function run (baseUrl: string, session: string, other: string): Promise<void> {
  const call = client(baseUrl, session)
  await call('POST', '/__mock/reset')
  await call('POST', '/__mock/faults', { operation: 'getCustomer', status: 503, count: 1 })
  for (let i = 0; i < 5; i++) {
    const email = `${session}-${i}@example.com`
    const current = (await call('GET', '/baas/customers')).body
    if (i === 0) t.equal(current.status, 503, `${session}: its own fault fires once`)
    const updated = await call('PUT', '/baas/customers', { email, phone: '+14155550123', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' } })
    t.equal(updated.status, 200)
    const read = await call('GET', '/baas/customers')
    t.equal(read.body.email, email, `${session}: reads back its own write ${i}, never ${other}'s`)
  }
  await call('POST', '/mfa/send-code', {})
  const outbox = await call('GET', '/__mock/outbox')
  t.equal(outbox.body.data.length, 1, `${session}: only its own SMS`)
  const journal = await call('GET', '/__mock/requests?order=asc')
  t.equal(journal.body.data.length, 16, `${session}: only its own requests`)
  t.ok(journal.body.data.every((r: { headers: Record<string, string> }) => r.headers['x-mock-session'] === session))
}

t.test('two clients with different sessions run in parallel against one real server and never see each other', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), { logger: false })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const baseUrl = `http://127.0.0.1:${port}`
  await Promise.all([run(baseUrl, 'worker-1', 'worker-2'), run(baseUrl, 'worker-2', 'worker-1')])
  const sessions = await client(baseUrl, 'observer')('GET', '/__mock/sessions')
  t.same(sessions.body.sessions.map((s: { id: string }) => s.id).sort(), ['worker-1', 'worker-2'])
  const untouched = await client(baseUrl, 'default')('GET', '/baas/customers')
  t.equal(untouched.body.email, 'maya.chen@example.com', 'the default session saw none of it')
})
