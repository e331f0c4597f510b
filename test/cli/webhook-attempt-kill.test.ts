import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { STORE_FILE } from '../../src/world/stores/sqlite.js'
import { Receiver } from '../helpers/receiver.js'
import { startCli } from '../helpers/spawn.js'

/**
 * Issue 31 (finding 10): a webhook attempt the receiver answered is saved as it happens, not with
 * the session's next save: killed (SIGKILL) once it is in the store, the mock lists it after the restart.
 */

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const ARGS = ['--now', '2026-11-23T15:00:00Z', '--seed', '7']
const MAYA = { authorization: 'Bearer tok_maya', 'x-mock-session': 'hooks' }

interface Attempt { status?: number }
interface DeliveryRecord { status: string; attempts: Attempt[] }

function killed (child: ChildProcess): Promise<void> {
  return new Promise(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

/**
 * What the store's files hold, as bytes: the mock holds its database exclusively, and a request to
 * it would save the session itself. A JSON part is stored as text, in the write-ahead log or the database.
 */
function storedBytes (dir: string): string {
  return [STORE_FILE, `${STORE_FILE}-wal`].map(name => existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'latin1') : '').join('')
}

t.test('SIGKILL after the receiver answered: the attempt is in the delivery\'s history after the restart', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'baas-cli-hooks-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const receiver = await Receiver.start(() => 200)
  t.teardown(() => receiver.close())
  const args = [...ARGS, '--state-dir', dir, '--webhook-url', receiver.url, '--webhook-secret', SECRET]
  const first = await startCli(args)
  t.teardown(() => killed(first.child))

  const locked = await fetch(`${first.baseUrl}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: MAYA })
  t.equal(locked.status, 200)
  await receiver.next(1)
  // Nothing more is asked of the mock: before this change only its next save (another request,
  // or the sweep a minute away) would have written the attempt. Waited for in the store itself.
  // The delivery's attempts, not the journal's entry of the request (which has a status too).
  const answered = /"attempts":\[\{"at":"[^"]+","status":200,/
  let stored = ''
  for (let tries = 0; tries < 400 && !answered.test(stored); tries++) {
    await sleep(50)
    stored = storedBytes(dir)
  }
  t.match(stored, answered, 'the answered attempt is in the store while the mock runs')
  await killed(first.child)

  const second = await startCli(args)
  t.teardown(() => killed(second.child))
  const listed = await fetch(`${second.baseUrl}/__mock/webhooks/deliveries`, { headers: MAYA })
  t.equal(listed.status, 200)
  const { data } = await listed.json() as { data: DeliveryRecord[] }
  t.equal(data.length, 1)
  t.match(data[0], { status: 'SUCCEEDED' }, 'listed settled')
  t.same(data[0]?.attempts.map(attempt => attempt.status), [200], 'with the attempt the receiver answered, the only one')
  t.equal(receiver.received.length, 1, 'and not sent again')
})
