import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Group, Load, lookFor, type Answer, type Found } from './load.js'
import { fillDisk, freeDisk, freePort, MockProcess, mountSmallDisk, PersistentRedis, removeDir, unmount, until, type LogLine } from './processes.js'
import { fillRedis, type RedisControl } from './redis-control.js'

/**
 * A demo's life, compressed: two replicas on one Redis and a third mock on a state folder of its
 * own, under a steady mixed load, while Redis is restarted, a replica is killed (-9) and started
 * again, Redis is filled to its maxmemory (noeviction) and emptied, and the state folder's disk is
 * filled and freed. Each of those is an outage window: 503s inside are expected, none outside. At
 * the end, every write the mocks acknowledged is looked for. Used by the suite (short phases) and
 * `npm run soak` (long ones).
 */
export interface DemoLifeOptions {
  /** The built CLI (dist/baas-mock.js). */
  cli: string
  /** The environment the mocks run with. */
  env: Record<string, string>
  /** Seconds of steady load before, between and after the outages. */
  steadySeconds: number
  /** Seconds each outage is held before it is undone. */
  outageSeconds: number
  /** Concurrent users on the two replicas, and on the mock with a state folder. */
  workers: { replicas: number; disk: number }
  /** Size of the state folder's filesystem, MB: room for what the run writes, which the filler then takes. */
  diskMb: number
  /** Progress lines (the bench prints them; the suite stays quiet). */
  say?: (line: string) => void
}

export interface OutageFigures {
  name: string
  group: string
  seconds: number
  /** Answers inside the window: 5xx to reads, to writes, and requests that got no answer (a killed replica). */
  reads5xx: number
  writes5xx: number
  noAnswer: number
  requests: number
  /** Why the group did not take writes again within 60 s of the outage's end, when it did not. */
  stuck: string | undefined
  /** Log lines per mock in the window (request lines aside), the most any one wrote, and the lines. */
  maxLinesPerMock: number
  lines: string[]
}

export interface DemoLifeFigures {
  requests: { reads: number; writes: number }
  acknowledgedWrites: number
  found: Found
  /** Outside every outage window of their group: 5xx to reads, to writes, requests without an answer. */
  stray: { reads5xx: number; writes5xx: number; noAnswer: number; examples: string[] }
  outages: OutageFigures[]
  /** warn and above, outside every window (request lines aside). */
  strayLogLines: string[]
  memory: Array<{ name: string; startMb: number; endMb: number }>
  /** Why the full-disk phase did not run, when it did not. */
  diskSkipped: string | undefined
  seconds: number
}

interface Window { name: string; group: Group; startMs: number; endMs: number; stuck?: string | undefined }

export async function runDemoLife (options: DemoLifeOptions): Promise<DemoLifeFigures> {
  const began = Date.now()
  const say = options.say ?? (() => {})
  const dir = mkdtempSync(join(tmpdir(), 'baas-demo-life-'))
  const redis = new PersistentRedis(await freePort(), join(dir, 'redis'))
  const diskDir = join(dir, 'disk')
  const mocks: MockProcess[] = []
  let mounted = false
  const load = new Load()
  try {
    mkdirSync(redis.dir)
    await redis.start()
    const store = ['--store', redis.url]
    const replicas = [
      new MockProcess('replica-a', options.cli, await freePort(), store, options.env),
      new MockProcess('replica-b', options.cli, await freePort(), store, options.env)
    ]
    const diskSkipped = mountSmallDisk(diskDir, `${options.diskMb}m`)
    mounted = diskSkipped === undefined
    const onDisk = mounted ? new MockProcess('state-dir', options.cli, await freePort(), ['--state-dir', join(diskDir, 'state')], options.env) : undefined
    for (const mock of [...replicas, ...(onDisk === undefined ? [] : [onDisk])]) {
      mocks.push(mock)
      await mock.start()
    }
    const shared = new Group('replicas', replicas)
    const single = onDisk === undefined ? undefined : new Group('state-dir', [onDisk])
    load.run(shared, options.workers.replicas)
    if (single !== undefined) load.run(single, options.workers.disk)
    const windows: Window[] = []
    const outage = async (name: string, group: Group, inject: () => Promise<void>, undo: () => Promise<void>, untilRefused = false): Promise<void> => {
      await sleep(options.steadySeconds * 1000)
      say(`${name}…`)
      const window: Window = { name, group, startMs: Date.now(), endMs: Infinity }
      windows.push(window)
      await inject()
      // A full disk bites once SQLite needs a page more than its write-ahead log holds: held from the first refusal.
      if (untilRefused) await until(60_000, async () => load.answers.some(a => a.group === group.name && a.startMs >= window.startMs && a.status >= 500))
      await sleep(options.outageSeconds * 1000)
      say(`  held from ${Math.round((Date.now() - window.startMs) / 100) / 10} s; undoing`)
      await undo()
      say(`  undone at ${Math.round((Date.now() - window.startMs) / 100) / 10} s; waiting for a write through each mock`)
      window.stuck = await settled(group)
      window.endMs = Date.now()
    }

    await sleep(options.steadySeconds * 1000)
    const startMemory = new Map(mocks.map(m => [m.name, m.rssMb()]))
    say(`steady load on ${mocks.map(m => m.name).join(', ')}`)

    await outage('Redis restarted (SIGTERM, started again on its port and folder)', shared, async () => { await redis.stop() }, async () => { await redis.start() })

    const killed = replicas[1] as MockProcess
    await outage('a replica killed (-9) and started again', shared, async () => {
      shared.down.add(killed)
      await killed.stop('SIGKILL')
    }, async () => {
      await killed.start()
      shared.down.delete(killed)
    })

    let control: RedisControl | undefined
    await outage('Redis filled to maxmemory (noeviction), then emptied', shared, async () => {
      control = await fillRedis(redis.url)
    }, async () => { await control?.empty() })
    await control?.restore()

    if (single !== undefined) {
      let filler = ''
      await outage(`the state folder's disk filled (tmpfs of ${options.diskMb} MB), then freed`, single, async () => {
        filler = fillDisk(diskDir)
      }, async () => { freeDisk(filler) }, true)
    }

    await sleep(options.steadySeconds * 1000)
    const endMemory = new Map(mocks.map(m => [m.name, m.rssMb()]))
    await load.stop()
    say('looking for every acknowledged write')

    const sessionsOf = (group: string): typeof load.sessions => load.sessions.filter(s => s.group === group)
    const found = await lookFor(sessionsOf(shared.name), replicas[0] as MockProcess)
    if (onDisk !== undefined) {
      // Through a new process on the same folder: what is found was on the disk, not only in memory.
      await onDisk.stop()
      await onDisk.start()
      const onDiskFound = await lookFor(sessionsOf('state-dir'), onDisk)
      found.found += onDiskFound.found
      found.lost += onDiskFound.lost
      found.lostWhat.push(...onDiskFound.lostWhat)
      found.unknownCards += onDiskFound.unknownCards
      found.refusedApplied.push(...onDiskFound.refusedApplied)
    }
    return {
      ...tally(load.answers, windows, mocks),
      acknowledgedWrites: load.answers.filter(a => a.write && a.status >= 200 && a.status < 300).length,
      found,
      memory: mocks.map(m => ({ name: m.name, startMb: startMemory.get(m.name) ?? 0, endMb: endMemory.get(m.name) ?? 0 })),
      diskSkipped,
      seconds: Math.round((Date.now() - began) / 1000)
    }
  } finally {
    await load.stop()
    for (const mock of mocks) await mock.stop('SIGKILL')
    await redis.stop()
    if (mounted) unmount(diskDir)
    removeDir(dir)
  }
}

/**
 * Over once a write through every member of the group is kept (2xx): Redis reconnected, the
 * restarted replica ready, the store writing again (which also ends its "cannot write" state).
 * What a member still answers after 60 s when it does not recover, else undefined.
 */
async function settled (group: Group): Promise<string | undefined> {
  for (const member of group.members) {
    let last = ''
    const ok = await until(60_000, async () => {
      const res = await fetch(`${member.url}/__mock/clock/advance`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-session': 'soak-probe' }, body: '{"by":"PT1S"}'
      })
      last = `${res.status} ${await res.text()}`
      return res.ok
    })
    if (ok) continue
    const ready = await fetch(`${member.url}/readyz`).then(async res => `${res.status} ${await res.text()}`, (error: unknown) => String(error))
    return `${member.name} took no write within 60 s: a write answers ${last.slice(0, 200)}; /readyz ${ready.slice(0, 400)}`
  }
  return undefined
}

const isRequestLine = (line: LogLine): boolean => line.msg === 'request'

function tally (answers: Answer[], windows: Window[], mocks: MockProcess[]): Pick<DemoLifeFigures, 'requests' | 'stray' | 'outages' | 'strayLogLines'> {
  const inWindow = (a: Answer, w: Window): boolean => a.group === w.group.name && a.startMs <= w.endMs && a.endMs >= w.startMs
  const stray = { reads5xx: 0, writes5xx: 0, noAnswer: 0, examples: [] as string[] }
  for (const a of answers) {
    if (a.status !== 0 && a.status < 500) continue
    if (windows.some(w => inWindow(a, w))) continue
    if (a.status === 0) stray.noAnswer++
    else if (a.write) stray.writes5xx++
    else stray.reads5xx++
    if (stray.examples.length < 5) stray.examples.push(`${a.write ? 'write' : 'read'} ${a.path} on ${a.group}: ${a.status === 0 ? 'no answer' : a.status}`)
  }
  // A line a little after the window still belongs to it: "can write again" is said as the probe's write is kept.
  const linesIn = (w: Window, mock: MockProcess): LogLine[] => mock.lines.filter(line => !isRequestLine(line) && line.atMs >= w.startMs && line.atMs <= w.endMs + 1000 &&
    // A mock started inside the window says it started: that is its start, not the outage's; its warnings count.
    (mock.startedMs < w.startMs || line.atMs < mock.startedMs || line.level >= 40))
  const outages = windows.map(w => {
    const inside = answers.filter(a => inWindow(a, w))
    const perMock = w.group.members.map(m => linesIn(w, m).map(line => `${m.name}: ${line.text.slice(0, 300)}`))
    return {
      name: w.name,
      group: w.group.name,
      seconds: Math.round((w.endMs - w.startMs) / 100) / 10,
      reads5xx: inside.filter(a => !a.write && a.status >= 500).length,
      writes5xx: inside.filter(a => a.write && a.status >= 500).length,
      noAnswer: inside.filter(a => a.status === 0).length,
      requests: inside.length,
      stuck: w.stuck,
      maxLinesPerMock: Math.max(0, ...perMock.map(lines => lines.length)),
      lines: perMock.flat()
    }
  })
  const strayLogLines = mocks.flatMap(m => m.lines
    .filter(line => line.level >= 40 && !isRequestLine(line) && !windows.some(w => w.group.members.includes(m) && line.atMs >= w.startMs && line.atMs <= w.endMs + 1000))
    .map(line => `${m.name}: ${line.text.slice(0, 300)}`))
  return {
    requests: { reads: answers.filter(a => !a.write).length, writes: answers.filter(a => a.write).length },
    stray,
    outages,
    strayLogLines
  }
}
