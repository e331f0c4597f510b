import t from 'tap'
import { SessionBatches, type BatchStore } from '../../src/world/session-batches.js'
import { StoreConflictError, StoreUnavailableError } from '../../src/world/stores/store.js'

/**
 * The turns of work on a shared store's session, with a store of the test's own: what it loads is a
 * copy of what it holds, a save is refused (a conflict) as often as the test says.
 */
interface Copy { items: string[] }

function fakeStore (conflicts: number): BatchStore<Copy> & { held: string[]; loads: number; saves: number; claims: boolean[] } {
  let refuse = conflicts
  const store = {
    held: [] as string[],
    loads: 0,
    saves: 0,
    claims: [] as boolean[],
    load: async (_id: string, _touches: boolean, claim: boolean) => {
      store.loads++
      store.claims.push(claim)
      return { items: [...store.held] }
    },
    save: (session: Copy) => {
      return (async () => {
        await Promise.resolve()
        if (refuse > 0) {
          refuse--
          // Another replica saved meanwhile.
          store.held.push('other')
          throw new StoreConflictError('s')
        }
        store.saves++
        store.held = session.items
      })()
    }
  }
  return store
}

const add = (item: string) => ({ writes: true, creates: true, touches: true, run: (session: Copy) => { session.items.push(item); return item } })

t.test('work queued while a turn runs goes together in the next: one load and one save for all of it', async t => {
  const store = fakeStore(0)
  const batches = new SessionBatches<Copy>(store, 5)
  const answers = await Promise.all(['a', 'b', 'c', 'd'].map(async item => await batches.run('s', add(item))))
  t.same(answers, ['a', 'b', 'c', 'd'])
  t.same(store.held, ['a', 'b', 'c', 'd'])
  t.equal(store.loads, 2, 'the first alone, the three queued meanwhile together')
  t.equal(store.saves, 2)
})

t.test('a conflict runs the whole turn again on the session as saved, claiming the next save', async t => {
  const store = fakeStore(2)
  const batches = new SessionBatches<Copy>(store, 5)
  t.equal(await batches.run('s', add('mine')), 'mine')
  t.same(store.held, ['other', 'other', 'mine'], 'applied once, after what the other replica saved')
  t.same(store.claims, [false, true, true], 'the runs after a conflict claim the next save')
})

t.test('past its retries, every work of the turn fails with the conflict; nothing applied', async t => {
  const store = fakeStore(10)
  const batches = new SessionBatches<Copy>(store, 2)
  const both = [batches.run('s', add('x')), batches.run('s', add('y'))]
  await t.rejects(both[0] as Promise<string>, StoreConflictError)
  await t.rejects(both[1] as Promise<string>, StoreConflictError)
  t.notOk(store.held.includes('x'))
})

t.test('work that throws fails alone; the rest of its turn is saved and answered', async t => {
  const store = fakeStore(0)
  const batches = new SessionBatches<Copy>(store, 2)
  const first = batches.run('s', add('first'))
  const broken = batches.run('s', { writes: false, creates: true, touches: true, run: () => { throw new TypeError('broken') } })
  const last = batches.run('s', add('last'))
  t.equal(await first, 'first')
  await t.rejects(broken, TypeError)
  t.equal(await last, 'last')
  t.same(store.held, ['first', 'last'])
})

t.test('a store that fails fails every work of the turn with its error; the next turn tries again', async t => {
  const store = fakeStore(0)
  let failing = true
  const batches = new SessionBatches<Copy>({
    load: async (id, touches, claim) => {
      if (failing) throw new StoreUnavailableError('unreachable')
      return await store.load(id, touches, claim)
    },
    save: store.save
  }, 2)
  await t.rejects(batches.run('s', add('x')), StoreUnavailableError)
  failing = false
  t.equal(await batches.run('s', add('y')), 'y')
  t.same(store.held, ['y'])
})

t.test('sessions take turns each on their own', async t => {
  const store = fakeStore(0)
  const batches = new SessionBatches<Copy>(store, 2)
  const order: string[] = []
  const slow = batches.run('a', { writes: true, creates: true, touches: true, run: async () => { await new Promise(resolve => setImmediate(resolve)); order.push('a') } })
  const quick = batches.run('b', { writes: true, creates: true, touches: true, run: () => { order.push('b') } })
  await Promise.all([slow, quick])
  t.same(order, ['b', 'a'], 'b did not wait for a')
})
