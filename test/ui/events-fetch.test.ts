import t from 'tap'
import { createMock, type Mock } from '../../src/index.js'
import { EVENT_FEED_DEFAULTS } from '../../src/control/events.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'

interface ServerEvent { event: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

/** Reads a streamed Response body as Server-Sent Events, as an EventSource would. */
class EventReader {
  readonly events: ServerEvent[] = []
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly decoder = new TextDecoder()
  private buffer = ''
  ended = false

  constructor (readonly response: Response) {
    if (response.body === null) throw new Error('no body')
    this.reader = response.body.getReader()
  }

  /** The first event named `event` that `match` accepts, reading as far as needed; throws if the stream ends first. */
  async next (event: string, match: (data: any) => boolean = () => true): Promise<ServerEvent> { // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      const found = this.events.find(e => e.event === event && match(e.data))
      if (found !== undefined) return found
      if (this.ended) throw new Error(`the stream ended before a ${event} event; got ${this.events.map(e => e.event).join(', ')}`)
      await this.read()
    }
  }

  /** Reads until the stream ends (it must, or the test times out). */
  async untilEnd (): Promise<void> {
    while (!this.ended) await this.read()
  }

  async cancel (): Promise<void> {
    await this.reader.cancel()
  }

  private async read (): Promise<void> {
    const { done, value } = await this.reader.read()
    if (done) {
      this.ended = true
      return
    }
    this.buffer += this.decoder.decode(value, { stream: true })
    let end: number
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + 2)
      const name = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (name !== undefined && data !== undefined) this.events.push({ event: name, data: JSON.parse(data) })
    }
  }
}

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
  const stream = new EventReader(response)
  t.teardown(() => stream.cancel())
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
  const open: EventReader[] = []
  t.teardown(() => Promise.all(open.map(s => s.cancel())))
  for (let i = 0; i < EVENT_FEED_DEFAULTS.maxStreamsPerClient; i++) {
    const stream = new EventReader(await mock.fetch(`/__mock/events?session=tab-${i}`))
    open.push(stream)
    await stream.next('hello')
  }
  const refused = await mock.fetch('/__mock/events?session=one-more')
  t.equal(refused.status, 429)
  t.match(refused.headers.get('content-type'), /^application\/problem\+json/)
  t.equal(refused.headers.get('retry-after'), '5')
  t.match(await refused.json(), { code: 'too_many_event_streams_from_client' })

  await open.shift()?.cancel()
  const again = await mock.fetch('/__mock/events?session=tab-again')
  t.equal(again.status, 200, 'the cancelled stream freed its place')
  open.push(new EventReader(again))
})

t.test('closing the mock ends its open streams', async t => {
  const mock = await createMock({ seed: 7 })
  const stream = new EventReader(await mock.fetch('/__mock/events'))
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
  const stream = new EventReader(allowed)
  t.equal((await stream.next('hello')).data.session, 'x')
  await stream.cancel()
})
