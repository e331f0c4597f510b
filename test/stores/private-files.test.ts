import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { openSqliteStore, STORE_FILE } from '../../src/world/stores/sqlite.js'
import { openStore } from '../../src/world/stores/open-store.js'
import type { SessionChange } from '../../src/world/stores/store.js'

/** The state folder holds MFA codes, PIN-link tokens and webhook secrets: 0700 and 0600, whatever the umask. */

const modeOf = (path: string): number => statSync(path).mode & 0o777

function scratch (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-private-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Every file and folder made while `fn` runs is as open as the umask allows: wide open. */
async function withOpenUmask<T> (t: Test, fn: () => Promise<T>): Promise<T> {
  const before = process.umask(0)
  t.teardown(() => { process.umask(before) })
  try {
    return await fn()
  } finally {
    process.umask(before)
  }
}

const change = (id: string): SessionChange => ({
  meta: { id, createdMs: 1, lastSeenMs: 2, pinned: false },
  baseVersion: 0,
  parts: { world: { secret: 'code 123456' } },
  rows: { journal: { appended: [], from: 1 }, events: { appended: [], from: 1 } }
})

t.test('a new state folder is 0700 and the database and its write-ahead log 0600, even with umask 000', async t => {
  const dir = join(scratch(t), 'nested', 'state')
  await withOpenUmask(t, async () => {
    const { store, folderNotice } = await openSqliteStore(dir)
    t.equal(folderNotice, undefined, 'nothing to say about a folder it made')
    await store.save(change('a'))
    t.equal(modeOf(dir), 0o700)
    t.equal(modeOf(join(dir, STORE_FILE)), 0o600)
    t.ok(existsSync(join(dir, `${STORE_FILE}-wal`)), 'a write went to the write-ahead log')
    t.equal(modeOf(join(dir, `${STORE_FILE}-wal`)), 0o600)
    await store.close()
  })
})

t.test('an existing folder of its own that others could read is made 0700, said once; old files are brought to 0600', async t => {
  const dir = join(scratch(t), 'state')
  mkdirSync(dir)
  chmodSync(dir, 0o755)
  writeFileSync(join(dir, STORE_FILE), '')
  chmodSync(join(dir, STORE_FILE), 0o644)
  writeFileSync(join(dir, `${STORE_FILE}-wal`), '')
  chmodSync(join(dir, `${STORE_FILE}-wal`), 0o644)
  const lines: string[] = []
  const { store } = await openStore({ stateDir: dir, stateReset: false, store: undefined, storePrefix: 'x', maxSessions: 10, sessionIdleSeconds: 60 }, (level, line) => lines.push(`${level}: ${line}`))
  t.teardown(() => store.close())
  t.equal(modeOf(dir), 0o700)
  t.equal(modeOf(join(dir, STORE_FILE)), 0o600)
  t.equal(lines.length, 1, 'one line in the log')
  t.match(lines[0], /^warn: the state folder .* was open to other users \(0755\): made 0700/)
})

t.test('a folder that holds other things (a project folder, /tmp) is left as it is, and the store\'s files are still 0600', async t => {
  const dir = scratch(t)
  chmodSync(dir, 0o755)
  writeFileSync(join(dir, 'package.json'), '{}')
  const { store, folderNotice } = await withOpenUmask(t, async () => await openSqliteStore(dir))
  t.teardown(() => store.close())
  t.equal(modeOf(dir), 0o755, 'not ours to close')
  t.match(folderNotice, /is open to other users \(0755\) and holds other files, so it is left as it is; the store's files are 0600/)
  t.equal(modeOf(join(dir, STORE_FILE)), 0o600)
})

t.test('a private folder already is said nothing about', async t => {
  const dir = scratch(t)
  chmodSync(dir, 0o700)
  const { store, folderNotice } = await openSqliteStore(dir)
  t.teardown(() => store.close())
  t.equal(folderNotice, undefined)
})

t.test('a folder of another user is left as it is, and the log says why', { skip: process.getuid?.() === 0 ? false : 'needs root to hand a folder to another user' }, async t => {
  const dir = join(scratch(t), 'theirs')
  mkdirSync(dir)
  chmodSync(dir, 0o777)
  chownSync(dir, 4242, 4242)
  const { store, folderNotice } = await openSqliteStore(dir)
  t.teardown(() => store.close())
  t.equal(modeOf(dir), 0o777)
  t.match(folderNotice, /is open to other users \(0777\) and belongs to another user/)
})

t.test('a store file of another user that this one may write (a volume made by another uid) opens; it is left as it is', { skip: process.getuid?.() === 0 ? false : 'needs root to hand a file to another user' }, async t => {
  const dir = scratch(t)
  const first = await openSqliteStore(dir)
  await first.store.close()
  const path = join(dir, STORE_FILE)
  chmodSync(path, 0o666)
  chownSync(path, 4242, 4242)
  const { store } = await openSqliteStore(dir)
  t.teardown(() => store.close())
  t.equal(modeOf(path), 0o666, 'not chmod-ed: that would fail for a file this user does not own')
})
