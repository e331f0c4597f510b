import t from 'tap'
import { JOURNAL_ACCOUNTING, JOURNAL_HEADER_LIMITS } from '../../src/world/journal.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

/** 900 two-byte headers (about 6 KiB on the wire): what cost ~80 KB of heap per journal entry before the cap. */
function floodHeaders (): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let i = 0; i < 900; i++) headers[`h${i}`] = 'x'
  return headers
}

const BUDGET = 256 * 1024
const SESSIONS = 6
const PER_SESSION = 40

t.test('header floods over several sessions: each entry keeps 64 headers, and all journals stay within their byte budget', async t => {
  const { call } = await buildTestApp(t, { journalMaxBytes: BUDGET })
  const headers = floodHeaders()
  const statuses = new Set<number>()
  for (let s = 0; s < SESSIONS; s++) {
    for (let i = 0; i < PER_SESSION; i++) statuses.add((await call('GET', '/baas/customers', { token: TOKENS.maya, session: `flood-${s}`, headers })).status)
  }
  t.same([...statuses], [200])

  const { body: listed } = await call('GET', '/__mock/sessions')
  t.equal(listed.journal.maxBytes, BUDGET)
  t.ok(listed.journal.bytes <= BUDGET, `accounted ${listed.journal.bytes} bytes, within the budget`)
  t.ok(listed.journal.bytes > BUDGET * 0.9, 'and the budget was used, not left idle')
  const sessions = new Map<string, { journalSize: number; journalBytes: number }>(listed.sessions.map((s: { id: string }) => [s.id, s]))
  t.equal([...sessions.values()].reduce((sum, s) => sum + s.journalBytes, 0), listed.journal.bytes, 'the sessions\' shares add up to the total')

  const newest = await call('GET', `/__mock/requests?limit=1`, { session: `flood-${SESSIONS - 1}` })
  t.match(newest.body, { size: PER_SESSION, recorded: PER_SESSION }, 'the newest session keeps all its entries')
  const oldest = await call('GET', '/__mock/requests', { session: 'flood-0' })
  t.match(oldest.body, { size: 0, recorded: PER_SESSION }, 'the oldest entries went first, whatever their session')

  const [entry] = newest.body.data
  const kept = Object.entries(entry.headers as Record<string, string>)
  t.equal(kept.length, JOURNAL_HEADER_LIMITS.count, 'an entry keeps 64 headers')
  t.ok(kept.reduce((sum, [name, value]) => sum + name.length + value.length, 0) <= JOURNAL_HEADER_LIMITS.bytes)
  t.same(kept.slice(0, 2), [['h0', 'x'], ['h1', 'x']], 'the first ones sent')
  const sent = 900 + 4 // the flood, authorization, x-mock-session, and inject's user-agent and host
  t.equal(entry.headersTruncated.dropped, sent - JOURNAL_HEADER_LIMITS.count, 'the rest is counted')
  const floodLeftOut = Object.entries(headers).slice(JOURNAL_HEADER_LIMITS.count).reduce((sum, [name, value]) => sum + name.length + value.length, 0)
  t.ok(entry.headersTruncated.droppedBytes > floodLeftOut, 'with its bytes')

  const shareOfLast = sessions.get(`flood-${SESSIONS - 1}`)?.journalBytes ?? 0
  t.equal((await call('DELETE', `/__mock/sessions/flood-${SESSIONS - 1}`)).status, 204)
  const after = (await call('GET', '/__mock/sessions')).body.journal.bytes
  t.equal(after, listed.journal.bytes - shareOfLast, 'a dropped session gives its journal\'s bytes back')
})

t.test('ordinary requests keep every header, with no note', async t => {
  const { call } = await buildTestApp(t)
  await call('GET', '/baas/customers', { token: TOKENS.maya, headers: { 'x-trace': 'abc' } })
  const [entry] = (await call('GET', '/__mock/requests')).body.data
  t.equal(entry.headers['x-trace'], 'abc')
  t.equal(entry.headersTruncated, undefined)
})

t.test('one long header value is left out rather than kept past the byte bound', async t => {
  const { call } = await buildTestApp(t)
  const long = 'v'.repeat(JOURNAL_HEADER_LIMITS.bytes)
  await call('GET', '/baas/customers', { token: TOKENS.maya, headers: { 'x-long': long, 'x-after': 'kept' } })
  const [entry] = (await call('GET', '/__mock/requests')).body.data
  t.equal(entry.headers['x-long'], undefined)
  t.equal(entry.headers['x-after'], 'kept', 'headers after it still fit')
  t.same(entry.headersTruncated, { dropped: 1, droppedBytes: 'x-long'.length + long.length })
})

t.test('the accounting of an entry covers at least what it keeps', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, body: {} })
  const { body } = await call('GET', '/__mock/sessions')
  const [entry] = (await call('GET', '/__mock/requests')).body.data
  const keptText = Object.entries(entry.headers as Record<string, string>).reduce((sum, [n, v]) => sum + n.length + v.length, 0)
  t.ok(body.journal.bytes >= JOURNAL_ACCOUNTING.perEntry + keptText + entry.url.length + JSON.stringify(entry.body).length)
})
