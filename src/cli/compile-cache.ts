import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Script } from 'node:vm'

/**
 * The `baas-mock` command runs its bundle through V8's code cache, as Node 22's
 * `module.enableCompileCache()` does, on every Node the package supports. A start compiled the 2.5 MB
 * bundle and then, lazily, every function the server calls before its first answer: about 80 of
 * the 230 ms to a first 200 (bench/RESULTS.md). The cache is made when a server that answered exits,
 * so it holds those functions too; v8-compile-cache, which caches at compile time only, saved 40.
 */

const SERVING = Symbol.for('baas-mock.compile-cache.serving')
const SUFFIX = '.v8cache'

/** The CLI tells the launcher its server is up: a cache made at exit then holds the server's code, not `--version`'s. */
export function markServing (): void {
  Reflect.set(globalThis, SERVING, true)
}

function serving (): boolean {
  return Reflect.get(globalThis, SERVING) === true
}

/**
 * The folder the caches go in: the user's own in the system's temporary folder, made private. A
 * cache is code that runs; one that someone else could have written is not read (POSIX: owner and mode).
 */
export function privateCacheDir (root = tmpdir()): string | undefined {
  const uid = process.getuid?.()
  const dir = join(root, `baas-mock-compile-cache${uid === undefined ? '' : `-${uid}`}`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(dir)
    if (!stat.isDirectory()) return undefined
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return undefined
    return dir
  } catch {
    return undefined
  }
}

/**
 * One cache per bundle, Node and flags: V8 refuses a cache made by another version or with other
 * flags, and checks the source only by its length, so the bundle's own hash names it.
 */
export function cacheFileName (bundleHash: string): string {
  const flags = createHash('sha256').update(`${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}`).digest('hex').slice(0, 12)
  return `${bundleHash}-${process.version}-${process.arch}-${flags}${SUFFIX}`
}

/** Off where Node's own cache is turned off, and under coverage (code from a cache is not instrumented). */
export function cacheDisabled (env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '' || (env.NODE_V8_COVERAGE ?? '') !== ''
}

function readCache (file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** Written whole or not at all (another start may read it meanwhile); older bundles' caches go. */
function writeCacheFile (dir: string, name: string, data: Buffer): void {
  try {
    const temporary = join(dir, `${name}.${process.pid}.tmp`)
    writeFileSync(temporary, data, { mode: 0o600 })
    renameSync(temporary, join(dir, name))
    const bundleHash = name.slice(0, name.indexOf('-'))
    for (const other of readdirSync(dir)) if (other.endsWith(SUFFIX) && !other.startsWith(`${bundleHash}-`)) rmSync(join(dir, other), { force: true })
  } catch {
    // A cache not written costs the next start its compile time, nothing else.
  }
}

/** What became of the cache at a start. */
export interface BundleRun {
  /** The bundle was compiled from a cache (so none is written at exit). */
  readonly fromCache: boolean
  /** Writes the cache now, with everything compiled so far; done at exit when the server answered. */
  readonly writeCache: () => void
}

/**
 * Runs the CommonJS bundle at `bundlePath`, compiled from the cache when there is a usable one;
 * when there is none (or V8 refused it), one is written at exit, if the server came up. With the
 * cache off, the bundle is required as any CommonJS module is.
 */
export function runBundle (bundlePath: string, bundleHash: string, cacheRoot?: string): BundleRun {
  const dir = cacheDisabled() ? undefined : privateCacheDir(cacheRoot)
  if (dir === undefined) {
    // Node's own loader: what coverage maps back to the sources through the bundle's source map.
    createRequire(bundlePath)(bundlePath)
    return { fromCache: false, writeCache: () => {} }
  }
  const name = cacheFileName(bundleHash)
  const cachedData = readCache(join(dir, name))
  // The bundle as Node wraps a CommonJS module, on its first line so that line numbers hold; its `#!` becomes a comment.
  const source = readFileSync(bundlePath, 'utf8').replace(/^#!/, '//')
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundlePath, cachedData })
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true
  const writeCache = (): void => { writeCacheFile(dir, name, script.createCachedData()) }
  if (!fromCache) process.once('exit', () => { if (serving()) writeCache() })
  const module = { exports: {} }
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void
  run(module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath))
  return { fromCache, writeCache }
}
