import t from 'tap'
import { setupServer } from 'msw/node'
import { handlersFor } from '../../src/transports/msw/handlers.js'
import { handlerTarget } from '../../src/transports/msw/handler-target.browser.js'
import { createMock } from '../../src/transports/fetch/create-mock.browser.js'

// The browser build's createHandlers (handler-target.browser.ts) checks the options now and builds
// the mock from chunks loaded in the background: run here under msw/node, as the page would run it.

const auth = { authorization: 'Bearer tok_maya', 'x-mock-session': 'lazy' }

t.test('the browser build\'s handlers answer from a mock built in the background: the first request waits for it, state stays', async t => {
  const server = setupServer(...handlersFor(handlerTarget({ seed: 1, routes: { API_BAAS_CUSTOMER_CARD_LOCK: 'POST /cards/:cardId/freeze' } }), { baseUrl: 'https://app.example' }))
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => server.close())

  const locked = await fetch('https://app.example/cards/card_maya_virtual/freeze', { method: 'POST', headers: auth })
  t.equal(locked.status, 200, 'a route the options moved matches before the mock is built')
  t.match(await locked.json(), { id: 'card_maya_virtual', status: 'LOCKED' })
  const state = await fetch('https://app.example/__mock/state', { headers: { 'x-mock-session': 'lazy' } })
  t.equal(state.status, 200, 'the control plane answers')
  t.equal((await state.json() as { debitCards: Array<{ id: string; status: string }> }).debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED', 'the lock stayed')
  const unknown = await fetch('https://app.example/__mock/nothing-here')
  t.equal(unknown.status, 404, 'a path under /__mock that is no control route is the mock\'s 404')
  t.equal((await unknown.json() as { code: string }).code, 'route_not_found')
  await t.rejects(fetch('https://app.example/baas/nothing-here'), 'any other path is MSW\'s to handle (unhandled: an error here)')
})

t.test('a mistake in the options throws from createHandlers at once; one only the built mock finds answers 500 saying why', async t => {
  t.throws(() => handlerTarget({ routes: { API_BAAS_CUSTOMER_CARD_LOCK: 'FREEZE /cards' } }), /BAAS_CUSTOMER_CARD_LOCK/, 'a route that cannot be read')
  t.throws(() => handlerTarget({ stateDir: '/tmp/x' }), /createHandlers \{ mock: await createMock\(\{ stateDir \}\) \}/, 'a store needs createMock first')

  const logged: unknown[][] = []
  const error = console.error
  console.error = (...args: unknown[]) => { logged.push(args) }
  t.teardown(() => { console.error = error })
  const target = handlerTarget({ scenario: 'no-such-scenario' })
  const answers = await Promise.all([target.fetch('/baas/customers', { headers: auth }), target.fetch('/__mock/state')])
  for (const answer of answers) {
    t.equal(answer.status, 500)
    t.equal(answer.headers.get('content-type'), 'application/problem+json')
    t.match(await answer.json(), { code: 'mock_not_built', detail: /--scenario no-such-scenario does not exist/ }, 'every request says why')
  }
  t.equal(logged.length, 1, 'the console heard it once')
})

t.test('the browser build\'s createMock loads the mock on first use', async t => {
  const mock = await createMock({ seed: 1 })
  t.teardown(() => mock.close())
  t.equal((await mock.fetch('/baas/customers', { headers: auth })).status, 200)
})

t.test('chunks that did not load are asked for again by the next request', async t => {
  const { loadMockModule } = await import('../../src/transports/fetch/load-mock-module.js')
  let loads = 0
  const flaky = async (): ReturnType<typeof loadMockModule> => {
    loads++
    if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module')
    return await loadMockModule()
  }
  const mock = handlerTarget({ seed: 1 }, flaky)
  await t.rejects(mock.fetch('/baas/customers', { headers: auth }), /dynamically imported module/, 'the first request fails as the import did (MSW: a network error)')
  t.equal((await mock.fetch('/baas/customers', { headers: auth })).status, 200, 'the next one loads the chunks again and is answered')
  t.equal(loads, 2)
})
