import t, { type Test } from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { TEST_NOW } from '../helpers/app.js'

/**
 * `app.close()` (what SIGTERM runs, see test/cli/shutdown.test.ts) against keep-alive clients, in
 * process: it must end once what is in flight is answered, not when the clients' kept connections
 * time out (72 s), and it must end even when a request would take longer than the grace period.
 */

/** Far beyond what closing takes here, far below the 72 s keep-alive time-out that held it before. */
const WATCHDOG_MS = 5_000

async function listening (t: Test, shutdownGraceMs?: number): Promise<{ close: () => Promise<string>; base: string }> {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), {
    logger: false, ...(shutdownGraceMs === undefined ? {} : { limits: { shutdownGraceMs } })
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  let closing: Promise<string> | undefined
  const close = (): Promise<string> => {
    closing ??= Promise.race([
      app.close().then(() => 'closed'),
      new Promise<string>(resolve => setTimeout(() => resolve(`still open ${WATCHDOG_MS} ms after close()`), WATCHDOG_MS).unref())
    ])
    return closing
  }
  t.teardown(() => { app.server.closeAllConnections(); return close() })
  return { close, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` }
}

async function untilSessionExists (base: string, session: string): Promise<void> {
  for (;;) {
    const { sessions } = await (await fetch(`${base}/__mock/sessions`)).json() as { sessions: Array<{ id: string }> }
    if (sessions.some(s => s.id === session)) return
    await new Promise(resolve => setImmediate(resolve))
  }
}

t.test('a request in flight on a keep-alive connection is answered with Connection: close, and close() ends', async t => {
  const { close, base } = await listening(t)
  const inFlight = fetch(`${base}/baas/customers`, { headers: { prefer: 'delay=1000', 'x-mock-session': 'in-flight' } })
  await untilSessionExists(base, 'in-flight')
  const closed = close()
  const res = await inFlight
  t.equal(res.status, 200)
  t.equal(res.headers.get('connection'), 'close')
  t.equal(await closed, 'closed')
})

t.test('what is still busy after the grace period is cut, so that close() ends', async t => {
  const { close, base } = await listening(t, 100)
  // Longer than the grace period by far, short enough not to hold this process up after the test.
  const delayed = fetch(`${base}/baas/customers`, { headers: { prefer: 'delay=2000', 'x-mock-session': 'slow' } }).then(res => res.status, () => 'cut')
  await untilSessionExists(base, 'slow')
  t.equal(await close(), 'closed')
  t.equal(await delayed, 'cut')
})
