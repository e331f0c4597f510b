import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { setupServer } from 'msw/node'
import { createHandlers } from '../../src/msw.js'

// The app calls `${origin}/api/...` and its .env names its routes with that /api in them: a base URL
// with a path and routes that carry it must meet, not miss each other in silence.

t.test('createHandlers with a base URL that has a path matches routes written with that path, and routes written without it', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-mock-msw-base-'))
  writeFileSync(join(dir, '.env.local'), 'VITE_API_BAAS_CUSTOMER_CARD_LOCK=POST /api/cards/$CARD_ID/freeze\n')
  const handlers = createHandlers({ baseUrl: 'https://app.example/api', envFile: join(dir, '.env.local'), seed: 1 })
  const server = setupServer(...handlers)
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => server.close())
  const auth = { authorization: 'Bearer tok_maya', 'x-mock-session': 'base-path' }

  const locked = await fetch('https://app.example/api/cards/card_maya_virtual/freeze', { method: 'POST', headers: auth })
  t.equal(locked.status, 200, 'the moved route, written with /api, matches under the base URL /api')
  t.match(await locked.json(), { id: 'card_maya_virtual', status: 'LOCKED' })

  const customer = await fetch('https://app.example/api/baas/customers', { headers: auth })
  t.equal(customer.status, 200, 'an unmoved route still matches after the base URL\'s path')
  t.match(await customer.json(), { firstName: 'Maya' })

  await t.rejects(fetch('https://app.example/api/api/cards/card_maya_virtual/freeze', { method: 'POST', headers: auth }), 'the prefix is not doubled: MSW calls that unhandled')
})
