import t from 'tap'
import { setupServer } from 'msw/node'
import { createMock } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import type { JournalEntry } from '../../src/control/types.js'
import { dialectWorld } from '../dialect/world.js'

interface Teardown { teardown: (fn: () => unknown) => void }

// In process (mock.fetch, MSW) the persona is named as over HTTP, and the warnings go to stderr.

function warnings (t: Teardown): string[] {
  const lines: string[] = []
  const original = console.warn
  console.warn = (...args: unknown[]) => { lines.push(args.join(' ')) }
  t.teardown(() => { console.warn = original })
  return lines
}

t.test('mock.fetch names the persona; the journal says how it was chosen; stderr warns once per token', async t => {
  const lines = warnings(t)
  const mock = await createMock({ seed: 7 })
  t.teardown(() => mock.close())
  for (let i = 0; i < 2; i++) {
    const res = await mock.fetch('/baas/customers', { headers: { authorization: 'Bearer tok_mya' } })
    t.equal(res.headers.get('x-mock-persona'), 'cus_maya')
  }
  const sam = await mock.fetch('/baas/customers', { headers: { authorization: 'Bearer tok_sam' } })
  t.equal(sam.headers.get('x-mock-persona'), 'cus_sam')
  t.equal((await mock.fetch('/__mock/state')).headers.get('x-mock-persona'), null, 'the control plane answers as nobody')
  t.same(lines, ['baas-mock: unknown token "tok_mya" answered as cus_maya (default persona); did you mean tok_maya?'])
  const entries: JournalEntry[] = await mock.session().journal.list({ order: 'asc' })
  // Typed: persona is part of JournalEntry.
  const personas: Array<JournalEntry['persona']> = entries.map(e => e.persona)
  t.same(personas, [{ customerId: 'cus_maya', via: 'default' }, { customerId: 'cus_maya', via: 'default' }, { customerId: 'cus_sam', via: 'token' }])
})

t.test('MSW handlers name the persona', async t => {
  warnings(t)
  const server = setupServer(...createHandlers({ baseUrl: 'https://bank.test', seed: 7 }))
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => server.close())
  const res = await fetch('https://bank.test/baas/customers', { headers: { authorization: 'Bearer tok_riley' } })
  t.equal(res.status, 200)
  t.equal(res.headers.get('x-mock-persona'), 'cus_riley')
  const typo = await fetch('https://bank.test/baas/customers', { headers: { authorization: 'tok_riley' } })
  t.equal(typo.headers.get('x-mock-persona'), 'cus_maya', 'without Bearer: the default, named')
})

t.test('under a dialect the header is still there, on successes and problems', async t => {
  warnings(t)
  const mock = await createMock({ seed: 7, fixtures: dialectWorld() })
  t.teardown(() => mock.close())
  const ok = await mock.fetch('/baas/customers', { headers: { authorization: 'Bearer tok_jordan' } })
  t.equal(ok.status, 200)
  t.equal(ok.headers.get('x-mock-persona'), 'cus_jordan')
  const missing = await mock.fetch('/baas/debit-cards/nope/lock', { method: 'POST', headers: { authorization: 'Bearer tok_jordan' } })
  t.equal(missing.status, 404)
  t.equal(missing.headers.get('x-mock-persona'), 'cus_jordan')
})
