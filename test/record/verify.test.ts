import t from 'tap'
import { startBackend, runFlow } from './backend.js'
import { startRecorder } from '../../src/record/proxy.js'
import { operationMatcher } from '../../src/record/operations.js'
import { learn } from '../../src/record/learn.js'
import { redactExchange } from '../../src/record/redact.js'
import { CannotVerifyError, describeDifferences, replayRequest, verify } from '../../src/record/verify.js'
import { junitXml } from '../../src/record/junit.js'
import { shapeDifferences } from '../../src/record/shape-diff.js'

/** A recorded corpus, and a second backend to stand for the mock: the comparison itself is under test here. */
async function recorded (t: { teardown: (fn: () => Promise<void>) => void }) {
  const backend = await startBackend()
  t.teardown(backend.close)
  const recorder = await startRecorder({ target: new URL(backend.url), host: '127.0.0.1', port: 0, matcher: operationMatcher({}) })
  await runFlow(recorder.url)
  await recorder.close()
  const { dialect } = learn(recorder.exchanges, { salt: 'saltsalt' })
  return { corpus: recorder.exchanges.map(redactExchange), dialect }
}

t.test('two backends that speak alike agree; a renamed field is named on both sides', async t => {
  const { corpus, dialect } = await recorded(t)
  const target = await startBackend()
  const twin = await startBackend()
  t.teardown(target.close)
  t.teardown(twin.close)
  const twinFetch = async (request: Request): Promise<Response> => await fetch(new URL(new URL(request.url).pathname, twin.url), request)
  const same = await verify({ corpus, target: new URL(target.url), mock: twinFetch, dialect })
  t.equal(same.length, 8)
  t.same(describeDifferences(same), [])

  const drifted = await startBackend()
  t.teardown(drifted.close)
  drifted.renameCardField()
  const cases = await verify({ corpus, target: new URL(drifted.url), mock: twinFetch, dialect })
  const lines = describeDifferences(cases)
  t.ok(lines.includes('lockCard /result/card/lastFour: missing in the backend'), lines.join('\n'))
  t.ok(lines.includes('lockCard /result/card/last4Digits: missing in the mock'))
  t.notOk(lines.some(l => l.startsWith('getCustomer')), 'the customer did not move')
  const xml = junitXml(cases)
  t.match(xml, /<testsuites name="baas-mock verify" tests="8" failures="4">/)
  t.match(xml, /<failure message="2 difference\(s\) between the backend and the mock">lockCard \/result\/card\/last4Digits: missing in the mock/)

  const reads = await verify({ corpus, target: new URL(drifted.url), mock: twinFetch, dialect, readOnly: true })
  t.same(reads.map(c => c.exchange.operation), ['getCustomer', 'getCustomer'], '--read-only replays reads only')
})

t.test('status, content type, JSON types and learned values are compared; values themselves are not', async t => {
  t.same(shapeDifferences({ a: 1, b: [{ c: 'x' }], d: null }, { a: 2, b: [{ c: 3 }], d: null }), [{ pointer: '/b/0/c', message: 'string in the backend, number in the mock' }])
  t.same(shapeDifferences([], [{ a: 1 }]), [], 'an empty list has no item to compare')
  const { corpus, dialect } = await recorded(t)
  const target = await startBackend()
  t.teardown(target.close)
  const answering = (status: number, body: string, type = 'application/json') => async (): Promise<Response> => new Response(body, { status, headers: { 'content-type': type } })
  const lock = corpus.filter(e => e.operation === 'lockCard').slice(0, 1)
  const [state] = await verify({ corpus: lock, target: new URL(target.url), mock: answering(200, '{"result":{"card":{"cardId":"x","lockState":"frozen","lastFour":"1","cardKind":"virtual","nickname":"n","modifiedAt":"t"}}}'), dialect })
  t.same(state?.differences, [{ pointer: '/result/card/lockState', message: '"frozen" in the mock is not a learned value ("off", "on")' }])
  const [status] = await verify({ corpus: lock, target: new URL(target.url), mock: answering(404, 'no', 'text/plain'), dialect })
  t.same(status?.differences.map(d => d.message), ['status 200 in the backend, 404 in the mock', 'content type application/json in the backend, text/plain in the mock'])
  t.same(describeDifferences([{ index: 0, exchange: lock[0] as never, differences: [{ pointer: '', message: 'm' }] }]), ['lockCard (answer): m'])
})

t.test('a target that does not answer cannot be verified', async t => {
  const { corpus } = await recorded(t)
  const gone = await startBackend()
  await gone.close()
  await t.rejects(verify({ corpus, target: new URL(gone.url), mock: async () => new Response('{}') }), CannotVerifyError)
})

t.test('a replayed request keeps the recorded one but its redacted values, and keeps a base path', async t => {
  const request = replayRequest({
    operation: 'updateCustomer', params: {},
    request: { method: 'PUT', path: '/baas/customers', query: 'a=1', headers: { authorization: '[redacted]', 'content-type': 'application/json', host: 'x' }, json: { a: 1 } },
    response: { status: 200, headers: {} }
  }, 'https://dev.example.com/api/', { authorization: 'Bearer ci' })
  t.equal(request.url, 'https://dev.example.com/api/baas/customers?a=1')
  t.equal(request.headers.get('authorization'), 'Bearer ci')
  t.equal(await request.text(), '{"a":1}')
})
