import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { runCli, startCli } from '../helpers/spawn.js'

// A healthy store the process may not write (another owner, a read-only folder or file) is not
// damaged: the start stops with the cause and its fix, and never advises --state-reset, which
// would set the healthy data aside and start empty.

const ARGS = ['--now', '2026-11-23T15:00:00Z', '--seed', '7', '--port', '0']
const root = process.getuid?.() === 0
/** As root nothing is refused: the CLI then runs as uid 1000, as the image's user does. */
const AS = root ? { uid: 1000, gid: 1000 } : {}
/** Its compile cache in a folder that user can write. */
const ENV: Record<string, string> = root ? { TMPDIR: tmpdir() } : {}

function stateDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-cli-access-'))
  chmodSync(dir, 0o755)
  t.teardown(() => { chmodSync(dir, 0o755); rmSync(dir, { recursive: true, force: true }) })
  return dir
}

/** A store with a locked card in it, written by a mock run as the test's user. */
async function healthyStore (t: Test): Promise<string> {
  const dir = stateDir(t)
  const server = await startCli([...ARGS, '--state-dir', dir])
  await fetch(`${server.baseUrl}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  server.child.kill('SIGTERM')
  await new Promise(resolve => server.child.once('exit', resolve))
  return dir
}

const skip = process.platform === 'win32' ? 'no file modes on Windows' : tmpdirReachable() ? false : 'uid 1000 cannot reach the temporary folder'

function tmpdirReachable (): boolean {
  return (statSync(tmpdir()).mode & 0o001) !== 0
}

t.test('a folder and file owned by another user: the owner and the chown that fixes it, no reset', { skip }, async t => {
  const dir = await healthyStore(t)
  if (!root) {
    // Not root: the folder's and file's write bits stand in for another owner.
    chmodSync(join(dir, 'baas-mock.db'), 0o444)
    chmodSync(dir, 0o555)
  }
  const { code, stderr } = await runCli([...ARGS, '--state-dir', dir], ENV, 20_000, AS)
  t.equal(code, 1)
  t.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`)
  t.match(stderr, /cannot use the state store .*baas-mock\.db: it cannot be written/)
  t.match(stderr, root ? /owned by uid \d+ .*and this process runs as uid 1000: chown -R 1000 / : /mode is 555: chmod u\+rwx/)
  t.notMatch(stderr, /state-reset/, 'never the advice that would hide the data')
  t.ok(readFileSync(join(dir, 'baas-mock.db')).length > 0, 'the store is where it was')
})

t.test('a folder the user owns but may not write (mode 555): the mode and the chmod that fixes it', { skip }, async t => {
  const dir = await healthyStore(t)
  if (root) {
    chownSync(dir, 1000, 1000)
    chownSync(join(dir, 'baas-mock.db'), 1000, 1000)
  }
  chmodSync(dir, 0o555)
  chmodSync(join(dir, 'baas-mock.db'), 0o444)
  const { code, stderr } = await runCli([...ARGS, '--state-dir', dir], ENV, 20_000, AS)
  t.equal(code, 1)
  // The store first takes the group's and others' bits away (500, 400), never adding the owner's write bit.
  t.match(stderr, /the folder's mode is 500: chmod u\+rwx .*mode is 400: chmod u\+rw/)
  t.notMatch(stderr, /state-reset/)
})
