import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createMock, startServer } from '../../src/index.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { dialectWorld } from './world.js'

// The issue's own file, beside the bundled examples of lockCard.
const LOCK_EXAMPLES = readFileSync(join(BUNDLED_FIXTURES, 'responses', 'lockCard.yaml'), 'utf8') + `
ours:
  default: true
  mode: reshape
  body: { card_state: "{{answer.status}}", card: "{{answer.id}}" }
`
const UNLOCK_EXAMPLES = `
ours:
  default: true
  mode: reshape
  status: 202
  headers: { x-team: "{{status}} {{operationId}}" }
  body: "state {{answer.status}}"
`

t.test('a reshaping example: the operation runs, its success is answered in the example\'s shape', async t => {
  const fixtures = dialectWorld({ 'responses/lockCard.yaml': LOCK_EXAMPLES, 'responses/unlockCard.yaml': UNLOCK_EXAMPLES }, false)
  const mock = await createMock({ fixtures, seed: 3 })
  t.teardown(() => mock.close())
  const status = async (id: string): Promise<string> => {
    const state = await (await mock.fetch('/__mock/state')).json() as { debitCards: Array<{ id: string; status: string }> }
    return state.debitCards.find(card => card.id === id)?.status ?? 'none'
  }

  const lock = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { 'idempotency-key': 'k1' } })
  t.equal(lock.status, 200)
  t.equal(lock.headers.get('x-mock-source'), 'override')
  const text = await lock.text()
  t.equal(text, '{"card_state":"LOCKED","card":"card_maya_virtual"}')
  t.equal(await status('card_maya_virtual'), 'LOCKED', 'the state changed')
  const events = await (await mock.fetch('/__mock/webhooks/events?type=card.locked')).json() as { data: unknown[] }
  t.equal(events.data.length, 1, 'the event was recorded')
  const journal = await (await mock.fetch('/__mock/requests')).json() as { data: Array<{ operationId: string; status: number }> }
  t.ok(journal.data.some(entry => entry.operationId === 'lockCard' && entry.status === 200), 'the journal has it')

  const replay = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { 'idempotency-key': 'k1' } })
  t.equal(replay.headers.get('idempotent-replayed'), 'true')
  t.equal(await replay.text(), text, 'a replay answers the same bytes')

  const unknown = await mock.fetch('/baas/debit-cards/nope/lock', { method: 'POST' })
  t.equal(unknown.status, 404, 'an error stays the operation\'s own')
  t.equal(unknown.headers.get('content-type'), 'application/problem+json; charset=utf-8')
  t.match(await unknown.json(), { code: 'card_not_found' })

  const timeout = await mock.fetch('/baas/debit-cards/card_jordan_virtual/lock', { method: 'POST', headers: { prefer: 'example=processor-timeout, delay=0' } })
  t.equal(timeout.status, 504, 'a replacing example answers instead of the operation')
  t.equal(await status('card_jordan_virtual'), 'ACTIVE', 'and runs none')

  const unlock = await mock.fetch('/baas/debit-cards/card_maya_virtual/unlock', { method: 'PUT' })
  t.equal(unlock.status, 202, 'the example\'s status applies')
  t.equal(unlock.headers.get('x-team'), '200 unlockCard', 'headers see the operation\'s status')
  t.equal(await unlock.text(), "state ACTIVE")
  t.equal(unlock.headers.get('content-type'), 'text/plain; charset=utf-8')
  t.equal(await status('card_maya_virtual'), 'ACTIVE')

  const server = await startServer({ fixtures, seed: 3 })
  t.teardown(() => server.close())
  const overHttp = await fetch(`${server.url}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST' })
  t.equal(await overHttp.text(), '{"card_state":"LOCKED","card":"card_maya_virtual"}', 'the server answers the same')
})

t.test('a reshaping example with a dialect: its text is sent as written; errors take the error shape', async t => {
  const fixtures = dialectWorld({ 'responses/lockCard.yaml': LOCK_EXAMPLES })
  const mock = await createMock({ fixtures })
  t.teardown(() => mock.close())
  const lock = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST' })
  t.equal(await lock.text(), '{"card_state":"LOCKED","card":"card_maya_virtual"}')
  const unknown = await mock.fetch('/baas/debit-cards/nope/lock', { method: 'POST' })
  t.match(await unknown.json(), { errors: [{ code: 'NOT_FOUND' }] })
})
