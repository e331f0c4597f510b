import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { BUNDLED_FIXTURES, PACKAGE_ROOT } from '../src/config/config.js'
import { CHECKED_FILES, recordCheckedFiles } from '../src/fixtures/checked-files.js'

/** The CLI, one CommonJS file: the launcher runs it through V8's code cache (src/cli/compile-cache.ts). */
const OUTFILE = join(PACKAGE_ROOT, 'dist/baas-mock.cjs')
/** The package's bin. */
const LAUNCHER = join(PACKAGE_ROOT, 'dist/baas-mock.js')
/** What the last bundle was made of, so that `npm start` after no change skips the work. */
const INPUTS_FILE = join(PACKAGE_ROOT, 'dist/bundle-inputs.json')
/**
 * npm gives installed files a fixed old mtime: a changed dependency shows only in the lockfiles,
 * so they count as inputs too.
 */
const INSTALL_MARKERS = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'].map(p => join(PACKAGE_ROOT, p))

function mtimeOf (path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs
}

/** True when `output` exists and no input is newer (a missing input counts as changed). */
function isFresh (output: string, inputs: readonly string[]): boolean {
  const built = mtimeOf(output)
  return built !== undefined && inputs.every(path => (mtimeOf(path) ?? Infinity) <= built)
}

function filesUnder (dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(e => e.isFile()).map(e => join(e.parentPath, e.name))
}

function recordedInputs (): string[] | undefined {
  try {
    return JSON.parse(readFileSync(INPUTS_FILE, 'utf8')) as string[]
  } catch {
    return undefined
  }
}

/**
 * One-file build of the CLI: loading ~900 small modules costs more than the rest of a cold start.
 * Packages that read their own files at run time (log transports, the Swagger UI assets) stay
 * outside the bundle and load from node_modules.
 */
const bundleInputs = recordedInputs()
if (bundleInputs === undefined || !isFresh(OUTFILE, [...bundleInputs, ...INSTALL_MARKERS])) {
  const result = await build({
    entryPoints: [join(PACKAGE_ROOT, 'dist/src/cli.js')],
    outfile: OUTFILE,
    bundle: true,
    platform: 'node',
    // CommonJS, not ESM: Node 20 gives an ES module no code cache, and a vm.Script takes one.
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    minifyWhitespace: true,
    logLevel: 'warning',
    // import() would need a loader callback that V8 drops when the script comes from a cache: require() instead.
    supported: { 'dynamic-import': false },
    // better-sqlite3 loads its native module from its own folder; only --state-dir loads it at all,
    // and only --store loads ioredis: neither is parsed at a start without them.
    external: ['pino-pretty', '@fastify/swagger-ui', '@fastify/static', 'esbuild', 'better-sqlite3', 'ioredis'],
    define: { 'import.meta.url': '__bundleUrl' },
    // The sources are ES modules, strict: the directive must stay the bundle's first statement.
    banner: { js: "'use strict'; const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" }
  })
  writeFileSync(INPUTS_FILE, JSON.stringify(Object.keys(result.metafile.inputs).map(input => resolve(input))))
}

// The bin: a few lines, made every time (milliseconds), so that it always names the bundle beside it.
await build({
  entryPoints: [join(PACKAGE_ROOT, 'dist/src/launch.js')],
  outfile: LAUNCHER,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  define: { BAAS_MOCK_BUNDLE_HASH: JSON.stringify(createHash('sha256').update(readFileSync(OUTFILE)).digest('hex').slice(0, 16)) }
})
chmodSync(LAUNCHER, 0o755)
// The ESM bundle's map, from builds before the launcher: it would be packed, 6 MB of nothing.
rmSync(`${LAUNCHER}.map`, { force: true })

// The bundled fixtures, checked once here instead of at every start (a broken one fails the build).
// Checking depends on the files and on the checker's code (schemas, loader): both are inputs.
if (!isFresh(CHECKED_FILES, [...filesUnder(BUNDLED_FIXTURES), ...filesUnder(join(PACKAGE_ROOT, 'dist/src')), ...INSTALL_MARKERS])) {
  // Loaded only when needed: the loaders pull in the schema compiler, a good part of this script's time.
  const [{ FixtureError, loadScenarios }, { loadResponseOverrides }] = await Promise.all([import('../src/fixtures/loader.js'), import('../src/fixtures/responses.js')])
  try {
    recordCheckedFiles(() => {
      const scenarios = loadScenarios(BUNDLED_FIXTURES)
      loadResponseOverrides(BUNDLED_FIXTURES, scenarios.keys())
    }, CHECKED_FILES)
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error
    // The same one line the mock prints at startup, not a stack trace: the file is the user's to fix.
    process.stderr.write(`baas-mock: ${error.message}\n`)
    process.exit(1)
  }
}
