import t from 'tap'
import { EventFeed, EVENT_FEED_DEFAULTS, type EventFeedOptions } from '../../src/control/events.js'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { HttpProblem } from '../../src/core/problem.js'
import type { FinishedRequest } from '../../src/core/exchange.js'
import type { EventStream } from '../../src/control/event-stream.js'
import { Listeners } from '../../src/world/listeners.js'
import { VirtualClock } from '../../src/world/clock.js'
import { createIdSource } from '../../src/world/ids.js'
import { Journal, type JournalRecord } from '../../src/world/journal.js'
import { BoundedOutbox } from '../../src/world/outbox.js'
import { SessionStore, type Session } from '../../src/world/sessions.js'
import { World } from '../../src/world/world.js'
import { TEST_NOW } from '../helpers/app.js'

const scenarios = loadScenarios(BUNDLED_FIXTURES)

function store (): SessionStore {
  return new SessionStore((id, scenario = 'default') => new World(scenarios.get(scenario)!.fixtures, { scenario, now: TEST_NOW, seed: 7, sessionId: id, outboxCap: 10 }),
    { maxSessions: 10, idleTimeoutMs: 60_000, journalCap: 10 })
}

const entry = (path: string): JournalRecord => ({ timeMs: TEST_NOW.getTime(), method: 'GET', url: path, operationId: null, status: 200, durationMs: 1, headers: {}, body: null })

/** Reads the stream as a client would; returns everything it carried so far, as text. */
function collect (stream: EventStream): () => string {
  let text = ''
  const reader = stream.readable.getReader()
  const decoder = new TextDecoder()
  const read = (): void => {
    reader.read().then(({ done, value }) => {
      if (value !== undefined) text += decoder.decode(value, { stream: true })
      if (!done) read()
    }, () => {})
  }
  read()
  return () => text
}

const options = (overrides: Partial<EventFeedOptions>): EventFeedOptions => ({ ...EVENT_FEED_DEFAULTS, ...overrides })

t.test('journal and outbox tell their listeners, and forget them on unsubscribe', async t => {
  const journal = new Journal(3)
  const seen: number[] = []
  const off = journal.subscribe(e => seen.push(e.id))
  const offToo = journal.subscribe(() => {})
  t.equal(journal.listenerCount, 2)
  journal.record(entry('/a'))
  off()
  journal.record(entry('/b'))
  t.same(seen, [1], 'only while subscribed')
  offToo()
  t.equal(journal.listenerCount, 0)
  journal.record(entry('/c'))

  const outbox = new BoundedOutbox(3, new VirtualClock(TEST_NOW), createIdSource(7))
  const sent: string[] = []
  const stop = outbox.subscribe(m => sent.push(m.body))
  outbox.deliver({ channel: 'sms', to: '+14155550123', body: 'one', kind: 'test', data: {}, customerId: 'cus_maya' })
  stop()
  outbox.deliver({ channel: 'sms', to: '+14155550123', body: 'two', kind: 'test', data: {}, customerId: 'cus_maya' })
  t.same(sent, ['one'])
  t.equal(outbox.listenerCount, 0)
})

t.test('a listener may unsubscribe while being told', async t => {
  const journal = new Journal(3)
  const calls: string[] = []
  const off = journal.subscribe(() => { calls.push('first'); off() })
  journal.subscribe(() => calls.push('second'))
  journal.record(entry('/a'))
  journal.record(entry('/b'))
  t.same(calls, ['first', 'second', 'second'])
})

t.test('a feed opens with retry and hello, and listens only while streams are open', async t => {
  const sessions = store()
  const finished = new Listeners<FinishedRequest>()
  const feed = new EventFeed(sessions, finished)
  t.notOk(finished.active)
  const stream = feed.open('unit', 'test-client')
  const text = collect(stream)
  t.equal(feed.size, 1)
  t.ok(finished.active)
  const session = sessions.get('unit')
  t.equal(session.journal.listenerCount, 1)
  t.equal(session.world.outbox.listenerCount, 1)
  await new Promise(setImmediate)
  t.match(text(), /^retry: 2000\n\nevent: hello\ndata: \{"session":"unit","scenario":"default","now":"2026-11-23T15:00:00.000Z","frozen":true\}\n\n$/)
  stream.destroy()
  await new Promise(setImmediate)
  t.equal(feed.size, 0)
  t.equal(session.journal.listenerCount, 0)
  t.equal(session.world.outbox.listenerCount, 0)
  t.notOk(finished.active)
})

t.test('a successful write to the session says change; failed, reading and foreign ones do not', async t => {
  const sessions = store()
  const finished = new Listeners<FinishedRequest>()
  const feed = new EventFeed(sessions, finished)
  const stream = feed.open('sync', 'test-client')
  t.teardown(() => stream.destroy())
  const text = collect(stream)
  const session = sessions.get('sync')
  const publish = (method: string, status: number, other: Session | null, writes = method !== 'GET'): void =>
    finished.notify({ method, path: '/x', status, writes, session: other })
  publish('POST', 500, session)
  publish('DELETE', 204, sessions.get('another'))
  publish('GET', 200, session)
  publish('PATCH', 200, session)
  publish('GET', 200, session, true)
  await new Promise(setImmediate)
  const changes = text().split('\n\n').filter(block => block.startsWith('event: change'))
  t.equal(changes.length, 2)
  t.match(changes[0], '"method":"PATCH","path":"/x","status":200')
  t.match(changes[1], '"method":"GET"', 'an operation that writes says change whatever method it was moved to')
})

t.test('at most maxStreams at once: the next is a 503 with Retry-After', async t => {
  const feed = new EventFeed(store(), new Listeners(), options({ maxStreams: 1 }))
  const stream = feed.open('one', 'test-client')
  t.teardown(() => stream.destroy())
  let refused: unknown
  try {
    feed.open('two', 'test-client')
  } catch (error) {
    refused = error
  }
  t.type(refused, HttpProblem)
  t.match(refused, { body: { status: 503, code: 'too_many_event_streams' }, retryAfterSeconds: 5 })
  t.equal(feed.size, 1)
})

t.test('a client that stopped reading is dropped instead of buffered without bound', async t => {
  const sessions = store()
  const feed = new EventFeed(sessions, new Listeners(), options({ maxBufferedBytes: 2048 }))
  const stream = feed.open('slow', 'test-client')
  const journal = sessions.get('slow').journal
  for (let i = 0; i < 200 && !stream.destroyed; i++) journal.record(entry(`/slow/${i}`))
  t.ok(stream.destroyed, 'the stream was cut')
  await new Promise(setImmediate)
  t.equal(feed.size, 0)
  t.equal(journal.listenerCount, 0)
  journal.record(entry('/after'))
  t.pass('recording goes on')
})

t.test('the heartbeat keeps the connection open, keeps the session alive and notices it was dropped', async t => {
  const sessions = store()
  const feed = new EventFeed(sessions, new Listeners(), options({ heartbeatMs: 5 }))
  const stream = feed.open('beat', 'test-client')
  t.teardown(() => stream.destroy())
  const text = collect(stream)
  const first = sessions.get('beat')
  sessions.delete('beat')
  while (!text().includes('event: change')) await new Promise(resolve => setTimeout(resolve, 5))
  t.match(text(), ': keep-alive\n\n')
  t.match(text(), 'event: change\ndata: {"method":null,"path":null,"status":null,"session":"beat"')
  const second = sessions.peek('beat')
  t.ok(second !== undefined && second !== first, 'a new session in its place')
  t.equal(second?.journal.listenerCount, 1, 'the stream listens to the new journal')
  t.equal(first.journal.listenerCount, 0, 'and no longer to the old one')
})

t.test('closeAll ends every stream, and cuts one whose reader never drains', async t => {
  const finished = new Listeners<FinishedRequest>()
  const feed = new EventFeed(store(), finished)
  const reading = feed.open('reading', 'test-client')
  const read = collect(reading)
  const stuck = feed.open('stuck', 'test-client') // nobody reads: end() cannot finish, so it is destroyed
  await feed.closeAll()
  t.ok(reading.destroyed && stuck.destroyed)
  t.match(read(), /event: hello/, 'the reader got what was written before the end')
  t.equal(feed.size, 0)
  t.notOk(finished.active)
  await feed.closeAll()
  t.pass('closing twice is harmless')
})
