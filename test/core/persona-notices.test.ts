import t from 'tap'
import { PersonaNotices } from '../../src/core/persona-notices.js'
import type { Scenario } from '../../src/fixtures/loader.js'
import type { World } from '../../src/world/world.js'

// The warnings' own rules, with a world reduced to what they read.

const world = (scenario: string, customers: string[], tokens: Array<[string, string]>): World =>
  ({ scenario, defaultCustomerId: customers[0], tokens: new Map(tokens), ctx: { state: { customers: new Map(customers.map(id => [id, {}])) } } }) as unknown as World

const scenario = (name: string, customers: Array<{ id: string; firstName: string; tokens: string[] }>): [string, Scenario] =>
  [name, { name, description: '', fixtures: { customers } } as unknown as Scenario]

t.test('at most `limit` distinct values are warned about, and the end of warnings is said once', async t => {
  const lines: string[] = []
  const notices = new PersonaNotices(new Map(), line => lines.push(line), 2)
  const here = world('default', ['cus_a'], [['tok_a', 'cus_a']])
  for (const token of ['x1', 'x2', 'x1', 'x3', 'x4', 'x2']) notices.notice(here, { reason: 'unknown', token })
  t.same(lines, [
    'unknown token "x1" answered as cus_a (default persona)',
    'unknown token "x2" answered as cus_a (default persona)',
    '2 distinct unknown Authorization values warned about; further ones are not'
  ])
})

t.test('a token of another scenario whose customer this world has too is just unknown here', async t => {
  const lines: string[] = []
  // Both scenarios have cus_a, with other tokens: tok_old is not "a persona this scenario lacks".
  const notices = new PersonaNotices(new Map([scenario('old', [{ id: 'cus_a', firstName: 'Ann', tokens: ['tok_old'] }])]), line => lines.push(line))
  notices.notice(world('new', ['cus_a'], [['tok_new', 'cus_a']]), { reason: 'unknown', token: 'tok_old' })
  notices.notice(world('new', ['cus_b'], [['tok_new', 'cus_b']]), { reason: 'unknown-sub', token: 'a.b.c', sub: 'tok_old' })
  t.same(lines, [
    'unknown token "tok_old" answered as cus_a (default persona)',
    '"tok_old" is Ann\'s token, but scenario "new" has no cus_a; answered as cus_b (default persona)'
  ])
})
