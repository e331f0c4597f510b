import { runInNewContext } from 'node:vm'
import FakeTimers from '@sinonjs/fake-timers'
import t from 'tap'
import { collectGarbage, releaseAfterSweep } from '../../src/transports/fastify/memory.js'
import { SessionStore } from '../../src/world/sessions.js'
import type { World } from '../../src/world/world.js'

/** A stand-in world: the store never looks inside it. */
const world = (): World => ({ scenario: 'default' } as unknown as World)

/** The sweep timer on a fake clock: a tick runs every sweep that falls due in it, and nothing else can. */
function fakeTimers (t: { teardown: (fn: () => void) => void }): FakeTimers.Clock {
  const clock = FakeTimers.install({ toFake: ['setInterval', 'clearInterval'] })
  t.teardown(() => clock.uninstall())
  return clock
}

t.test('idle sessions are dropped by the timer even when no request comes', async t => {
  const clock = fakeTimers(t)
  let now = 0
  const store = new SessionStore(world, { maxSessions: 100, idleTimeoutMs: 1000, journalCap: 5, now: () => now })
  t.teardown(() => store.stopSweeping())
  for (const id of ['default', 'a', 'b']) store.get(id)
  store.startSweeping(5)
  store.startSweeping(5)
  t.equal(clock.countTimers(), 1, 'a second start keeps the one timer')
  now = 900
  store.get('b')
  now = 1500
  clock.tick(5)
  t.same(store.list().map(s => s.id), ['default', 'b'], '"a" idled out with no request at all; "b" was used since; default stays')
  now = 5000
  clock.tick(5)
  t.same(store.list().map(s => s.id), ['default'])

  store.stopSweeping()
  t.equal(clock.countTimers(), 0, 'stopped: no timer left')
  store.get('c')
  now = 10_000
  clock.tick(60_000)
  t.same(store.list().map(s => s.id), ['default', 'c'], 'stopped: nothing is swept until the next access')
  store.get('d')
  t.same(store.list().map(s => s.id), ['default', 'd'], 'an access still sweeps')
})

t.test('the timer reports what each sweep dropped, so the memory can be given back', async t => {
  const clock = fakeTimers(t)
  let now = 0
  const reports: [number, number][] = []
  const store = new SessionStore(world, { maxSessions: 100, idleTimeoutMs: 1000, journalCap: 5, now: () => now })
  t.teardown(() => store.stopSweeping())
  for (const id of ['default', 'a', 'b', 'c']) store.get(id)
  store.startSweeping(5, (dropped, before) => reports.push([dropped, before]))
  clock.tick(5)
  t.same(reports, [], 'a sweep that drops nothing reports nothing')
  t.equal(store.size, 4)
  now = 2000
  clock.tick(5)
  t.same(reports, [[3, 4]], 'the next sweep: three of four went (default stays)')
})

t.test('a garbage collection runs after a sweep that dropped a large share of the sessions', async t => {
  t.equal(collectGarbage(), true, 'available without --expose-gc')
  t.equal(runInNewContext('typeof gc'), 'undefined', 'and gc stays hidden from other code')
  t.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined')
  t.equal(releaseAfterSweep(0, 10), false, 'nothing dropped')
  t.equal(releaseAfterSweep(2, 100), false, 'a trickle of expiries is left to V8')
  t.equal(releaseAfterSweep(25, 100), true, 'a quarter or more: collected now')
  t.equal(releaseAfterSweep(1000, 1001), true)
})

t.test('the sweep interval follows the idle time, between 1 s and 1 min', async t => {
  const interval = (idleTimeoutMs: number): number => new SessionStore(world, { maxSessions: 1, idleTimeoutMs, journalCap: 1 }).sweepIntervalMs
  t.equal(interval(3_600_000), 60_000)
  t.equal(interval(100_000), 10_000)
  t.equal(interval(5_000), 1_000)
})
