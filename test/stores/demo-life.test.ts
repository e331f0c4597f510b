import t from 'tap'
import { runDemoLife } from '../../bench/demo-life/driver.js'
import { CLI, CLI_ENV } from '../helpers/spawn.js'
import { redisMissing } from '../helpers/redis-server.js'

// A demo's life in about a minute (issue 31): two replicas on a Redis and a mock on a state folder
// under a steady mixed load while Redis is restarted, a replica killed and started again, Redis
// filled and emptied, the disk filled and freed. `npm run soak` runs the same, longer.

/**
 * Reads (GETs) of a session already made answer through a full Redis (test/stores/redis-full.test.ts
 * holds them to it), but the soak's users start new sessions, and a session's first read creates it,
 * which is a write: CI saw 9 such 503s on Node 24. Reported, not held, until the two are told apart.
 */
const FULL_REDIS_READS_ANSWER = false

/**
 * A mock on --state-dir whose disk was full and is freed takes writes again. In one early run (an
 * 8 MB filesystem, which the database itself had likely filled) it answered 503 for more than a
 * minute after the filler was removed; on today's 16 MB it recovered in every run since (six CI
 * soaks, Node 20 and 24, and the local ones), so it is held.
 */
const DISK_FULL_RECOVERS = true

t.test('a demo\'s life: nothing acknowledged is lost, no 5xx outside the outages, at most 2 log lines a mock per outage', { skip: redisMissing, timeout: 170_000 }, async t => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('MOCK_') && !k.startsWith('API_') && !['PORT', 'HOST', 'LOG_LEVEL'].includes(k)) env[k] = v
  const figures = await runDemoLife({ cli: CLI, env: { ...env, ...CLI_ENV }, steadySeconds: 3, outageSeconds: 3, workers: { replicas: 4, disk: 2 }, diskMb: 16 })
  t.comment(JSON.stringify({ ...figures, outages: figures.outages.map(o => ({ ...o, lines: o.lines.length })) }))

  t.ok(figures.acknowledgedWrites > 100, `writes were acknowledged (${figures.acknowledgedWrites})`)
  t.ok(figures.found.found > 100, `and found at the end (${figures.found.found})`)
  t.equal(figures.found.lost, 0, `none lost: ${figures.found.lostWhat.slice(0, 5).join('; ')}`)
  if (figures.found.refusedApplied.length > 0) t.comment(`answered 5xx yet applied (a timed-out or cut command): ${figures.found.refusedApplied.join('; ')}`)
  t.same(figures.stray, { reads5xx: 0, writes5xx: 0, noAnswer: 0, examples: [] }, 'no 5xx and no request without an answer outside the outages')
  for (const outage of figures.outages) {
    if (outage.group === 'replicas' || DISK_FULL_RECOVERS) t.equal(outage.stuck, undefined, `${outage.name}: writes are taken again once it is over`)
    else if (outage.stuck !== undefined) t.comment(`TODO (DISK_FULL_RECOVERS): ${outage.stuck}`)
    t.ok(outage.maxLinesPerMock <= 2, `${outage.name}: ${outage.maxLinesPerMock} log line(s) at most per mock: ${outage.lines.join('\n')}`)
  }
  const full = figures.outages.find(o => o.name.startsWith('Redis filled'))
  t.ok((full?.writes5xx ?? 0) > 0, 'the full Redis refused writes (503): the outage happened')
  if (FULL_REDIS_READS_ANSWER) t.equal(full?.reads5xx, 0, 'reads answer through a full Redis')
  else t.comment(`TODO (FULL_REDIS_READS_ANSWER): reads answered 5xx through the full Redis ${full?.reads5xx} time(s)`)
  if (figures.diskSkipped !== undefined) t.pass(`the state folder's disk filled and freed`, { skip: figures.diskSkipped })
  else t.ok((figures.outages.find(o => o.group === 'state-dir')?.writes5xx ?? 0) > 0, 'the full disk refused writes (503): the outage happened')
  t.same(figures.strayLogLines, [], 'no warning outside the outages')
  for (const m of figures.memory) t.ok(m.startMb > 0 && m.endMb > 0, `${m.name}: RSS ${m.startMb} MB at the start, ${m.endMb} MB at the end`)
})
