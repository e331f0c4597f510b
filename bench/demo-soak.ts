import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { runDemoLife } from './demo-life/driver.js'
import { demoLifeSection, demoLifeTargets } from './demo-life/report.js'

/**
 * `npm run soak` (after the sessions soak): a demo's life with long phases. SOAK_DEMO_SECONDS sets
 * how long each steady stretch and each outage lasts (30 by default: about 5 minutes in all);
 * SOAK_DEMO_WORKERS the users on the replicas. Writes its section of bench/RESULTS.md.
 */
const seconds = Number(process.env.SOAK_DEMO_SECONDS ?? 30)
const workers = Number(process.env.SOAK_DEMO_WORKERS ?? 8)
const root = new URL('../../', import.meta.url)
const env: Record<string, string> = {}
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('MOCK_') && !k.startsWith('API_') && !['PORT', 'HOST', 'LOG_LEVEL'].includes(k)) env[k] = v

const figures = await runDemoLife({
  cli: fileURLToPath(new URL('dist/baas-mock.js', root)),
  env: { ...env, NODE_ENV: 'production' },
  steadySeconds: seconds,
  outageSeconds: seconds,
  workers: { replicas: workers, disk: Math.max(1, Math.round(workers / 4)) },
  diskMb: 64,
  say: line => { console.error(`demo soak: ${line}`) }
})
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`
const section = demoLifeSection(figures, { date: new Date().toISOString().slice(0, 10), machine, seconds, workers })
console.log(section)
for (const outage of figures.outages) for (const line of outage.lines) console.error(`  ${outage.name}: ${line}`)
for (const what of figures.found.lostWhat) console.error(`  lost: ${what}`)
const out = process.env.SOAK_OUT ?? fileURLToPath(new URL('bench/RESULTS.md', root))
const previous = readFileSync(out, 'utf8')
const at = previous.indexOf('\n## Demo soak')
const next = at === -1 ? -1 : previous.indexOf('\n## ', at + 1)
writeFileSync(out, at === -1 ? previous.replace(/\n*$/, '\n') + section : previous.slice(0, at) + section + (next === -1 ? '' : previous.slice(next)))
console.log(`wrote ${out}`)
process.exitCode = Object.values(demoLifeTargets(figures)).every(Boolean) ? 0 : 1
