import t from 'tap'
import { FORMAT_WORDS, minorUnitsWords, PATTERN_WORDS, patternWords, formatWords } from '../../src/core/validation-words.js'
import { createMock } from '../../src/index.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

const INTERNAL = '/baas/scheduled-transfers/internal'
const internalBody = (over: Record<string, unknown> = {}) => ({
  fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 25000, frequency: 'MONTHLY', startDate: '2026-12-10', ...over
})

interface Refusal { code: string; detail: string; errors: Array<{ pointer: string; message: string }> }

t.test('an amount in dollars is answered with the minor units meant, the code unchanged', async t => {
  const { call } = await buildTestApp(t)
  const transfers = async (): Promise<number> => (await call('GET', '/__mock/state')).body.scheduledTransfers.length as number
  const before = await transfers()
  const asText = await call('POST', INTERNAL, { token: TOKENS.maya, body: internalBody({ amount: '25.00' }) })
  t.equal(asText.status, 400)
  t.match(asText.body, { code: 'validation_failed' })
  t.same((asText.body as Refusal).errors, [{ pointer: '/amount', message: 'must be an integer amount in minor units (cents): send 2500 for $25.00 (a number, not a string)' }])
  const decimal = await call('POST', INTERNAL, { token: TOKENS.maya, body: internalBody({ amount: 25.5 }) })
  t.equal((decimal.body as Refusal).detail, 'The request body is invalid: /amount must be an integer amount in minor units (cents): send 2550 for $25.50.')
  // Scheduled transfers' updates and ACH ones share the one definition of an amount.
  const created = await call('POST', INTERNAL, { token: TOKENS.maya, body: internalBody() })
  const update = await call('POST', `/baas/scheduled-transfers/${String(created.body.id)}`, { token: TOKENS.maya, body: { amount: 'lots' } })
  t.same((update.body as Refusal).errors, [{ pointer: '/amount', message: 'must be an integer amount in minor units (cents): send 2500 for $25.00' }], 'no number in it: a generic example')
  const count = await call('POST', INTERNAL, { token: TOKENS.maya, body: internalBody({ numberOfOccurrences: 2.5 }) })
  t.same((count.body as Refusal).errors, [{ pointer: '/numberOfOccurrences', message: 'must be integer' }], 'an integer that is no amount: no cents')
  t.equal(await transfers(), before + 1, 'nothing made of the refused ones')
})

t.test('the minor units of what was sent, when it has whole cents', async t => {
  t.match(minorUnitsWords(12.34), /send 1234 for \$12\.34$/)
  t.match(minorUnitsWords('$7.5'), /send 750 for \$7\.50 \(a number, not a string\)$/)
  t.match(minorUnitsWords('2500'), /send 2500 for \$25\.00 \(a number, not a string\)$/, 'digits as text are cents already')
  t.match(minorUnitsWords(25.555), /send 2500 for \$25\.00$/, 'finer than a cent: no conversion to offer')
  t.match(minorUnitsWords(-3.5), /send 2500 for \$25\.00$/, 'no negative example')
  t.match(minorUnitsWords(null), /send 2500 for \$25\.00$/)
})

t.test('an unknown field names the one meant', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', INTERNAL, { token: TOKENS.maya, body: { ...internalBody({ amount: undefined }), ammount: 2500 } })
  t.equal(res.status, 400)
  t.same((res.body as Refusal).errors, [{ pointer: '/amount', message: 'is required' }, { pointer: '/ammount', message: 'is not a known field; did you mean "amount"?' }])
  const far = await call('POST', INTERNAL, { token: TOKENS.maya, body: internalBody({ colour: 'red' }) })
  t.same((far.body as Refusal).errors, [{ pointer: '/colour', message: 'is not a known field' }], 'nothing near: no guess')
  t.equal((far.body as Refusal).detail, 'The request body is invalid: /colour is not a known field.')
})

t.test('formats and patterns are said in words, never as a regex', async t => {
  const { call } = await buildTestApp(t)
  const phone = await call('POST', '/mfa/send-code', { token: TOKENS.jordan, body: { phone: '(415) 555-0123' } })
  t.equal(phone.status, 400)
  t.same((phone.body as Refusal).errors, [{ pointer: '/phone', message: 'must be a phone number in E.164, e.g. +14155550123' }])
  const date = await call('POST', INTERNAL, { token: TOKENS.maya, body: internalBody({ startDate: '12/10/2026' }) })
  t.same((date.body as Refusal).errors, [{ pointer: '/startDate', message: 'must be a calendar date, YYYY-MM-DD, e.g. 2026-12-01' }])
  const id = await call('GET', '/__mock/faults/nope')
  t.match((id.body as Refusal).errors, [{ pointer: '/faultId', message: 'must be a fault id, e.g. fault_1' }])
  t.equal(patternWords('^x$'), formatWords('unheard-of'), 'one not in the table: words all the same')
  t.notMatch(patternWords('^x$'), /\^/)
})

t.test('the in-process mock answers the same words', async t => {
  const mock = await createMock({ seed: 1 })
  t.teardown(() => mock.close())
  const res = await mock.fetch(INTERNAL, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}`, 'content-type': 'application/json' }, body: JSON.stringify(internalBody({ amount: 25.5 })) })
  t.equal(res.status, 400)
  t.match(await res.json(), { code: 'validation_failed', errors: [{ pointer: '/amount', message: /send 2550 for \$25\.50/ }] })
})

type Schema = Record<string, unknown>

/** Every pattern and format in a schema, following $refs into the document's components. */
function forms (schema: unknown, doc: { components: { schemas: Record<string, Schema> } }, found: Set<string>, seen = new Set<unknown>()): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return
  seen.add(schema)
  const s = schema as Schema
  if (typeof s.$ref === 'string') forms(doc.components.schemas[s.$ref.split('/').at(-1) as string], doc, found, seen)
  if (typeof s.pattern === 'string') found.add(`pattern ${s.pattern}`)
  if (typeof s.format === 'string') found.add(`format ${s.format}`)
  for (const value of Object.values(s)) forms(value, doc, found, seen)
}

t.test('every pattern and format of every request schema has words', async t => {
  const { call } = await buildTestApp(t)
  const doc = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: unknown[]; requestBody?: unknown }>>; components: { schemas: Record<string, Schema> } }
  const found = new Set<string>()
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      forms(op.parameters, doc, found)
      forms(op.requestBody, doc, found)
    }
  }
  t.ok(found.has('pattern ^\\+[1-9]\\d{1,14}$') && found.has('pattern ^fault_\\d{1,9}$') && found.has('format date'), 'the walk reaches the API and the control plane')
  const unworded = [...found].filter(form => form.startsWith('pattern ') ? PATTERN_WORDS[form.slice(8)] === undefined : FORMAT_WORDS[form.slice(7)] === undefined)
  t.same(unworded, [], 'add these to src/core/validation-words.ts')
})
