import t from 'tap'
import { setupServer } from 'msw/node'
import { createMock, startServer } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { dialectWorld } from './world.js'

// The suite's dialect (test/dialect/fixtures-dialect/dialect.yaml) over the bundled world, through
// the three ways in: the same flow must answer the same bytes and change the same state.
const fixtures = dialectWorld()
const OPTIONS = { seed: 7, now: '2027-01-10T12:00:00Z', publicUrl: 'http://mock.test', fixtures }

type Send = (path: string, init?: RequestInit) => Promise<Response>
interface Seen { step: string; status: number; contentType: string | null; body: string }

const json = (method: string, body?: unknown): RequestInit =>
  body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }

const ADDRESS = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }

async function flow (send: Send): Promise<Seen[]> {
  const seen: Seen[] = []
  const step = async (name: string, path: string, init?: RequestInit): Promise<unknown> => {
    const response = await send(path, init)
    const body = await response.text()
    seen.push({ step: name, status: response.status, contentType: response.headers.get('content-type'), body })
    return body === '' ? undefined : JSON.parse(body)
  }
  await step('lock', '/baas/debit-cards/card_maya_virtual/lock', json('POST'))
  await step('state after lock', '/__mock/state')
  await step('unlock', '/baas/debit-cards/card_maya_virtual/unlock', json('PUT'))
  await step('state after unlock', '/__mock/state')
  await step('lock an unknown card', '/baas/debit-cards/nope/lock', json('POST'))
  await step('lock a closed card', '/baas/debit-cards/card_sam_lost/lock', { method: 'POST', headers: { authorization: 'Bearer tok_sam' } })
  await step('update', '/baas/customers', json('PUT', { data: { id: 'cus_maya', type: 'customer', attributes: { email_address: 'maya@team.example', phone_number: '+14155550123', home_address: ADDRESS } } }))
  await step('read after update', '/baas/customers')
  await step('update with an unknown field', '/baas/customers', json('PUT', { data: { type: 'customer', attributes: { email_adress: 'x@team.example', phone_number: '+14155550123', home_address: ADDRESS } } }))
  await step('update with a bad email', '/baas/customers', json('PUT', { data: { type: 'customer', attributes: { email_address: 'not-an-email', phone_number: '+14155550123', home_address: ADDRESS } } }))
  await step('update of another type', '/baas/customers', json('PUT', { data: { type: 'card', attributes: { email_address: 'x@team.example', phone_number: '+14155550123', home_address: ADDRESS } } }))
  await step('read after refusals', '/baas/customers')
  await step('reissue', '/baas/debit-cards/card_maya_virtual/reissue', json('POST', { data: { attributes: { reason: 'damaged' } } }))
  await step('reissue with a reason the team has not', '/baas/debit-cards/card_maya_physical/reissue', json('POST', { data: { attributes: { reason: 'bored' } } }))
  await step('transfers', '/baas/scheduled-transfers')
  await step('events', '/__mock/webhooks/events?type=card.locked')
  await step('bad query', '/baas/scheduled-transfers?limit=0')
  return seen
}

const find = (seen: Seen[], step: string): Seen => {
  const found = seen.find(s => s.step === step)
  if (found === undefined) throw new Error(`no step ${step}`)
  return found
}
const body = (seen: Seen[], step: string): any => JSON.parse(find(seen, step).body) // eslint-disable-line @typescript-eslint/no-explicit-any

t.test('the HTTP server, mock.fetch and MSW speak the dialect alike, and the state changes underneath', async t => {
  const server = await startServer(OPTIONS)
  t.teardown(() => server.close())
  const overHttp = await flow((path, init) => fetch(server.url + path, init))

  const mock = await createMock(OPTIONS)
  t.teardown(() => mock.close())
  const inProcess = await flow((path, init) => mock.fetch(path, init))

  const msw = setupServer(...createHandlers({ baseUrl: 'https://bank.example', ...OPTIONS }))
  msw.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => msw.close())
  const throughMsw = await flow((path, init) => fetch('https://bank.example' + path, init))

  t.same(inProcess, overHttp, 'mock.fetch answers the bytes the server does')
  t.same(throughMsw, overHttp, 'MSW answers the bytes the server does')

  const seen = overHttp
  const locked = body(seen, 'lock')
  t.equal(find(seen, 'lock').status, 200)
  t.equal(find(seen, 'lock').contentType, 'application/json; charset=utf-8')
  t.same(Object.keys(locked), ['data'], 'a whole answer sits in the envelope')
  t.match(locked.data, { id: 'card_maya_virtual', type: 'card', attributes: { card_state: 'frozen', last_4: String, kind: 'virtual', nickname: 'Groceries', updated_at: String } })
  t.same(Object.keys(locked.data.attributes), ['card_state', 'last_4', 'kind', 'nickname', 'updated_at'], 'only the fields the shape lists')
  const cardIn = (step: string): any => body(seen, step).debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual') // eslint-disable-line @typescript-eslint/no-explicit-any
  t.equal(cardIn('state after lock').status, 'LOCKED', '/__mock/state keeps the mock\'s model')
  t.equal(body(seen, 'unlock').data.attributes.card_state, 'active')
  t.equal(cardIn('state after unlock').status, 'ACTIVE')

  t.equal(find(seen, 'lock an unknown card').status, 404)
  t.equal(find(seen, 'lock an unknown card').contentType, 'application/json; charset=utf-8', 'the error shape\'s content type')
  t.match(body(seen, 'lock an unknown card'), { errors: [{ status: 404, code: 'NOT_FOUND', detail: String }] })
  t.same(Object.keys(body(seen, 'lock an unknown card')), ['errors'])
  t.match(body(seen, 'lock a closed card'), { errors: [{ status: 409, code: 'card_closed' }] }, 'a code the map leaves out passes through')

  t.equal(find(seen, 'update').status, 200)
  t.equal(body(seen, 'update').data.attributes.email_address, 'maya@team.example')
  t.equal(body(seen, 'read after update').data.attributes.email_address, 'maya@team.example', 'the update changed what the read answers')
  t.equal(body(seen, 'read after update').data.attributes.greeting, 'Hi Maya', 'a computed field')

  t.equal(find(seen, 'update with an unknown field').status, 400)
  t.match(body(seen, 'update with an unknown field'), { errors: [{ code: 'validation_failed', source: { pointer: '/data/attributes/email_adress' } }] })
  t.equal(find(seen, 'update with a bad email').status, 400)
  t.match(body(seen, 'update with a bad email'), { errors: [{ code: 'validation_failed', source: { pointer: '/data/attributes/email_address' } }] }, 'the mock\'s /email named as the team\'s field')
  t.match(body(seen, 'update of another type'), { errors: [{ source: { pointer: '/data/type' }, detail: /must be "customer"/ }] })
  t.equal(body(seen, 'read after refusals').data.attributes.email_address, 'maya@team.example', 'nothing changed')

  t.equal(find(seen, 'reissue').status, 201)
  t.match(body(seen, 'reissue').data, { type: 'card', attributes: { card_state: 'active', kind: 'virtual' } })
  t.equal(find(seen, 'reissue with a reason the team has not').status, 400)
  t.match(body(seen, 'reissue with a reason the team has not'), { errors: [{ source: { pointer: '/data/attributes/reason' } }] })

  const transfers = body(seen, 'transfers')
  t.ok(Array.isArray(transfers.items) && transfers.items.length > 0)
  t.match(transfers.items[0], { id: String, amount_cents: Number, state: /^(active|done|cancelled|failed)$/ })
  t.ok(transfers.items.some((x: { runs?: unknown[] }) => x.runs?.every(run => typeof (run as { on: unknown }).on === 'string')), 'executions through the nested shape')

  const [event] = body(seen, 'events').data
  t.match(event, { type: 'card.locked', data: { id: 'card_maya_virtual', type: 'card', attributes: { card_state: 'frozen', nickname: 'Groceries' } }, previousAttributes: { attributes: { card_state: 'active' } } })
  t.notOk('data' in event.data, 'an event\'s data carries no envelope')
  t.same(Object.keys(event.previousAttributes.attributes), ['card_state'], 'previousAttributes: only the fields it holds')

  t.equal(find(seen, 'bad query').status, 400)
  t.match(body(seen, 'bad query'), { errors: [{ code: 'validation_failed', source: { pointer: '/limit' } }] })
})
