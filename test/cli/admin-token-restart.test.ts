import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startCli } from '../helpers/spawn.js'

/**
 * The Docker demo's volume recipe (MOCK_STATE_DIR on 0.0.0.0, no MOCK_ADMIN_TOKEN) as the built CLI
 * runs it: the dashboard link printed at the first start still opens the control plane after a
 * restart, and the start-up lines say the published port is the one to use.
 */

t.test('on 0.0.0.0 with --state-dir, the admin token made at the first start is the token after a restart', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-cli-token-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const args = ['--host', '0.0.0.0', '--state-dir', dir]
  const tokenOf = (output: string): string | undefined => /\/__mock\/ui\?token=(\S+)/.exec(output)?.[1]

  const first = await startCli(args)
  const exited = new Promise(resolve => first.child.once('exit', resolve))
  first.child.kill('SIGTERM')
  await exited
  const token = tokenOf(first.output())
  t.ok(token !== undefined && token.length >= 32, 'the first start prints a dashboard link with a token')
  t.match(first.output(), /baas-mock ready: .*dashboard http:\/\/localhost:\d+\/__mock\/ui \(in a container: at the port you published; --public-url names it\)/,
    'the ready line does not pass the container\'s port off as the published one')

  const second = await startCli(args)
  t.teardown(() => { second.child.kill('SIGKILL') })
  t.equal(tokenOf(second.output()), token, 'the restart prints the same token')
  t.equal((await fetch(`${second.baseUrl}/__mock/state`, { headers: { 'x-mock-admin-token': token ?? '' } })).status, 200, 'which opens the control plane')
  t.equal((await fetch(`${second.baseUrl}/__mock/state`)).status, 401, 'and nothing else does')
})
