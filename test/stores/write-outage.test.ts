import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { OUTAGE_QUIET_MS, WriteOutage, type OutageTimers } from '../../src/world/stores/write-outage.js'
import { StoreUnavailableError, type SessionChange, type WorldStore } from '../../src/world/stores/store.js'

// A store that refused writes says the outage's end once no write was refused for OUTAGE_QUIET_MS,
// also when the write that showed it can write again was the last one for a while (traffic stopped).

const FULL = new StoreUnavailableError('state store write failed', 1, { cause: new Error('OOM command not allowed when used memory > maxmemory') })

/** A clock and timers moved by hand. */
function handClock (): { now: () => number, at: (ms: number) => void, timers: OutageTimers, pending: () => number } {
  let now = 0
  const waiting = new Map<number, { fire: () => void, due: number }>()
  let next = 0
  return {
    now: () => now,
    // Moves the clock and fires what fell due on the way.
    at: ms => {
      now = ms
      for (const [handle, timer] of [...waiting]) {
        if (timer.due > now) continue
        waiting.delete(handle)
        timer.fire()
      }
    },
    timers: {
      set: (fire, ms) => {
        waiting.set(++next, { fire, due: now + ms })
        return next
      },
      clear: handle => { waiting.delete(handle as number) }
    },
    pending: () => waiting.size
  }
}

function logged (): { lines: string[], log: (level: 'info' | 'warn', line: string) => void } {
  const lines: string[] = []
  return { lines, log: (level, line) => { lines.push(`${level} ${line}`) } }
}

t.test('the end is said by a timer when the last write succeeded within the quiet time', async t => {
  const clock = handClock()
  const { lines, log } = logged()
  const outage = new WriteOutage(log, clock.now, clock.timers)
  outage.failed(FULL)
  outage.failed(FULL)
  t.match(outage.current, /OOM command not allowed/, 'not ready while writes are refused')
  clock.at(300)
  outage.succeeded()
  t.equal(outage.current, undefined, 'ready again as soon as a write succeeds')
  t.equal(lines.length, 1, 'only the beginning so far: the store may still flap')
  clock.at(OUTAGE_QUIET_MS - 1)
  t.equal(lines.length, 1, 'nothing said before the quiet time is over')
  clock.at(OUTAGE_QUIET_MS)
  t.equal(lines.length, 2, 'the end is said with no further write')
  t.match(lines[1], /^info state store can write again after 1 s: 2 write\(s\) refused meanwhile/)
  t.equal(clock.pending(), 0, 'no timer left')
  clock.at(5 * OUTAGE_QUIET_MS)
  outage.succeeded()
  t.equal(lines.length, 2, 'said once')
})

t.test('a write refused after the success keeps the outage going; the next success says the end later', async t => {
  const clock = handClock()
  const { lines, log } = logged()
  const outage = new WriteOutage(log, clock.now, clock.timers)
  outage.failed(FULL)
  clock.at(100)
  outage.succeeded()
  clock.at(200)
  outage.failed(FULL)
  clock.at(OUTAGE_QUIET_MS + 100)
  t.equal(lines.length, 1, 'the timer found the store refusing again: still one outage')
  t.equal(clock.pending(), 0)
  outage.succeeded()
  t.equal(lines.length, 1, 'the last refusal was less than the quiet time ago')
  clock.at(OUTAGE_QUIET_MS + 200)
  t.equal(lines.length, 2)
  t.match(lines[1], /2 write\(s\) refused meanwhile/, 'one outage, both refusals')
})

t.test('a success and a refusal after it before the timer fires: the timer waits for the quiet time from the refusal', async t => {
  const clock = handClock()
  const { lines, log } = logged()
  const outage = new WriteOutage(log, clock.now, clock.timers)
  outage.failed(FULL)
  outage.succeeded()
  clock.at(500)
  outage.failed(FULL)
  outage.succeeded()
  clock.at(OUTAGE_QUIET_MS)
  t.equal(lines.length, 1, 'the refusal at 500 ms restarted the quiet time')
  clock.at(OUTAGE_QUIET_MS + 500)
  t.equal(lines.length, 2, 'said at the end of the quiet time after the last refusal')
})

t.test('closing the watched store stops the timer: nothing is said after close', async t => {
  const clock = handClock()
  const { lines, log } = logged()
  const outage = new WriteOutage(log, clock.now, clock.timers)
  let refuse = true
  let closed = false
  const inner = {
    kind: 'test',
    location: 'memory',
    persistent: true,
    shared: false,
    save: async () => { if (refuse) throw FULL; return 1 },
    close: async () => { closed = true }
  } as unknown as WorldStore
  const store = outage.watch(inner)
  const change = { rows: { events: { appended: [{}] } }, parts: {} } as unknown as SessionChange
  await t.rejects(store.save(change), { name: 'StoreUnavailableError', reported: true })
  refuse = false
  await store.save(change)
  t.equal(clock.pending(), 1, 'the end waits for the quiet time')
  await store.close()
  t.ok(closed)
  t.equal(clock.pending(), 0, 'the timer was cleared')
  clock.at(10 * OUTAGE_QUIET_MS)
  t.equal(lines.length, 1, 'only the beginning was said')
})

t.test('with the real timers, the end is said once the quiet time is over', async t => {
  let now = 0
  const { lines, log } = logged()
  const outage = new WriteOutage(log, () => now)
  outage.failed(FULL)
  // The clock says the quiet time is nearly over: the real timer waits only the rest of it.
  now = OUTAGE_QUIET_MS - 10
  outage.succeeded()
  now = OUTAGE_QUIET_MS + 10
  for (let i = 0; i < 50 && lines.length < 2; i++) await sleep(10)
  t.equal(lines.length, 2, 'the end was said')
  outage.failed(FULL)
  now += OUTAGE_QUIET_MS - 10
  outage.succeeded()
  outage.close()
  now += 10 * OUTAGE_QUIET_MS
  await sleep(30)
  t.equal(lines.length, 3, 'a closed outage says no end: the new beginning only')
})
