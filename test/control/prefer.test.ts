import t from 'tap'
import type { HttpProblem } from '../../src/transports/fastify/problem.js'
import { MAX_DELAY_MS, parsePrefer, preferenceApplied } from '../../src/core/prefer.js'

t.test('parses code, example and delay; ignores what it does not know', async t => {
  t.same(parsePrefer(undefined), {})
  t.same(parsePrefer('code=503'), { code: 503 })
  t.same(parsePrefer('example="processor-timeout"; x=1, delay=800, respond-async, wait=10'), { example: 'processor-timeout', delay: 800 })
  t.same(parsePrefer(['code=404', 'example=minimal']), { code: 404, example: 'minimal' }, 'repeated headers combine')
  t.same(parsePrefer(' CODE = 201 '), { code: 201 })
  t.equal(parsePrefer('delay=999999').delay, MAX_DELAY_MS, 'delays are capped')
})

t.test('bad values of known preferences are 400 invalid_prefer', async t => {
  for (const header of ['code=99', 'code=600', 'code=150', 'code=abc', 'delay=-1', 'delay=1.5', 'example=../etc']) {
    const error = t.throws(() => parsePrefer(header)) as HttpProblem
    t.equal(error.body.status, 400, header)
    t.equal(error.body.code, 'invalid_prefer', header)
    t.equal(error.body.errors?.[0]?.pointer, '/headers/prefer', header)
  }
})

t.test('Preference-Applied lists only what was honoured', async t => {
  const prefs = { code: 503, example: 'x', delay: 10 }
  t.equal(preferenceApplied(prefs, { code: true, delay: true }), 'code=503, delay=10')
  t.equal(preferenceApplied(prefs, {}), undefined)
  t.equal(preferenceApplied({}, { code: true }), undefined)
})
