import { createHash } from 'node:crypto'
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Script } from 'node:vm'

/**
 * The `baas-mock` command runs its bundle through V8's code cache, as Node 22's
 * `module.enableCompileCache()` does for modules, on every Node the package supports. A start
 * compiled the 2.5 MB bundle and then, lazily, every function the server calls before its first
 * answer: about 75 of the 220 ms to a first 200 (docs/reference/performance.md). The cache is
 * made when a server that was sent a request exits, so it holds those functions too; a cache made
 * at compile time only, as v8-compile-cache makes it, saved 40.
 */

const SERVING = Symbol.for('baas-mock.compile-cache.serving')
const SUFFIX = '.v8cache'
/** Caches kept: two versions of the package, with and without a flag, stay warm side by side. */
const CACHES_KEPT = 4
/** A temporary file older than this was left by a start that died while writing. */
const STALE_TEMPORARY_MS = 10 * 60_000

/** The CLI tells the launcher its server was sent a request: a cache made at exit then holds the request path, not only `--version`'s code. */
export function markServing (): void {
  Reflect.set(globalThis, SERVING, true)
}

function serving (): boolean {
  return Reflect.get(globalThis, SERVING) === true
}

/** On POSIX: this user's, and open to no one else in the ways `mask` names (0o022: writing; 0o077: anything). */
function ownedAndPrivate (stat: { uid: number; mode: number }, uid: number | undefined, mask: number): boolean {
  return uid === undefined || (stat.uid === uid && (stat.mode & mask) === 0)
}

/**
 * The folder the caches go in: the user's own in the system's temporary folder, made private. A
 * cache is code that runs: on POSIX, neither a folder nor a file that someone else could have
 * written is read, and a temporary folder anyone may write to without the sticky bit is not used.
 */
export function privateCacheDir (root = tmpdir()): string | undefined {
  const uid = process.getuid?.()
  const dir = join(root, `baas-mock-compile-cache${uid === undefined ? '' : `-${uid}`}`)
  try {
    const parent = statSync(root)
    if (uid !== undefined && (parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0) return undefined
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(dir)
    return stat.isDirectory() && ownedAndPrivate(stat, uid, 0o077) ? dir : undefined
  } catch {
    return undefined
  }
}

/**
 * One cache per bundle, Node and flags: V8 refuses a cache made by another version or with other
 * flags, and checks the source only by its length, so the bundle's hash (from the build) and its
 * size and time (a bundle edited in place) name it.
 */
export function cacheFileName (bundleHash: string, bundle: { size: number; mtimeMs: number }): string {
  const key = `${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}\n${bundle.size}\n${bundle.mtimeMs}`
  return `${bundleHash}-${process.version}-${process.arch}-${createHash('sha256').update(key).digest('hex').slice(0, 12)}${SUFFIX}`
}

/** Off where Node's compile cache is turned off, and under coverage (code from a cache is not instrumented). */
export function cacheDisabled (env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '' || (env.NODE_V8_COVERAGE ?? '') !== ''
}

function readCache (file: string): Buffer | undefined {
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    // Checked on the file opened, not the name: nothing can be swapped in between.
    if (!ownedAndPrivate(fstatSync(fd), process.getuid?.(), 0o022)) return undefined
    return readFileSync(fd)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Written whole or not at all (another start may read it meanwhile); the oldest caches beyond a few go. */
function writeCacheFile (dir: string, name: string, data: Buffer): void {
  try {
    const temporary = join(dir, `${name}.${process.pid}.tmp`)
    writeFileSync(temporary, data, { mode: 0o600 })
    renameSync(temporary, join(dir, name))
    const now = Date.now()
    const files = readdirSync(dir).map(file => ({ file, mtimeMs: statSync(join(dir, file)).mtimeMs }))
    const caches = files.filter(f => f.file.endsWith(SUFFIX)).sort((a, b) => b.mtimeMs - a.mtimeMs)
    const stale = files.filter(f => f.file.endsWith('.tmp') && now - f.mtimeMs > STALE_TEMPORARY_MS)
    for (const { file } of [...caches.slice(CACHES_KEPT), ...stale]) rmSync(join(dir, file), { force: true })
  } catch {
    // A cache not written costs the next start its compile time, nothing else.
  }
}

/** What became of the cache at a start. */
export interface BundleRun {
  /** The bundle was compiled from a cache (so none is written at exit). */
  readonly fromCache: boolean
  /** Writes the cache now, with everything compiled so far; done at exit when the server was sent a request. */
  readonly writeCache: () => void
}

/** `--enable-source-maps` given, on the command line or in NODE_OPTIONS: stack traces are to name the sources. */
export function sourceMapsAsked (execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].includes('--enable-source-maps')
}

export interface BundleOptions {
  /** Where the cache folder goes: the system's temporary folder. */
  cacheRoot?: string | undefined
  /** Source maps asked for: a vm.Script has none, so the bundle is required instead, uncached. */
  sourceMaps?: boolean | undefined
}

/**
 * Runs the CommonJS bundle at `bundlePath`, compiled from the cache when there is a usable one;
 * when there is none (or V8 refused it), one is written at exit, if the server was sent a request. With the
 * cache off, or source maps asked for, the bundle is required as any CommonJS module is.
 */
export function runBundle (bundlePath: string, bundleHash: string, options: BundleOptions = {}): BundleRun {
  const dir = cacheDisabled() || (options.sourceMaps ?? sourceMapsAsked()) ? undefined : privateCacheDir(options.cacheRoot)
  if (dir === undefined) {
    createRequire(bundlePath)(bundlePath)
    return { fromCache: false, writeCache: () => {} }
  }
  const name = cacheFileName(bundleHash, statSync(bundlePath))
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
