import { Type } from 'typebox'
import t from 'tap'
import { compiledCheck } from '../../src/world/compiled-check.js'
import { compiledCheck as browserCheck } from '../../src/world/compiled-check.browser.js'

// The browser build checks stored shapes with Ajv in place of TypeBox's compiler: both must accept
// and refuse the same values (a paging cursor, a stored answer).

const Cursor = Type.Object({
  q: Type.String(),
  p: Type.Array(Type.Union([Type.String(), Type.Number()])),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  status: Type.Optional(Type.Integer()),
  kind: Type.Optional(Type.Union([Type.Literal('a'), Type.Null()]))
}, { additionalProperties: false })

const VALUES: unknown[] = [
  { q: 'x', p: [] },
  { q: 'x', p: ['a', 1.5], headers: { etag: '"1"' }, status: 200, kind: 'a' },
  { q: 'x', p: [], kind: null },
  { q: 'x', p: [true] },
  { q: 'x', p: [], status: 1.5 },
  { q: 'x', p: [], kind: 'b' },
  { q: 'x', p: [], headers: { n: 1 } },
  { q: 'x', p: [], extra: 1 },
  { p: [] },
  null,
  'text',
  [{ q: 'x', p: [] }]
]

t.test('the browser\'s check, compiled by Ajv, agrees with TypeBox\'s on every value', async t => {
  const node = compiledCheck(Cursor)
  const browser = browserCheck(Cursor)
  const verdicts = VALUES.map(value => node(value))
  t.same(VALUES.map(value => browser(value)), verdicts)
  t.same(verdicts, [true, true, true, false, false, false, false, false, false, false, false, false], 'the values are the cases meant')
})
