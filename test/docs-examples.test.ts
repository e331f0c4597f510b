import { randomUUID } from 'node:crypto'
import t from 'tap'
import { setupServer } from 'msw/node'
import { createMock, startServer } from '../src/index.js'
import { createHandlers, createMock as createMockInBrowser } from '../src/msw.js'

// The calls the README and docs/guides/frontend.md show, run as written, with tap in Vitest's place.

t.test('the README\'s in-process example: a lock, then the journal of its session', async t => {
  const mock = await createMock({ seed: 42, fixedCode: '123456' })
  t.teardown(() => mock.close())
  const response = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', {
    method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'test-1' }
  })
  t.equal(response.status, 200)
  const journal = await mock.session('test-1').journal.list({ operation: 'lockCard' })
  t.same(journal.map(entry => entry.status), [200])
  t.same(await mock.session().journal.list({ operation: 'lockCard' }), [], 'the default session saw nothing')
})

t.test('the frontend guide\'s Vitest example: MSW in front, a fresh session per test', async t => {
  const mock = await createMock({ seed: 42, now: '2027-01-04T09:00:00Z', fixedCode: '123456' })
  const server = setupServer(...createHandlers({ baseUrl: 'https://bank.example', mock }))
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(async () => { server.close(); await mock.close() })

  const inSession = (id: string) => (path: string, init: RequestInit = {}): Promise<Response> => fetch(`https://bank.example${path}`, {
    ...init, headers: { authorization: 'Bearer tok_maya', 'x-mock-session': id, ...init.headers }
  })

  const first = mock.session(randomUUID())
  const bank = inSession(first.id)
  await first.faults.add({ operation: 'lockCard', status: 503, count: 1 })
  t.equal((await bank('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST' })).status, 503)
  t.equal((await bank('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST' })).status, 200)
  t.same((await first.journal.list({ operation: 'lockCard', order: 'asc' })).map(entry => entry.status), [503, 200])

  const second = mock.session(randomUUID())
  const jordan = { authorization: 'Bearer tok_jordan', 'content-type': 'application/json' }
  const bankAgain = inSession(second.id)
  t.equal((await bankAgain('/mfa/send-code', { method: 'POST', headers: jordan, body: '{}' })).status, 202)
  const { code } = await second.outbox.latestCode({ phone: '+12125550187' })
  t.equal((await bankAgain('/mfa/verify', { method: 'POST', headers: jordan, body: JSON.stringify({ code }) })).status, 200)
  t.same(await second.faults.list(), [], 'the first test\'s fault is not in the second test\'s world')
  t.match(await second.state(), { debitCards: [{ id: 'card_maya_virtual', status: 'ACTIVE' }] }, 'nor its locked card')
})

t.test('the Storybook loader (createMock from baas-mock/msw, as a browser imports it): a reset to a named scenario, or back to the default one', async t => {
  const mock = await createMockInBrowser({ now: '2027-01-04T09:00:00Z' })
  t.teardown(() => mock.close())
  t.equal((await mock.session().reset({ scenario: 'every-card-state' })).scenario, 'every-card-state')
  t.match(await mock.session().state(), { customers: [{ id: 'cus_casey' }] }, 'the scenario\'s world')
  t.equal((await mock.session().reset({ scenario: 'default' })).scenario, 'default', 'the next story, which names none, is back in the bundled world')
})

t.test('the CI guide\'s startServer: a free port, the same API, closed after', async t => {
  const server = await startServer({ port: 0, seed: 42, now: '2027-01-04T09:00:00Z', fixedCode: '123456' })
  const response = await fetch(`${server.url}/__mock/sessions/ci-job-1/pin`, { method: 'POST' })
  t.equal(response.status, 200)
  t.equal(response.headers.get('x-mock-session-created'), 'true')
  t.equal((await fetch(`${server.url}/__mock/sessions/ci-job-1`, { method: 'DELETE' })).status, 204)
  await server.close()
})
