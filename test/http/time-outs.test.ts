import { connect } from 'node:net'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { SERVER_LIMITS } from '../../src/config/limits.js'
import { TEST_NOW } from '../helpers/app.js'

/**
 * The header and request time-outs the README states hold: Node checks for them only every
 * `connectionsCheckingInterval` (30 s by default), so a documented 15 s fired at ~25 s and 30 s at
 * ~55 s. The server's settings are read back; and a server built with short limits shows a slow
 * client really cut off by the check, with the 408 every client error gets.
 */

/** Waits far beyond the short limits below, far below Node's default 30 s check. */
const WATCHDOG_MS = 5_000

t.test('the server runs with the documented time-outs, checked every second', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), { logger: false })
  t.teardown(() => app.close())
  await app.ready()
  t.equal(app.server.headersTimeout, SERVER_LIMITS.headersTimeoutMs)
  t.equal(app.server.requestTimeout, SERVER_LIMITS.requestTimeoutMs)
  t.equal(SERVER_LIMITS.headersTimeoutMs, 15_000, 'as the README states')
  t.equal(SERVER_LIMITS.requestTimeoutMs, 30_000, 'as the README states')
  const interval = (app.server as typeof app.server & { connectionsCheckingInterval: number }).connectionsCheckingInterval
  t.ok(interval <= 1_000, `checked every ${interval} ms, so a time-out fires within a second of its limit`)
})

/** Sends `bytes` and never more; resolves with what the server answers before closing, or a sentence. */
async function stall (port: number, bytes: string): Promise<string> {
  return await new Promise(resolve => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    let answer = ''
    const watchdog = setTimeout(() => { socket.destroy(); resolve(`no answer within ${WATCHDOG_MS} ms`) }, WATCHDOG_MS)
    socket.on('data', chunk => { answer += chunk.toString() })
    socket.on('close', () => { clearTimeout(watchdog); resolve(answer) })
    socket.on('error', () => {})
  })
}

t.test('a client too slow with its headers, or its body, gets 408 request_timeout once its limit has passed', async t => {
  const limits = { headersTimeoutMs: 200, requestTimeoutMs: 400, connectionsCheckingIntervalMs: 50 }
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), { logger: false, limits })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port

  const [headers, body] = await Promise.all([
    stall(port, 'GET /baas/customers HTTP/1.1\r\nHost: x\r\nX-Slow: '),
    stall(port, 'PUT /baas/customers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"email":')
  ])
  for (const [what, answer] of [['headers', headers], ['body', body]] as const) {
    t.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/, `slow ${what}`)
    t.match(JSON.parse(answer.split('\r\n\r\n')[1] ?? 'null'), { status: 408, code: 'request_timeout' }, `slow ${what}: problem+json`)
  }
})
