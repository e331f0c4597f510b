import t from 'tap'
import { BUNDLED_FIXTURES } from '../../src/config/config.js'
import { DEFAULT_SETTINGS } from '../../src/domain/context.js'
import type { PinLink } from '../../src/domain/model.js'
import { PIN_LINK_RETENTION_MS } from '../../src/domain/pin-link.js'
import { loadScenarios } from '../../src/fixtures/loader.js'
import { MemoryStore } from '../../src/world/stores/memory.js'
import { World } from '../../src/world/world.js'
import { replica } from '../helpers/shared-store.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'

/**
 * A world settles before every request, so what it walks then must be what fell due, not what it
 * holds (issue 28: 16,000 set-PIN links took a session's GET from 2.8 to 20 ms, and the CPU it took
 * slowed every other session). The work is counted, never timed: the entries a request visits.
 */
const fixtures = loadScenarios(BUNDLED_FIXTURES).get('default')?.fixtures
if (fixtures === undefined) throw new Error('the bundled fixtures have no default scenario')

/** `map`, behind a proxy counting the entries iterated: the work a settle does on it. */
function counted<K, V> (map: Map<K, V>): { map: Map<K, V>; visited: () => number } {
  let visited = 0
  const proxy = new Proxy(map, {
    get (target, key) {
      const value: unknown = Reflect.get(target, key, target)
      if (typeof value !== 'function') return value
      if (key === Symbol.iterator || key === 'entries' || key === 'values' || key === 'keys') {
        return function * () {
          for (const item of (value as () => Iterable<unknown>).call(target)) {
            visited++
            yield item
          }
        }
      }
      return (value as (...args: unknown[]) => unknown).bind(target)
    }
  })
  return { map: proxy, visited: () => visited }
}

/** Links as a world restored from a store written before the caps may hold: far more than --max-pin-links. */
function fill (world: World, count: number, expiresAt: Date, prefix = 'tok'): void {
  for (let i = 0; i < count; i++) {
    const link: PinLink = { token: `${prefix}${i}`, cardId: 'card_maya_virtual', customerId: 'cus_maya', expiresAt: expiresAt.toISOString() }
    world.ctx.state.pinLinks.set(link.token, link)
  }
}

t.test('settling a world with 5,000 live links visits one of them; an advance visits only those due', async t => {
  const world = new World(fixtures, { scenario: 'default', now: TEST_NOW, seed: 7, sessionId: 'test', outboxCap: 10, settings: structuredClone(DEFAULT_SETTINGS) })
  const first = new Date(TEST_NOW.getTime() + 300_000)
  fill(world, 2_500, first, 'a')
  fill(world, 2_500, new Date(first.getTime() + 3_600_000), 'b')
  const links = counted(world.ctx.state.pinLinks)
  world.ctx.state.pinLinks = links.map
  world.settle()
  world.settle()
  t.ok(links.visited() <= 2, `two settles visited ${links.visited()} links`)

  // Past the first half's purge time (expiry plus the retention), before the second's.
  world.clock.advanceTo(new Date(first.getTime() + PIN_LINK_RETENTION_MS + 1))
  const before = links.visited()
  world.settle()
  t.equal(world.ctx.state.pinLinks.size, 2_500, 'the links due are purged, the others kept')
  t.ok(links.visited() - before <= 2_501, `the settle visited ${links.visited() - before} links: those due and the next`)
})

t.test('a session full of links costs its own requests nothing more, and another session\'s nothing at all', async t => {
  const mock = replica(new MemoryStore(), {}, t)
  const get = async (session: string): Promise<number> =>
    (await mock.fetch('/baas/customers', { headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': session } })).status
  t.equal(await get('busy'), 200)
  t.equal(await get('quiet'), 200)
  const busy = mock.services.sessions.peek('busy')?.world
  if (busy === undefined) return t.fail('no busy session')
  fill(busy, 5_000, new Date(TEST_NOW.getTime() + 300_000))
  const links = counted(busy.ctx.state.pinLinks)
  busy.ctx.state.pinLinks = links.map

  for (let i = 0; i < 10; i++) t.equal(await get('quiet'), 200)
  t.equal(links.visited(), 0, 'ten requests of another session never walk the busy one')
  for (let i = 0; i < 10; i++) t.equal(await get('busy'), 200)
  t.ok(links.visited() <= 10, `ten GETs of the busy session visited ${links.visited()} of its 5,000 links`)
})
