import t from 'tap'
import { createMock } from '../../src/index.js'
import { loadCore, OPERATION_HANDLERS } from '../../src/core/build.js'
import { CoreServices } from '../../src/core/services.js'
import { operationRoutes } from '../../src/core/route-definition.js'
import { controlDefinitions } from '../../src/control/route.js'
import { CONTROL_ROUTES } from '../../src/control/routes.js'
import { createFetchHandler } from '../../src/transports/fetch/handler.js'
import { defaultConfig } from '../../src/config/config.js'
import { HeldSleep } from '../helpers/held-sleep.js'
import { TEST_NOW } from '../helpers/app.js'

const LOCK = 'http://localhost/baas/debit-cards/card_maya_virtual/lock'
const MAYA = { authorization: 'Bearer tok_maya' }

/** The fetch transport over a core whose waits end when the test says so. */
function heldMock (t: { teardown: (fn: () => unknown) => void }) {
  const held = new HeldSleep()
  const services = loadCore(defaultConfig({ now: TEST_NOW, seed: 7, bodyLimit: 1024 }), CoreServices, { sleep: held.sleep })
  t.teardown(() => services.sessions.webhooks.queue.close())
  const handle = createFetchHandler(services, [...operationRoutes(services, OPERATION_HANDLERS), ...controlDefinitions(services, CONTROL_ROUTES)])
  const cardStatus = async (): Promise<string> => {
    const state = await (await handle(new Request('http://localhost/__mock/state'))).json() as { debitCards: Array<{ id: string; status: string }> }
    return state.debitCards.find(card => card.id === 'card_maya_virtual')?.status ?? 'none'
  }
  return { held, handle, cardStatus }
}

t.test('mock.fetch: an abort during Prefer: delay=3000 rejects with the abort reason, as fetch does', async t => {
  const mock = await createMock({ seed: 7, now: '2026-11-23T15:00:00Z' })
  t.teardown(() => mock.close())
  const controller = new AbortController()
  const reason = new Error('the user went elsewhere')
  const answer = mock.fetch('/baas/customers', { headers: { ...MAYA, prefer: 'delay=3000' }, signal: controller.signal })
  setTimeout(() => controller.abort(reason), 20)
  t.equal(await answer.then(() => 'answered', (error: unknown) => error), reason)
  const already = await mock.fetch('/baas/customers', { headers: MAYA, signal: AbortSignal.abort() }).then(() => undefined, (error: unknown) => error)
  t.match(already, { name: 'AbortError' }, 'an aborted signal rejects before anything is sent')
  t.same((await mock.session().journal.list()).map(entry => entry.path), [], 'neither reached the journal')
})

t.test('a delayed write aborted before it ran never runs', async t => {
  const { held, handle, cardStatus } = heldMock(t)
  const controller = new AbortController()
  const answer = handle(new Request(LOCK, { method: 'POST', headers: { ...MAYA, prefer: 'delay=3000' }, signal: controller.signal }))
  await held.begun()
  controller.abort()
  t.match(await answer.then(() => undefined, (error: unknown) => error), { name: 'AbortError' })
  held.release()
  await new Promise(resolve => setImmediate(resolve))
  t.equal(await cardStatus(), 'ACTIVE', 'the lock did not happen once the wait ended')
  const idempotent = handle(new Request(LOCK, { method: 'POST', headers: { ...MAYA, prefer: 'delay=3000', 'idempotency-key': 'k1' }, signal: AbortSignal.abort() }))
  await t.rejects(idempotent)
  const retried = await handle(new Request(LOCK, { method: 'POST', headers: { ...MAYA, 'idempotency-key': 'k1' } }))
  t.equal(retried.status, 200, 'the key of an aborted request is free for the retry')
  t.equal(await cardStatus(), 'LOCKED')
})

t.test('a fault rule\'s delay is aborted too', async t => {
  const { held, handle, cardStatus } = heldMock(t)
  const added = await handle(new Request('http://localhost/__mock/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'lockCard', delay: 2000 }) }))
  t.equal(added.status, 201)
  const controller = new AbortController()
  const answer = handle(new Request(LOCK, { method: 'POST', headers: MAYA, signal: controller.signal }))
  await held.begun()
  controller.abort(new Error('enough'))
  await t.rejects(answer, { message: 'enough' })
  held.release()
  await new Promise(resolve => setImmediate(resolve))
  t.equal(await cardStatus(), 'ACTIVE')
})

/** A body of `total` bytes made as it is read, counting what was read. */
function endlessBody (total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new TextEncoder().encode(`[${'1,'.repeat(8191)}1]`.slice(0, 16 * 1024))
  let pulled = 0
  const stream = new ReadableStream<Uint8Array>({
    pull: controller => {
      if (pulled >= total) return controller.close()
      pulled += chunk.byteLength
      controller.enqueue(chunk)
    }
  }, { highWaterMark: 0 })
  return { stream, pulled: () => pulled }
}

t.test('mock.fetch refuses a body over the limit while reading it: 413 at the limit, not after 100 MB', async t => {
  const mock = await createMock({ seed: 7, now: '2026-11-23T15:00:00Z', bodyLimit: 64 * 1024 })
  t.teardown(() => mock.close())
  const body = endlessBody(100 * 1024 * 1024)
  const res = await mock.fetch('/baas/scheduled-transfers/internal', {
    method: 'POST', headers: { ...MAYA, 'content-type': 'application/json' }, body: body.stream, duplex: 'half'
  } as RequestInit)
  t.equal(res.status, 413)
  t.match(await res.json(), { code: 'body_too_large', status: 413 })
  t.ok(body.pulled() <= 64 * 1024 + 32 * 1024, `read ${body.pulled()} bytes, not the whole body`)

  const declared = await mock.fetch(new Request('http://localhost/baas/scheduled-transfers/internal', { method: 'POST', headers: { ...MAYA, 'content-type': 'application/json', 'content-length': String(1 << 30) }, body: '{}' }))
  t.equal(declared.status, 413, 'a declared length over the limit is refused unread')
  const typed = await mock.fetch('/baas/scheduled-transfers/internal', { method: 'POST', headers: { ...MAYA, 'content-type': 'text/plain' }, body: endlessBody(1 << 30).stream, duplex: 'half' } as RequestInit)
  t.equal(typed.status, 415, 'another media type is refused unread')
  const untyped = await mock.fetch('/baas/scheduled-transfers/internal', { method: 'POST', headers: MAYA, body: new TextEncoder().encode('x') })
  t.equal(untyped.status, 415, 'a body without a media type')
  const fits = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { ...MAYA, 'content-type': 'application/json' }, body: JSON.stringify({}) })
  t.equal(fits.status, 200, 'a body within the limit is read as before')
})
