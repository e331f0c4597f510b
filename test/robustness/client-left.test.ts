import { request as httpRequest } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'
import { HeldSleep } from '../helpers/held-sleep.js'

interface Teardown { teardown: (fn: () => unknown) => void }

/** A listening app whose delays end when the test releases them, and the server-side sockets it accepted. */
async function liveApp (t: Teardown): Promise<TestApp & { port: number; clock: HeldSleep; closed: (count: number) => Promise<void> }> {
  const clock = new HeldSleep()
  const test = await buildTestApp(t, {}, { sleep: clock.sleep })
  let closedCount = 0
  let onClosed: (() => void)[] = []
  test.app.server.on('connection', (socket: Socket) => socket.once('close', () => {
    closedCount++
    const waiting = onClosed
    onClosed = []
    for (const wake of waiting) wake()
  }))
  await test.app.listen({ port: 0, host: '127.0.0.1' })
  const closed = async (count: number): Promise<void> => {
    while (closedCount < count) await new Promise<void>(resolve => onClosed.push(resolve))
  }
  return { ...test, port: (test.app.server.address() as AddressInfo).port, clock, closed }
}

/**
 * Sends a request over a real socket, hangs up once the server is in the middle of its delay, and
 * ends the delay once the server has seen the hang-up. Answers whether a response came (it must not).
 */
async function hangUpDuringDelay (app: Awaited<ReturnType<typeof liveApp>>, path: string, headers: Record<string, string>): Promise<boolean> {
  const client = httpRequest({ host: '127.0.0.1', port: app.port, method: 'POST', path, headers })
  let answered = false
  client.on('response', () => { answered = true })
  client.on('error', () => {}) // the hang-up is ours
  client.end()
  await app.clock.begun(1)
  client.destroy()
  await app.closed(1)
  app.clock.release()
  return answered
}

/** The session's journal once it holds `count` entries (the write ends a few microtasks after the release). */
async function journalOf (call: TestApp['call'], session: string, count: number): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 100; i++) {
    const { body } = await call('GET', '/__mock/requests?order=asc', { session })
    if (body.data.length >= count) return body.data
    await new Promise(setImmediate)
  }
  return (await call('GET', '/__mock/requests?order=asc', { session })).body.data
}

async function cardStatus (call: TestApp['call'], session: string, cardId: string): Promise<string> {
  const { body } = await call('GET', '/__mock/state', { session })
  return body.debitCards.find((c: { id: string }) => c.id === cardId).status
}

t.test('a client that hangs up during Prefer: delay: the lock still happens, and the journal says so', async t => {
  const app = await liveApp(t)
  t.notOk(await hangUpDuringDelay(app, '/baas/debit-cards/card_maya_virtual/lock', { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'left-prefer', prefer: 'delay=5000' }))
  const [entry, ...rest] = await journalOf(app.call, 'left-prefer', 1)
  t.same(rest, [], 'one entry, not two')
  t.match(entry, { method: 'POST', operationId: 'lockCard', status: 200, clientLeft: true, path: '/baas/debit-cards/card_maya_virtual/lock' })
  t.equal(await cardStatus(app.call, 'left-prefer', 'card_maya_virtual'), 'LOCKED', 'the write was applied')
})

t.test('a client that hangs up during a fault delay: journaled with the rule that fired', async t => {
  const app = await liveApp(t)
  t.equal((await app.call('POST', '/__mock/faults', { session: 'left-fault', body: { operation: 'lockCard', delay: 5000 } })).status, 201)
  t.notOk(await hangUpDuringDelay(app, '/baas/debit-cards/card_maya_virtual/lock', { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': 'left-fault' }))
  const [entry, ...rest] = await journalOf(app.call, 'left-fault', 1)
  t.same(rest, [])
  t.match(entry, { operationId: 'lockCard', status: 200, clientLeft: true, faults: ['fault_1'] })
  t.equal(await cardStatus(app.call, 'left-fault', 'card_maya_virtual'), 'LOCKED')
})

t.test('a request refused after the client left is journaled with its status, and changes nothing', async t => {
  const app = await liveApp(t)
  const before = await cardStatus(app.call, 'left-refused', 'card_sam_lost')
  t.notOk(await hangUpDuringDelay(app, '/baas/debit-cards/card_sam_lost/lock', { authorization: `Bearer ${TOKENS.sam}`, 'x-mock-session': 'left-refused', prefer: 'delay=5000' }))
  const [entry] = await journalOf(app.call, 'left-refused', 1)
  t.match(entry, { operationId: 'lockCard', status: 409, clientLeft: true })
  t.equal(await cardStatus(app.call, 'left-refused', 'card_sam_lost'), before)
})

t.test('a client that waits for its answer is journaled without the note', async t => {
  const app = await liveApp(t)
  const answer = app.call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, session: 'stayed', headers: { prefer: 'delay=5000' } })
  await app.clock.begun(1)
  app.clock.release()
  t.equal((await answer).status, 200)
  const [entry] = await journalOf(app.call, 'stayed', 1)
  t.equal(entry?.clientLeft, undefined)
})

t.test('a client that hung up before a plain (undelayed) answer is journaled too', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), { logger: false })
  t.teardown(() => app.close())
  // Holds each API request until its client has gone, so the handler answers a closed connection.
  let gone: () => void = () => {}
  const clientGone = new Promise<void>(resolve => { gone = resolve })
  let arrived: () => void = () => {}
  const requestArrived = new Promise<void>(resolve => { arrived = resolve })
  app.addHook('preHandler', async request => {
    if (request.url.startsWith('/__mock')) return
    request.raw.socket.once('close', gone)
    arrived()
    await clientGone
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const client = httpRequest({ host: '127.0.0.1', port: (app.server.address() as AddressInfo).port, method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', headers: { authorization: `Bearer ${TOKENS.maya}` } })
  client.on('error', () => {})
  client.end()
  await requestArrived
  client.destroy()
  await clientGone
  let requests: Array<Record<string, unknown>> = []
  for (let i = 0; i < 100 && requests.length === 0; i++) {
    await new Promise(setImmediate)
    requests = JSON.parse((await app.inject({ method: 'GET', url: '/__mock/requests' })).body).data
  }
  t.match(requests, [{ operationId: 'lockCard', status: 200, clientLeft: true }])
})
