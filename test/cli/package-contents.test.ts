import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { startCli } from '../helpers/spawn.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

/** The top-level folders under node_modules of the production dependency tree (`node_modules/@fastify/swagger`). */
async function productionDependencies (): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
  return stdout.split('\n').map(path => relative(ROOT, path)).filter(path => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path))
}

/**
 * `npx baas-mock` from a team's app runs what `npm pack` ships (a tarball, or an install from a
 * clone): the files listed there, beside the dependencies, must be enough to serve everything.
 */
t.test('the files npm packs are enough to serve the API, the contract, the dashboard and the PIN page', async t => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT })
  const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }]
  const files = pack.files.map(f => f.path)
  t.ok(files.includes('dist/baas-mock.js'), 'the bin is packed')
  t.notOk(files.some(f => f.startsWith('test/') || f.startsWith('dist/test/') || f.startsWith('bench/')), 'no tests or benchmarks')

  const unpacked = mkdtempSync(join(tmpdir(), 'baas-mock-packed-'))
  for (const file of files) {
    mkdirSync(dirname(join(unpacked, file)), { recursive: true })
    cpSync(join(ROOT, file), join(unpacked, file))
  }
  // Production dependencies only, as an install from the tarball has them: a package the bin needs
  // that sits in devDependencies fails here.
  for (const dependency of await productionDependencies()) {
    mkdirSync(dirname(join(unpacked, dependency)), { recursive: true })
    symlinkSync(join(ROOT, dependency), join(unpacked, dependency), 'dir')
  }
  const server = await startCli([], {}, join(unpacked, 'dist/baas-mock.js'))
  t.teardown(() => server.child.kill('SIGTERM'))

  const customer = await fetch(`${server.baseUrl}/baas/customers`)
  t.equal(customer.status, 200)
  t.equal((await customer.json() as { id: string }).id, 'cus_maya', 'the bundled personas are there')
  for (const path of ['/docs/', '/openapi.yaml', '/__mock/ui/', '/__mock/ui/app.js', '/readyz']) {
    t.equal((await fetch(`${server.baseUrl}${path}`)).status, 200, path)
  }
  const link = await fetch(`${server.baseUrl}/baas/debit-cards/card_maya_virtual/set-pin-url`, { method: 'POST' })
  const { url } = await link.json() as { url: string }
  t.equal((await fetch(url)).status, 200, 'the PIN page')
})
