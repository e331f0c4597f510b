import t from 'tap'
import { startRecorder, STOP_PATH } from '../../src/record/proxy.js'
import { operationMatcher } from '../../src/record/operations.js'
import { learn } from '../../src/record/learn.js'
import { mockCodeFor } from '../../src/record/learn-errors.js'
import { OPERATIONS_BY_ID } from '../../src/core/operations.js'
import type { Exchange } from '../../src/record/exchange.js'
import { startBackend } from './backend.js'

t.test('POST /__mock/record/stop asks the recorder to stop; a target that does not answer is a 502 to the client, not kept', async t => {
  const gone = await startBackend()
  await gone.close()
  const errors: string[] = []
  const recorder = await startRecorder({ target: new URL(gone.url), host: '127.0.0.1', port: 0, matcher: operationMatcher({}), onError: line => errors.push(line) })
  t.teardown(recorder.close)
  const res = await fetch(`${recorder.url}/baas/customers`)
  t.equal(res.status, 502)
  t.match(await res.json(), { code: 'target_unreachable' })
  t.equal(recorder.exchanges.length, 0)
  t.match(errors[0], /GET \/baas\/customers: the target did not answer/)
  const stop = await fetch(`${recorder.url}${STOP_PATH}`, { method: 'POST' })
  t.equal(stop.status, 202)
  await recorder.stopRequested
})

const exchange = (operation: string, params: Record<string, string>, status: number, json: unknown, path = '/x'): Exchange => ({
  operation, params, request: { method: 'POST', path, query: '', headers: {} }, response: { status, headers: { 'content-type': 'application/json' }, json }
})

t.test('what a recording cannot show is left for a hand edit, and said so', async t => {
  const { notes, fixtures, dialect } = learn([
    exchange('lockCard', { cardId: 'c1' }, 200, { id: 'c1', state: 'LOCKED' }),
    exchange('lockCard', { cardId: 'bad id!' }, 200, { id: 'bad id!', state: 'LOCKED' }),
    exchange('reissueCard', { cardId: 'c1' }, 422, { err: { kind: 'BAD', text: 'Not like that', at: 1 } }),
    exchange('sendStatementByEmail', { statementId: 'st_1' }, 202, { ok: true }),
    exchange('listScheduledTransfers', {}, 200, { items: [] })
  ], { salt: 'saltsalt' })
  t.match(notes.edit.join('\n'), /no field changed between lockCard and unlockCard/)
  t.match(notes.edit.join('\n'), /reissueCard answered 422 "BAD", which the status does not tie/)
  t.match(notes.edit.join('\n'), /DebitCard bad id!: the id is not one the mock's fixtures take/)
  t.match(notes.edit.join('\n'), /scheduled transfers were seen \(listScheduledTransfers\)/)
  t.match(notes.guessed.join('\n'), /cus_recorded is made up/)
  t.same(fixtures.statements.map(s => s.id), ['st_1'])
  t.same(fixtures['debit-cards'].map(c => [c.id, c.status]), [['c1', 'ACTIVE']], 'an unbound state is a guess: ACTIVE')
  t.same(dialect.shapes?.Problem, { envelope: '/err', fields: { '/kind': { from: '/code', values: {} }, '/text': '/detail', '/at': { const: 1 } }, contentType: 'application/json' })
  t.equal(mockCodeFor(OPERATIONS_BY_ID.get('getCustomer') as never, 401), 'unauthenticated')
  t.equal(mockCodeFor(OPERATIONS_BY_ID.get('lockCard') as never, 409), 'invalid_card_state')
  t.equal(mockCodeFor(OPERATIONS_BY_ID.get('lockCard') as never, 400), 'validation_failed')
})

t.test('bodies past the cap go through whole but are not kept (truncated); the stop is refused to other sites; own failures are problems with a code', async t => {
  const backend = await startBackend()
  t.teardown(backend.close)
  const recorder = await startRecorder({ target: new URL(backend.url), host: '127.0.0.1', port: 0, matcher: operationMatcher({}), bodyCap: 16 })
  t.teardown(recorder.close)
  const res = await fetch(`${recorder.url}/baas/customers`)
  const text = await res.text()
  t.equal(text, backend.sent[0]?.body, 'the client gets the whole answer')
  t.ok(text.length > 16)
  t.same(recorder.exchanges[0]?.response.truncated, true)
  t.equal(recorder.exchanges[0]?.response.json, undefined)

  for (const headers of [{ origin: 'https://evil.example' } as Record<string, string>, { 'sec-fetch-site': 'cross-site' }, { origin: 'http://localhost:1' }, { origin: 'not a url' }]) {
    const refused = await fetch(`${recorder.url}${STOP_PATH}`, { method: 'POST', headers })
    t.equal(refused.status, 403, JSON.stringify(headers))
    t.match(await refused.json(), { code: 'cross_site_refused' })
  }
  const port = new URL(recorder.url).port
  const same = await fetch(`${recorder.url}${STOP_PATH}`, { method: 'POST', headers: { origin: `http://localhost:${port}` } })
  t.equal(same.status, 202, 'its own page by another loopback name')
  await recorder.stopRequested
})

t.test('a recorded request whose body was not kept is not replayed', async t => {
  const { verify } = await import('../../src/record/verify.js')
  const skipped: string[] = []
  const corpus: Exchange[] = [{ ...exchange('updateCustomer', {}, 200, {}), request: { method: 'PUT', path: '/baas/customers', query: '', headers: {}, truncated: true } }]
  const cases = await verify({ corpus, target: new URL('http://127.0.0.1:1'), mock: async () => new Response(''), onSkip: line => skipped.push(line) })
  t.equal(cases.length, 0)
  t.match(skipped[0], /not replayed, its request holds a redacted value or a body too large to keep/)
})
