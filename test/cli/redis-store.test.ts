import t from 'tap'
import { buildTestApp, TOKENS } from '../helpers/app.js'
import { redisMissing, startRedis, tlsMissing } from '../helpers/redis-server.js'
import { runCli, startCli } from '../helpers/spawn.js'

/**
 * The CLI with --store: a replica killed (SIGKILL) right after its answers loses none of the
 * writes it acknowledged, which another replica then reads; and the settings that keep it from
 * starting, said in one line without the password.
 */

const ARGS = ['--now', '2026-11-23T15:00:00Z', '--seed', '7']

t.test('a replica killed with SIGKILL loses no write it acknowledged: the other replica reads them all', { skip: redisMissing }, async t => {
  const redis = await startRedis(t)
  const { child, baseUrl } = await startCli([...ARGS, '--store', redis.url])
  t.teardown(() => { child.kill('SIGKILL') })
  const post = async (amount: number): Promise<number> => {
    const res = await fetch(`${baseUrl}/baas/scheduled-transfers/internal`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.maya}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'ONCE', startDate: '2026-12-01' })
    })
    await res.arrayBuffer()
    return res.status
  }
  const amounts = Array.from({ length: 20 }, (_, n) => 7000 + n)
  const statuses = await Promise.all(amounts.map(post))
  const lock = await fetch(`${baseUrl}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}` } })
  t.equal(lock.status, 200)
  // Killed at once after the last answer: no close hook, nothing flushed.
  child.kill('SIGKILL')
  t.same(statuses.filter(status => status !== 201), [], 'every write was acknowledged')
  const other = await buildTestApp(t, { store: redis.url })
  const listed = await other.call('GET', '/baas/scheduled-transfers?limit=100', { token: TOKENS.maya })
  const kept = (listed.body as { data: Array<{ amount: number }> }).data.map(transfer => transfer.amount).filter(amount => amount >= 7000 && amount < 7100).sort((x, y) => x - y)
  t.same(kept, amounts, 'the other replica reads every acknowledged transfer')
  const state = await other.call('GET', '/__mock/state')
  t.equal((state.body as { debitCards: Array<{ id: string; status: string }> }).debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED')
})

t.test('rediss:// with a password: the replica talks TLS to Redis, authenticates, and logs neither secret', { skip: tlsMissing }, async t => {
  const password = 'tls-s3cret'
  const redis = await startRedis(t, { tls: true, password })
  const { child, baseUrl, output } = await startCli([...ARGS, '--store', redis.url], { NODE_EXTRA_CA_CERTS: redis.caFile ?? '' })
  t.teardown(() => { child.kill('SIGKILL') })
  t.equal((await fetch(`${baseUrl}/readyz`)).status, 200, 'ready: connected over TLS')
  const lock = await fetch(`${baseUrl}/baas/debit-cards/card_maya_virtual/lock`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}` } })
  t.equal(lock.status, 200)
  t.match(output(), `rediss://127.0.0.1:${redis.port}/0`, 'the log names the Redis')
  t.notMatch(output(), password)
})

t.test('--store and --state-dir together: one line, no start', async t => {
  const run = await runCli(['--store', 'redis://127.0.0.1:1/0', '--state-dir', t.testdirName])
  t.equal(run.code, 1)
  t.equal(run.stderr, 'baas-mock: --store (MOCK_STORE) and --state-dir (MOCK_STATE_DIR) each name where sessions are kept: give one of them\n')
})

t.test('a --store that is no Redis URL: one line naming the setting, the password left out', async t => {
  const run = await runCli([], { MOCK_STORE: 'http://:pa55word@cache.internal:6379/0' })
  t.equal(run.code, 1)
  t.match(run.stderr, /^baas-mock: --store \(MOCK_STORE, store\): must be a Redis URL: .*, got http:\/\/cache\.internal:6379\/0\.\n$/)
  t.notMatch(run.stderr, 'pa55word')
  const garbled = await runCli(['--store', 'redis//:pa55word@cache'])
  t.match(garbled.stderr, /got \(not a URL\)\.\n$/)
  t.notMatch(garbled.stderr, 'pa55word')
})
