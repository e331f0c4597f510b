import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { runCli, startCli } from '../helpers/spawn.js'

// stores.md's reset recipe, run as printed (the docker run's arguments and variables, without
// Docker): a one-off that exits, so that no restart of the serving container resets again.

const ARGS = ['--now', '2026-11-23T15:00:00Z', '--seed', '7']
const MAYA = { authorization: 'Bearer tok_maya' }

function stateDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'baas-cli-reset-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The recipe's `docker run --rm` line: its -e variables, and the arguments after the image's CLI. */
function recipe (): { line: string; env: Record<string, string>; args: string[] } {
  const stores = readFileSync(new URL('../../docs/reference/stores.md', import.meta.url), 'utf8')
  const line = stores.split('\n').find(l => l.startsWith('docker run --rm') && l.includes('state-reset')) ?? ''
  const env = Object.fromEntries([...line.matchAll(/-e (\w+)=(\S+)/g)].map(([, name, value]) => [name ?? '', value ?? '']))
  const args = line.split('dist/baas-mock.js')[1]?.trim().split(/\s+/) ?? []
  return { line, env, args }
}

/** Starts the mock on `dir` (as the demo's container does: no flag), runs `work`, stops it. */
async function serve (dir: string, work: (base: string) => Promise<void>): Promise<void> {
  const server = await startCli([...ARGS, '--state-dir', dir])
  await work(server.baseUrl)
  server.child.kill('SIGTERM')
  await new Promise(resolve => server.child.once('exit', resolve))
}

async function cardStatus (base: string): Promise<string | undefined> {
  const state = await (await fetch(`${base}/__mock/state`)).json() as { debitCards: Array<{ id: string; status: string }> }
  return state.debitCards.find(card => card.id === 'card_maya_virtual')?.status
}

const lock = (base: string): Promise<Response> => fetch(`${base}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: MAYA })

t.test('the documented reset is a one-off: it sets the store aside and exits; the next start is fresh, and the ones after keep their data', async t => {
  const { line, env, args } = recipe()
  t.match(line, /--rm /, 'a container removed when it exits')
  t.notMatch(line, / -d /, 'run in the foreground, to its end')
  t.same(args, ['state-reset'])
  const dir = stateDir(t)
  await serve(dir, async base => { await lock(base) })

  const reset = await runCli(args, { ...env, MOCK_STATE_DIR: dir })
  t.equal(reset.code, 0, reset.stderr)
  t.match(reset.stdout, /^state-reset: the store in .* is kept as .*baas-mock-aside-\d{8}T\d{6}Z\.db; the next start begins afresh\n$/)
  t.equal(readdirSync(dir).filter(name => /^baas-mock-aside-.*\.db$/.test(name)).length, 1, 'nothing deleted')

  await serve(dir, async base => {
    t.equal(await cardStatus(base), 'ACTIVE', 'the start after the reset is fresh')
    await lock(base)
  })
  // A restart of the demo's container: its command has no reset in it.
  await serve(dir, async base => { t.equal(await cardStatus(base), 'LOCKED', 'the next restart keeps what was done since') })
})

t.test('state-reset on a folder with no store yet, and without a folder', async t => {
  const dir = stateDir(t)
  const empty = await runCli(['state-reset', '--state-dir', join(dir, 'new')])
  t.equal(empty.code, 0)
  t.match(empty.stdout, /no store in .*new yet; the next start begins afresh/)
  const none = await runCli(['state-reset'])
  t.equal(none.code, 1)
  t.equal(none.stderr, 'baas-mock: state-reset sets aside the store in --state-dir (MOCK_STATE_DIR): give that too\n')
})
