import t from 'tap'
import { createMock, type Mock } from '../../src/index.js'
import { EVENT_FEED_DEFAULTS } from '../../src/control/events.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { FeedReader } from '../helpers/feed-reader.js'

interface Teardown { teardown: (fn: () => unknown) => void }

async function mockFor (t: Teardown, options: Parameters<typeof createMock>[0] = {}): Promise<Mock> {
  const mock = await createMock({ seed: 7, now: TEST_NOW.toISOString(), ...options })
  t.teardown(() => mock.close())
  return mock
}

t.test('mock.fetch streams the live feed: hello, each request of the session, and change after a write', async t => {
  const mock = await mockFor(t)
  const response = await mock.fetch('/__mock/events?session=watched')
  t.equal(response.status, 200)
  t.match(response.headers.get('content-type'), /^text\/event-stream/)
  t.equal(response.headers.get('cache-control'), 'no-store')
  const stream = new FeedReader(response.body)
  t.teardown(() => stream.close())
  t.same((await stream.next('hello')).data, { session: 'watched', scenario: 'default', now: TEST_NOW.toISOString(), frozen: true })

  const other = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'elsewhere' } })
  t.equal(other.status, 200)
  const lock = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'watched' } })
  t.equal(lock.status, 200)
  t.match((await stream.next('request')).data, { method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', status: 200, operationId: 'lockCard' })
  t.match((await stream.next('change')).data, { method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', status: 200, session: 'watched' })
  t.equal(stream.events.filter(e => e.event === 'request').length, 1, 'nothing from another session')
})

t.test('a reader that cancels gives its place back; the next stream over the bound is a 429 problem', async t => {
  const mock = await mockFor(t)
  const open: FeedReader[] = []
  t.teardown(() => Promise.all(open.map(s => s.close())))
  for (let i = 0; i < EVENT_FEED_DEFAULTS.maxStreamsPerClient; i++) {
    const stream = new FeedReader((await mock.fetch(`/__mock/events?session=tab-${i}`)).body)
    open.push(stream)
    await stream.next('hello')
  }
  const refused = await mock.fetch('/__mock/events?session=one-more')
  t.equal(refused.status, 429)
  t.match(refused.headers.get('content-type'), /^application\/problem\+json/)
  t.equal(refused.headers.get('retry-after'), '5')
  t.match(await refused.json(), { code: 'too_many_event_streams_from_client' })

  await open.shift()?.close()
  const again = await mock.fetch('/__mock/events?session=tab-again')
  t.equal(again.status, 200, 'the cancelled stream freed its place')
  open.push(new FeedReader(again.body))
})

t.test('closing the mock ends its open streams', async t => {
  const mock = await createMock({ seed: 7 })
  const stream = new FeedReader((await mock.fetch('/__mock/events')).body)
  await stream.next('hello')
  // A reader that keeps reading, as a transport does: it gets what is left, then the end.
  const ended = stream.untilEnd()
  await mock.close()
  await ended
  t.ok(stream.ended)
})

t.test('HEAD answers the headers and opens no stream', async t => {
  const mock = await mockFor(t)
  for (let i = 0; i < EVENT_FEED_DEFAULTS.maxStreamsPerClient + 1; i++) {
    const head = await mock.fetch('/__mock/events', { method: 'HEAD' })
    t.equal(head.status, 200)
    t.equal(head.body, null)
  }
  const stream = await mock.fetch('/__mock/events')
  t.equal(stream.status, 200, 'no HEAD held a place')
  await stream.body?.cancel()
})

t.test('the admin token guards the stream in process too, ?token= included', async t => {
  const mock = await mockFor(t, { adminToken: 'sesame' })
  const refused = await mock.fetch('/__mock/events')
  t.equal(refused.status, 401)
  t.match(await refused.json(), { code: 'admin_token_required' })
  const allowed = await mock.fetch('/__mock/events?session=x&token=sesame')
  t.equal(allowed.status, 200)
  const stream = new FeedReader(allowed.body)
  t.equal((await stream.next('hello')).data.session, 'x')
  await stream.close()
})
