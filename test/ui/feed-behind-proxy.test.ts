import type { AddressInfo } from 'node:net'
import t from 'tap'
import { EVENT_FEED_DEFAULTS } from '../../src/control/events.js'
import { clientAddressOf } from '../../src/transports/fastify/client-address.js'
import { buildTestApp } from '../helpers/app.js'
import { EventStreamClient } from './sse-client.js'

// Behind nginx every client connects from the proxy's address: with the proxy trusted, the
// per-client stream cap counts the clients nginx saw, and a client's own X-Forwarded-For buys it nothing.

const PER_CLIENT = EVENT_FEED_DEFAULTS.maxStreamsPerClient

t.test('the client address: the socket\'s unless proxies are trusted; then the address the outermost trusted proxy saw, never one the client wrote', async t => {
  t.equal(clientAddressOf('10.0.0.9', '203.0.113.7', 0), '10.0.0.9', 'no trusted proxy: X-Forwarded-For is not read')
  t.equal(clientAddressOf('10.0.0.9', '203.0.113.7', 1), '203.0.113.7', 'nginx appended the client it saw')
  t.equal(clientAddressOf('10.0.0.9', '6.6.6.6, 203.0.113.7', 1), '203.0.113.7', 'what the client wrote before nginx\'s entry is ignored')
  t.equal(clientAddressOf('10.0.0.9', ['6.6.6.6', '198.51.100.2, 203.0.113.7'], 2), '198.51.100.2', 'two trusted proxies, repeated headers')
  t.equal(clientAddressOf('10.0.0.9', '203.0.113.7', 5), '203.0.113.7', 'more hops trusted than the chain has: the farthest address')
  t.equal(clientAddressOf('10.0.0.9', undefined, 1), '10.0.0.9', 'a request that came around the proxy')
})

t.test('--trust-proxy-hops 1: clients behind one proxy each get their own share of event streams', async t => {
  const { app } = await buildTestApp(t, { trustProxyHops: 1 })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/__mock/events`
  const open: EventStreamClient[] = []
  t.teardown(() => { for (const stream of open) stream.close() })
  const behindProxy = (client: string): Record<string, string> => ({ 'x-forwarded-for': client })

  for (let i = 0; i < PER_CLIENT; i++) {
    const stream = await EventStreamClient.open(`${url}?session=a-${i}`, behindProxy('203.0.113.1'))
    open.push(stream)
    await stream.next('hello')
  }
  const another = await EventStreamClient.open(`${url}?session=b`, behindProxy('203.0.113.2'))
  open.push(another)
  t.equal(another.status, 200, 'another client behind the same proxy is not shut out')
  const ninth = await EventStreamClient.open(`${url}?session=a-more`, behindProxy('6.6.6.6, 203.0.113.1'))
  open.push(ninth)
  t.equal(ninth.status, 429, 'a client that writes its own X-Forwarded-For is still counted by what the proxy saw')
})
