import t from 'tap'
import { setupServer } from 'msw/node'
import { createMock, startServer } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { dialectWorld } from './world.js'

// What is refused before an operation runs (routing, the body parser) speaks the team's error
// shape too, over the three ways in; the control plane and paths outside the API's keep problem+json.
const fixtures = dialectWorld({
  // A scenario with an error shape of its own: a session in it is refused in that one.
  'scenarios/new-customer/dialect.yaml': 'shapes:\n  Problem:\n    fields: { /message: /detail, /http_status: /status }\n'
})
const OPTIONS = { seed: 7, now: '2027-01-10T12:00:00Z', publicUrl: 'http://mock.test', fixtures, bodyLimit: 1024 }

type Send = (path: string, init?: RequestInit) => Promise<Response>
interface Seen { step: string; status: number; contentType: string | null; allow: string | null; body: string }

const jsonText = (method: string, text: string, headers: Record<string, string> = {}): RequestInit =>
  ({ method, headers: { 'content-type': 'application/json', ...headers }, body: text })

// MSW's handlers match the mock's routes only: a path no route has is MSW's own (onUnhandledRequest).
const UNROUTED = new Set(['unknown path', 'control plane unknown', 'outside the API', 'unknown path in the session'])

async function flow (send: Send, routedOnly = false): Promise<Seen[]> {
  const seen: Seen[] = []
  const step = async (name: string, path: string, init?: RequestInit): Promise<void> => {
    if (routedOnly && UNROUTED.has(name)) return
    const response = await send(path, init)
    seen.push({ step: name, status: response.status, contentType: response.headers.get('content-type'), allow: response.headers.get('allow'), body: await response.text() })
  }
  await step('malformed JSON to lock', '/baas/debit-cards/card_maya_virtual/lock', jsonText('POST', '{"reason":'))
  await step('malformed JSON to update', '/baas/customers', jsonText('PUT', '{"data": {'))
  await step('a prototype key', '/baas/customers', jsonText('PUT', '{"__proto__": {"x": 1}}'))
  await step('wrong content type', '/baas/customers', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'maya@team.example' })
  await step('too large', '/baas/customers', jsonText('PUT', JSON.stringify({ data: { attributes: { given_name: 'x'.repeat(2000) } } })))
  await step('unknown path', '/baas/nothing-here')
  await step('wrong method', '/baas/customers', { method: 'DELETE' })
  await step('control plane unknown', '/__mock/nothing-here')
  await step('outside the API', '/nothing-here')
  await step('state after the refusals', '/__mock/state')
  await step('switch a session', '/__mock/reset', jsonText('POST', '{"scenario": "new-customer"}', { 'x-mock-session': 'other' }))
  await step('unknown path in the session', '/baas/nothing-here', { headers: { 'x-mock-session': 'other' } })
  await step('malformed JSON in the session', '/baas/customers', jsonText('PUT', '{', { 'x-mock-session': 'other' }))
  return seen
}

const find = (seen: Seen[], step: string): Seen => {
  const found = seen.find(s => s.step === step)
  if (found === undefined) throw new Error(`no step ${step}`)
  return found
}
const body = (seen: Seen[], step: string): any => JSON.parse(find(seen, step).body) // eslint-disable-line @typescript-eslint/no-explicit-any

t.test('refusals before an operation runs are in the dialect\'s error shape, alike over HTTP, mock.fetch and MSW', async t => {
  const server = await startServer(OPTIONS)
  t.teardown(() => server.close())
  const overHttp = await flow((path, init) => fetch(server.url + path, init))
  // The server's router refuses a bad %-escape before routing (the Fetch router finds no route for it: a 404).
  const malformed = await fetch(server.url + '/baas/debit-cards/%zz/lock', { method: 'POST' })
  const malformedSeen = { step: 'malformed URL', status: malformed.status, contentType: malformed.headers.get('content-type'), allow: null, body: await malformed.text() }

  const mock = await createMock(OPTIONS)
  t.teardown(() => mock.close())
  const inProcess = await flow((path, init) => mock.fetch(path, init))

  const msw = setupServer(...createHandlers({ baseUrl: 'https://bank.example', ...OPTIONS }))
  msw.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => msw.close())
  const throughMsw = await flow((path, init) => fetch('https://bank.example' + path, init), true)

  t.same(inProcess, overHttp, 'mock.fetch answers the bytes the server does')
  t.same(throughMsw, overHttp.filter(s => !UNROUTED.has(s.step)), 'MSW answers the bytes the server does')

  const seen = overHttp
  const teamError = (step: string, status: number, code: string): void => {
    t.equal(find(seen, step).status, status, `${step}: the status is kept`)
    t.equal(find(seen, step).contentType, 'application/json; charset=utf-8', `${step}: the error shape's content type`)
    t.same(Object.keys(body(seen, step)), ['errors'], `${step}: the team's error shape`)
    t.match(body(seen, step).errors[0], { status, code, detail: String }, step)
    t.notOk('source' in body(seen, step).errors[0], `${step}: no field to point at`)
  }
  teamError('malformed JSON to lock', 400, 'malformed_json')
  teamError('malformed JSON to update', 400, 'malformed_json')
  teamError('a prototype key', 400, 'forbidden_json_key')
  teamError('wrong content type', 415, 'unsupported_media_type')
  teamError('too large', 413, 'body_too_large')
  teamError('unknown path', 404, 'route_not_found')
  teamError('wrong method', 405, 'method_not_allowed')
  t.match(find(seen, 'wrong method').allow, /PUT/, 'a 405 still says what the path answers')
  seen.push(malformedSeen)
  teamError('malformed URL', 400, 'malformed_url')

  for (const step of ['control plane unknown', 'outside the API']) {
    t.equal(find(seen, step).status, 404)
    t.equal(find(seen, step).contentType, 'application/problem+json; charset=utf-8', `${step}: the mock's own, problem+json`)
    t.match(body(seen, step), { status: 404, code: 'route_not_found' })
  }
  t.equal(body(seen, 'state after the refusals').debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'ACTIVE', 'a refused lock changed nothing')

  t.equal(find(seen, 'switch a session').status, 200)
  t.same(body(seen, 'unknown path in the session'), { message: body(seen, 'unknown path').errors[0].detail, http_status: 404 }, 'the session\'s scenario\'s error shape')
  t.match(body(seen, 'malformed JSON in the session'), { message: /not valid JSON/, http_status: 400 })
})

t.test('a dialect without a Problem shape refuses in problem+json', async t => {
  const world = dialectWorld({ 'dialect.yaml': 'shapes:\n  Customer:\n    fields: { /given_name: /firstName }\n' }, false)
  const mock = await createMock({ ...OPTIONS, fixtures: world })
  t.teardown(() => mock.close())
  const response = await mock.fetch('/baas/customers', jsonText('PUT', '{'))
  t.equal(response.status, 400)
  t.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8')
  t.match(await response.json(), { status: 400, code: 'malformed_json' })
})
