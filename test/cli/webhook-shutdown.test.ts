import type { ChildProcess } from 'node:child_process'
import t from 'tap'
import { startCli } from '../helpers/spawn.js'
import { Receiver } from '../helpers/receiver.js'

// A receiver that never answers must not hold a shutdown up: Docker kills at 10 s, and a demo
// redeploy must exit 0 whatever the team's backend is doing.

const WATCHDOG_MS = 15_000
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

function exitOf (child: ChildProcess): Promise<number | null | string> {
  return new Promise(resolve => {
    const watchdog = setTimeout(() => {
      child.kill('SIGKILL')
      resolve(`still running ${WATCHDOG_MS / 1000} s after SIGTERM`)
    }, WATCHDOG_MS)
    child.on('exit', code => { clearTimeout(watchdog); resolve(code) })
  })
}

t.test('SIGTERM while a delivery hangs on a receiver that never answers: the process exits 0, and the secret was never logged', async t => {
  const hooks = await Receiver.start(() => 'hang')
  t.teardown(() => hooks.close())
  const { child, baseUrl, output } = await startCli(['--webhook-url', hooks.url, '--webhook-secret', SECRET, '--webhook-timeout-ms', '60000', '--log-requests', 'all'])
  const locked = await fetch(`${baseUrl}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  t.equal(locked.status, 200, 'the API answers while its delivery hangs')
  await hooks.next(1)
  t.equal(hooks.open, 1, 'the delivery is hanging')
  const exited = exitOf(child)
  child.kill('SIGTERM')
  t.equal(await exited, 0)
  t.notMatch(output(), /killed by timeout/)
  t.notOk(output().includes(SECRET.slice('whsec_'.length)), 'the secret appears in no log line')
})
