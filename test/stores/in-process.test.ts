import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { createMock } from '../../src/index.js'
import { createHandlers } from '../../src/msw.js'
import { MemoryStore } from '../../src/world/stores/memory.js'

t.test('createMock({ stateDir }) keeps its sessions across a close and a new mock on the same folder', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-in-process-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = await createMock({ stateDir: dir, seed: 7, now: '2026-11-23T15:00:00Z' })
  t.equal((await first.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })).status, 200)
  const before = await first.session().state()
  await first.close()

  const second = await createMock({ stateDir: dir, seed: 7, now: '2026-11-23T15:00:00Z' })
  t.same(await second.session().state(), before)
  await t.rejects(createMock({ stateDir: dir }), /another process uses it/, 'one mock per folder, in process too')
  await second.close()
})

t.test('createHandlers keeps sessions in memory: a stateDir there says what to do instead', async t => {
  t.throws(() => createHandlers({ stateDir: '/tmp/x' }), /createHandlers \{ mock: await createMock\(\{ stateDir \}\) \}/)
})

t.test('the memory store keeps nothing: what a restart finds there is no session', async t => {
  const store = new MemoryStore()
  t.equal(store.persistent, false, 'so the session store never calls it')
  t.equal(await store.save({ meta: { id: 'a', createdMs: 0, lastSeenMs: 0, pinned: false }, baseVersion: 0, parts: {}, rows: { journal: { appended: [], from: 1 }, events: { appended: [], from: 1 } } }), 1)
  t.equal(await store.load('a'), undefined)
  t.same(await store.list(), [])
  t.same(await store.expire(Date.now()), [])
  await store.delete('a')
  await store.close()
})
