import fc from 'fast-check'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { createMock } from '../../src/index.js'
import { wildcardMatcher } from '../../src/world/wildcard.js'

// The audit's reproduction: a path the client chose, then a pattern that a backtracking matcher
// takes hours over. Today's answer must come at once; were it not to, the test process is stuck
// and tap's timeout fails it (a frozen event loop cannot answer a timer of its own).
const LONG_PATH = `/baas/${'a'.repeat(3000)}`
const HOSTILE = '*a*a*a*a!'

t.test('over HTTP, a pattern of many stars over a long path answers at once, and /healthz still does', async t => {
  const { call } = await buildTestApp(t)
  t.equal((await call('GET', LONG_PATH)).status, 404)
  const hostile = await call('GET', `/__mock/requests?path=${encodeURIComponent(HOSTILE)}`)
  t.equal(hostile.status, 200)
  t.same(hostile.body.data, [], 'no path ends in !')
  const found = await call('GET', `/__mock/requests?path=${encodeURIComponent('*a*a*a*a')}`)
  t.same(found.body.data.map((entry: { path: string }) => entry.path), [LONG_PATH])
  t.equal((await call('GET', '/healthz')).status, 200)
})

t.test('in process, session.journal.list({ path }) answers the same pattern at once', async t => {
  const mock = await createMock({ seed: 7, now: '2026-11-23T15:00:00Z' })
  t.teardown(() => mock.close())
  t.equal((await mock.fetch(LONG_PATH)).status, 404)
  t.same(await mock.session().journal.list({ path: HOSTILE }), [])
  t.equal((await mock.session().journal.list({ path: `*${'a*'.repeat(40)}` })).length, 1)
})

/** What a `*` pattern means, said the slow way: a regular expression, fine on short inputs. */
function reference (pattern: string, text: string): boolean {
  const escaped = pattern.split('*').map(piece => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${escaped.join('.*')}$`, 's').test(text)
}

t.test('the wildcard matcher agrees with the regular expression it replaces', async t => {
  const small = fc.string({ unit: fc.constantFrom('a', 'b', '/', '*', '.'), maxLength: 12 })
  fc.assert(fc.property(small, fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 16 }), (pattern, text) =>
    wildcardMatcher(pattern)(text) === reference(pattern, text)), { seed: 20261127, numRuns: 5000 })
  const cases: Array<[string, string, boolean]> = [
    ['/baas/*', '/baas/customers', true],
    ['/baas/*', '/baas', false],
    ['*', '', true],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['*b*', 'abc', true],
    ['/baas/debit-cards/*/lock', '/baas/debit-cards/card_1/lock', true],
    ['/baas/debit-cards/*/lock', '/baas/debit-cards/card_1/unlock', false],
    ['exact', 'exact', true],
    ['exact', 'exactly', false]
  ]
  for (const [pattern, text, expected] of cases) t.equal(wildcardMatcher(pattern)(text), expected, `${pattern} ~ ${text}`)
})
