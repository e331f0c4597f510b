import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
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

interface Pack { size: number; unpackedSize: number; files: { path: string; size: number }[] }

async function packed (): Promise<Pack> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT })
  return (JSON.parse(stdout) as [Pack])[0]
}

/**
 * What the package may hold: the bin and its bundle, the modules `import 'baas-mock'` loads, their
 * types, the browser build, and the data they read. Nothing of the build itself (dist/scripts,
 * .tsbuildinfo, the bundle's input list) and no source map: the maps would name sources that are
 * not shipped.
 */
const SHIPPED = [
  /^(package\.json|README\.md|openapi\.yaml)$/,
  /^dist\/(baas-mock\.js|baas-mock\.cjs|checked-fixtures\.json|msw\.browser(\.[\w-]+)?\.js|openapi\.js|openapi\.d\.ts)$/,
  /^dist\/(src|routes)\/.+\.js$/,
  /^dist\/types\/.+\.d\.ts$/,
  /^fixtures\/.+\.ya?ml$/,
  /^src\/ui\/[^/]+$/
]

/** Sizes as of the lean package (README, Development): a bound a little above each, so growth is a decision. */
const TARBALL_LIMIT = 1_500_000
const UNPACKED_LIMIT = 6_000_000
/**
 * The browser build, minified as Vite would: Vite warns of a chunk over 500 kB. Its entry holds the
 * options and routes; the mock itself and its libraries are chunks loaded on first use (README,
 * Development): the bound on the entry keeps them there.
 */
const BROWSER_ENTRY_LIMIT = 20_000
const VITE_CHUNK_LIMIT = 500_000
/** What an app loads up front of baas-mock/msw, minified (msw left out, the app brings its own): the options, routes and fixtures, TypeBox, Temporal. */
const APP_ENTRY_LIMIT = 260_000

t.test('the package carries what a user runs and its types, nothing else, within its size', async t => {
  const pack = await packed()
  const strays = pack.files.map(f => f.path).filter(path => !SHIPPED.some(pattern => pattern.test(path)))
  t.same(strays, [], 'no build leftovers, source maps or tests')
  t.ok(pack.size < TARBALL_LIMIT, `the tarball, ${pack.size} bytes, is under ${TARBALL_LIMIT}`)
  t.ok(pack.unpackedSize < UNPACKED_LIMIT, `unpacked, ${pack.unpackedSize} bytes, under ${UNPACKED_LIMIT}`)
  const browser = pack.files.find(f => f.path === 'dist/msw.browser.js')?.size ?? Infinity
  t.ok(browser < BROWSER_ENTRY_LIMIT, `the browser build's entry, ${browser} bytes minified, is under ${BROWSER_ENTRY_LIMIT}`)
  const chunks = pack.files.filter(f => /^dist\/msw\.browser\..+\.js$/.test(f.path))
  t.ok(chunks.some(f => f.path.includes('bundled-ui-files')), 'the dashboard\'s files are a chunk of their own')
  for (const chunk of chunks) t.ok(chunk.size < VITE_CHUNK_LIMIT, `${chunk.path}, ${chunk.size} bytes, is under Vite's ${VITE_CHUNK_LIMIT}`)
})

t.test('an app bundled as Vite would gets the browser build in chunks under Vite\'s warning, the mock\'s libraries loaded on first use', async t => {
  // esbuild stands in for Vite's Rollup: both resolve the package's browser condition, make each
  // dynamically imported module a chunk, and warn on the minified size. The chunks are run by the browser tests.
  const { build } = await import('esbuild')
  const outdir = join(ROOT, 'app-out')
  const result = await build({
    stdin: { contents: "import { createHandlers } from 'baas-mock/msw'\nexport const handlers = createHandlers()\n", resolveDir: ROOT, loader: 'js' },
    bundle: true, splitting: true, minify: true, outdir, entryNames: 'app', platform: 'browser', format: 'esm', target: 'es2022',
    external: ['msw'], write: false, metafile: true, logLevel: 'silent'
  })
  const outputs = Object.entries(result.metafile.outputs)
  for (const [path, output] of outputs) t.ok(output.bytes < VITE_CHUNK_LIMIT, `${relative(outdir, path)}, ${output.bytes} bytes, is under Vite's ${VITE_CHUNK_LIMIT}`)
  // What loads before createHandlers returns: the app's chunk and the chunks it imports statically.
  const upFront = new Set<string>()
  const visit = (path: string): void => {
    if (upFront.has(path)) return
    upFront.add(path)
    for (const imported of result.metafile.outputs[path]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path)
  }
  visit(outputs.find(([path]) => path.endsWith('app.js'))?.[0] ?? '')
  const upFrontBytes = [...upFront].reduce((sum, path) => sum + (result.metafile.outputs[path]?.bytes ?? 0), 0)
  t.ok(upFrontBytes < APP_ENTRY_LIMIT, `what the app loads up front, ${upFrontBytes} bytes, is under ${APP_ENTRY_LIMIT}`)
  const upFrontInputs = [...upFront].flatMap(path => Object.keys(result.metafile.outputs[path]?.inputs ?? {}))
  t.same(upFrontInputs.filter(input => /node_modules\/(ajv|yaml|handlebars|fast-json-stringify|find-my-way)\//.test(input)), [], 'Ajv, YAML, Handlebars, fast-json-stringify and find-my-way load with the mock, on first use')
})

/**
 * `npx baas-mock` from a team's app runs what `npm pack` ships (a tarball, or an install from a
 * clone): the files listed there, beside the dependencies, must be enough to serve everything.
 */
t.test('the files npm packs are enough to serve the API, the contract, the dashboard and the PIN page', async t => {
  const files = (await packed()).files.map(f => f.path)
  t.ok(files.includes('dist/baas-mock.js'), 'the bin is packed')
  t.notOk(files.some(f => f.startsWith('test/') || f.startsWith('dist/test/') || f.startsWith('bench/')), 'no tests or benchmarks')

  const unpacked = mkdtempSync(join(tmpdir(), 'baas-mock-packed-'))
  t.teardown(() => rmSync(unpacked, { recursive: true, force: true }))
  for (const file of files) {
    mkdirSync(dirname(join(unpacked, file)), { recursive: true })
    cpSync(join(ROOT, file), join(unpacked, file))
  }
  // Production dependencies only, as an install from the tarball has them: a package the bin needs
  // that sits in devDependencies fails here. The stores' drivers are optional peers, not among them.
  const dependencies = await productionDependencies()
  t.notOk(dependencies.some(path => /\/(better-sqlite3|ioredis)$/.test(path)), 'nothing native, no Redis client, unless asked for')
  for (const dependency of dependencies) {
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

  // A store asked for without its driver: one line naming the package to add, not a stack trace.
  for (const [args, name] of [[['--state-dir', join(unpacked, 'state')], 'better-sqlite3'], [['--store', 'redis://127.0.0.1:1/'], 'ioredis']] as const) {
    const failed = await run(process.execPath, [join(unpacked, 'dist/baas-mock.js'), '--port', '0', ...args], { env: { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0' } }).then(() => undefined, (error: { code: number; stderr: string }) => error)
    t.equal(failed?.code, 1, `${args[0]} without ${name} stops`)
    t.equal(failed?.stderr, `baas-mock: ${args[0]} needs the ${name} package, which is not installed: add it with npm install ${name}\n`)
  }
})
