import type { AddressInfo } from 'node:net'
import t from 'tap'
import { EVENT_FEED_DEFAULTS } from '../../src/control/events.js'
import { buildTestApp } from '../helpers/app.js'
import { EventStreamClient } from './sse-client.js'

const PER_CLIENT = EVENT_FEED_DEFAULTS.maxStreamsPerClient

t.test('one address may hold only its share of the event streams: the next is a 429 problem with Retry-After; another address still gets one', async t => {
  const { app } = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/__mock/events`
  const open: EventStreamClient[] = []
  t.teardown(() => { for (const stream of open) stream.close() })

  for (let i = 0; i < PER_CLIENT; i++) {
    const stream = await EventStreamClient.open(`${url}?session=tab-${i}`)
    open.push(stream)
    await stream.next('hello')
  }
  t.same(open.map(s => s.status), Array(PER_CLIENT).fill(200))

  const refused = await EventStreamClient.open(`${url}?session=one-more`)
  open.push(refused)
  t.equal(refused.status, 429)
  t.match(refused.response.headers['content-type'], /^application\/problem\+json/)
  t.equal(refused.response.headers['retry-after'], '5')
  const problem = JSON.parse(await refused.text()) as { code: string; detail: string }
  t.equal(problem.code, 'too_many_event_streams_from_client')
  t.match(problem.detail, `At most ${PER_CLIENT} event streams`)

  const elsewhere = await EventStreamClient.open(`${url}?session=other-client`, {}, '127.0.0.2')
  open.push(elsewhere)
  t.equal(elsewhere.status, 200, 'a second client is not shut out by the first')
  t.equal((await elsewhere.next('hello')).data.session, 'other-client')

  open[0]?.close()
  // The server notices the hang-up a moment later: retry until it has (each refusal is an answer, not a wait on a timer).
  let again: EventStreamClient | undefined
  for (let i = 0; i < 100; i++) {
    again = await EventStreamClient.open(`${url}?session=tab-again`)
    open.push(again)
    if (again.status === 200) break
    await again.text()
  }
  t.equal(again?.status, 200, 'a closed stream frees its place')
})
