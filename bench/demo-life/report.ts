import type { DemoLifeFigures } from './driver.js'

/** What the soak holds a demo's life to; reads through a full Redis are held only where the suite says so (FULL_REDIS_READS_ANSWER). */
export function demoLifeTargets (figures: DemoLifeFigures): { lost: boolean; stray: boolean; lines: boolean; recovered: boolean } {
  return {
    lost: figures.found.lost === 0 && figures.found.found > 0,
    stray: figures.stray.reads5xx + figures.stray.writes5xx + figures.stray.noAnswer === 0,
    lines: figures.outages.every(o => o.maxLinesPerMock <= 2),
    recovered: figures.outages.every(o => o.stuck === undefined)
  }
}

const n = (value: number): string => value.toLocaleString('en-US')

export function demoLifeSection (figures: DemoLifeFigures, run: { date: string; machine: string; seconds: number; workers: number }): string {
  const targets = demoLifeTargets(figures)
  const mark = (ok: boolean): string => (ok ? 'met' : '**missed**')
  const rows = figures.outages.map(o => `| ${o.name} | ${o.seconds} | ${n(o.requests)} | ${o.writes5xx} / ${o.reads5xx} / ${o.noAnswer} | ${o.maxLinesPerMock} | ${o.stuck === undefined ? 'yes' : `**no**: ${o.stuck.replace(/\|/g, '/')}`} |`)
  return `
## Demo soak

\`npm run soak\` on ${run.date}: ${run.machine}. Two replicas (\`--store\`) on one redis-server (append-only
file) and a third mock on \`--state-dir\` (a tmpfs of its own), ${run.workers} users on the replicas, round-robin,
each through sessions of its own (customer, card lock or unlock, transfers listed and one scheduled, a code sent,
read and verified); ${run.seconds} s of steady load before, between and after the outages, each held ${run.seconds} s.
${figures.diskSkipped === undefined ? '' : `The full disk did not run: ${figures.diskSkipped}.\n`}
| measure | value | target | |
|---|---|---|---|
| requests, reads / writes | ${n(figures.requests.reads)} / ${n(figures.requests.writes)} in ${figures.seconds} s | | |
| writes acknowledged (2xx) | ${n(figures.acknowledgedWrites)} | | |
| acknowledged writes looked for at the end: found / lost (${figures.found.unknownCards} card states left unknown by a cut connection; ${figures.found.refusedApplied.length} answered 5xx yet found applied: a timed-out or cut command) | ${n(figures.found.found)} / ${figures.found.lost} | 0 lost | ${mark(targets.lost)} |
| outside the outages: 5xx to writes / reads, no answer | ${figures.stray.writes5xx} / ${figures.stray.reads5xx}, ${figures.stray.noAnswer} | 0 | ${mark(targets.stray)} |
| log lines per mock per outage, at most | ${Math.max(0, ...figures.outages.map(o => o.maxLinesPerMock))} | ≤ 2 | ${mark(targets.lines)} |
| warnings outside the outages | ${figures.strayLogLines.length} | | |
| RSS MB at the start / end | ${figures.memory.map(m => `${m.name} ${m.startMb} / ${m.endMb}`).join(', ')} | | |

| outage | window s | requests in it | 5xx writes / reads, no answer | log lines per mock, most | writes again within 60 s |
|---|---|---|---|---|---|
${rows.join('\n')}
`
}
