import { setupServer } from 'msw/node'
import t from 'tap'
import { createHandlers } from '../../src/msw.js'
import { createMock } from '../../src/index.js'
import { FeedReader } from '../helpers/feed-reader.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'

const BANK = 'https://bank.example'

t.test('the dashboard feed through MSW: events awaited together, in any order, all arrive', async t => {
  const mock = await createMock({ seed: 7, now: TEST_NOW.toISOString() })
  t.teardown(() => mock.close())
  const msw = setupServer(...createHandlers({ baseUrl: BANK, mock }))
  msw.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => msw.close())
  const response = await fetch(`${BANK}/__mock/events?session=watched`)
  t.equal(response.status, 200)
  const feed = new FeedReader(response.body)
  t.teardown(() => feed.close())
  await feed.next('hello')
  // Both waits begin before the write: one slot for a waiter woke only the last, and the first waited for good.
  const seen = Promise.all([feed.next('request'), feed.next('change'), feed.next('request', entry => entry.status === 200)])
  const lock = await fetch(`${BANK}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'watched' } })
  t.equal(lock.status, 200)
  const [request, change] = await seen
  t.match(request.data, { method: 'POST', operationId: 'lockCard', status: 200 })
  t.match(change.data, { method: 'POST', status: 200, session: 'watched' })
})

t.test('a wait whose event never comes fails at its own deadline while another waits too', async t => {
  let push = (_text: string): void => {}
  const body = new ReadableStream<Uint8Array>({ start: controller => { push = text => controller.enqueue(new TextEncoder().encode(text)) } })
  const feed = new FeedReader(body)
  const never = feed.next('never', () => true, 50)
  const later = feed.next('later', () => true, 10_000)
  await t.rejects(never, /no never event came/)
  push('event: later\ndata: {"n":1}\n\n')
  t.same((await later).data, { n: 1 })
  await feed.close()
})
