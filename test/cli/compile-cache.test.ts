import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import t, { type Test } from 'tap'
import { cacheDisabled, cacheFileName, privateCacheDir, runBundle, sourceMapsAsked } from '../../src/cli/compile-cache.js'
import { runCli, startCli } from '../helpers/spawn.js'

/** With the cache on whatever the shell says; each test gives its own temporary folder (TMPDIR). */
const CACHING = { NODE_DISABLE_COMPILE_CACHE: '', NODE_V8_COVERAGE: '' }

/** A temporary folder of this test's, removed after it. */
function scratch (t: Test, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

function cacheFolder (root: string): string {
  const uid = process.getuid?.()
  return join(root, `baas-mock-compile-cache${uid === undefined ? '' : `-${uid}`}`)
}

function cachesIn (root: string): string[] {
  try {
    return readdirSync(cacheFolder(root)).filter(name => name.endsWith('.v8cache'))
  } catch {
    return []
  }
}

async function stop (child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>(resolve => child.once('exit', code => { resolve(code) }))
  child.kill('SIGTERM')
  return await exited
}

/** Starts the CLI, reads the customer, stops it (exit 0 asserted): the answer's body. */
async function serveOnce (t: Test, root: string, env: Record<string, string> = {}): Promise<string> {
  const server = await startCli([], { TMPDIR: root, ...CACHING, ...env })
  const body = await (await fetch(`${server.baseUrl}/baas/customers`)).text()
  t.equal(await stop(server.child), 0, 'stopped cleanly')
  return body
}

t.test('the second start compiles from the cache the first one left, and answers the same', async t => {
  const root = scratch(t, 'baas-mock-cache-')
  const first = await serveOnce(t, root)
  const [cache] = cachesIn(root)
  t.ok(cache, 'a server that answered and stopped left a cache')
  const made = statSync(join(cacheFolder(root), cache ?? '')).mtimeMs

  t.equal(await serveOnce(t, root), first, 'the same answer from the cached start')
  t.equal(statSync(join(cacheFolder(root), cache ?? '')).mtimeMs, made, 'the cache was used, not made again')
  t.equal((statSync(cacheFolder(root)).mode & 0o777).toString(8), '700', 'the folder is private')
})

t.test('a cache V8 refuses (damaged, another build) is made again; the start is not hurt', async t => {
  const root = scratch(t, 'baas-mock-cache-')
  await serveOnce(t, root)
  const [cache] = cachesIn(root)
  const file = join(cacheFolder(root), cache ?? '')
  writeFileSync(file, 'not a code cache')
  t.match(await serveOnce(t, root), /"id":"cus_maya"/, 'served from a fresh compile')
  t.ok(statSync(file).size > 1000, 'a good cache in its place')
})

t.test('no cache from a command that serves nothing, with NODE_DISABLE_COMPILE_CACHE, or in a folder others can write', async t => {
  const root = scratch(t, 'baas-mock-cache-')
  t.equal((await runCli(['--version'], { TMPDIR: root, ...CACHING })).code, 0)
  t.same(cachesIn(root), [], '--version leaves nothing')

  const idle = await startCli([], { TMPDIR: root, ...CACHING })
  t.equal(await stop(idle.child), 0)
  t.same(cachesIn(root), [], 'nor a server that was sent no request: its request path was never compiled, the next start makes the cache')

  await serveOnce(t, root, { NODE_DISABLE_COMPILE_CACHE: '1' })
  t.same(cachesIn(root), [], 'turned off as Node\'s own cache is')

  mkdirSync(cacheFolder(root), { recursive: true })
  chmodSync(cacheFolder(root), 0o777)
  t.match(await serveOnce(t, root), /"id":"cus_maya"/, 'still serves')
  t.same(cachesIn(root), [], 'a cache is code: none is read from or written to a folder others could write')
})

t.test('the launcher\'s parts, in process', async t => {
  t.equal(cacheDisabled({}), false)
  t.equal(cacheDisabled({ NODE_DISABLE_COMPILE_CACHE: '1' }), true)
  t.equal(cacheDisabled({ NODE_V8_COVERAGE: '/tmp/coverage' }), true, 'under coverage: code from a cache is not instrumented')
  const stat = { size: 100, mtimeMs: 1 }
  t.match(cacheFileName('abc', stat), new RegExp(`^abc-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{12}\\.v8cache$`))
  t.not(cacheFileName('abc', stat), cacheFileName('abc', { ...stat, mtimeMs: 2 }), 'a bundle edited in place has another cache')

  const root = scratch(t, 'baas-mock-cache-')
  writeFileSync(join(root, 'baas-mock-compile-cache' + (process.getuid === undefined ? '' : `-${process.getuid()}`)), 'a file, not a folder')
  t.equal(privateCacheDir(root), undefined, 'not a folder: no cache')
  if (process.getuid !== undefined) {
    const open = scratch(t, 'baas-mock-open-')
    chmodSync(open, 0o777)
    t.equal(privateCacheDir(open), undefined, 'a temporary folder anyone may write to, without the sticky bit: no cache')
    chmodSync(open, 0o1777)
    t.ok(privateCacheDir(open), 'with it (as /tmp has it), the private folder inside is used')
  }

  // A bundle of its own: module.exports, require and __dirname as Node gives them.
  const folder = scratch(t, 'baas-mock-bundle-')
  const bundle = join(folder, 'tiny.cjs')
  writeFileSync(bundle, '#!/usr/bin/env node\nglobalThis.tinyRan = { dir: __dirname, path: typeof require("node:path").join }\n')
  const cacheRoot = scratch(t, 'baas-mock-cache-')
  const saved = { NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE, NODE_DISABLE_COMPILE_CACHE: process.env.NODE_DISABLE_COMPILE_CACHE }
  delete process.env.NODE_V8_COVERAGE
  delete process.env.NODE_DISABLE_COMPILE_CACHE
  t.teardown(() => { for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value })
  // tap runs tests with --enable-source-maps, which would take the plain require: a user's start has no such flag.
  const user = { cacheRoot, sourceMaps: false }
  const first = runBundle(bundle, 'tiny', user)
  t.same(Reflect.get(globalThis, 'tinyRan'), { dir: folder, path: 'function' }, 'ran as a CommonJS module')
  t.equal(first.fromCache, false)
  first.writeCache()
  t.equal(runBundle(bundle, 'tiny', user).fromCache, true, 'the next run compiles from the cache written')

  if (process.getuid !== undefined) {
    const [cache] = cachesIn(cacheRoot)
    chmodSync(join(cacheFolder(cacheRoot), cache ?? ''), 0o666)
    t.equal(runBundle(bundle, 'tiny', user).fromCache, false, 'a cache file others could have written is not read')
  }
  t.equal(runBundle(bundle, 'tiny', { cacheRoot, sourceMaps: true }).fromCache, false, 'with source maps asked for, required as CommonJS: stack traces name the sources')
  t.equal(sourceMapsAsked(['--enable-source-maps'], ''), true)
  t.equal(sourceMapsAsked([], '--max-old-space-size=100 --enable-source-maps'), true, 'in NODE_OPTIONS too')
  t.equal(sourceMapsAsked([], ''), false)
})

t.test('with the cache off, the bundle is required as any CommonJS module', async t => {
  const folder = scratch(t, 'baas-mock-bundle-')
  const bundle = join(folder, 'plain.cjs')
  writeFileSync(bundle, 'globalThis.plainRan = __filename\n')
  const saved = process.env.NODE_DISABLE_COMPILE_CACHE
  process.env.NODE_DISABLE_COMPILE_CACHE = '1'
  t.teardown(() => { if (saved === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE; else process.env.NODE_DISABLE_COMPILE_CACHE = saved })
  const cacheRoot = scratch(t, 'baas-mock-cache-')
  const run = runBundle(bundle, 'plain', { cacheRoot, sourceMaps: false })
  t.equal(Reflect.get(globalThis, 'plainRan'), bundle)
  t.ok(createRequire(import.meta.url).cache[bundle], 'loaded by Node\'s CommonJS loader')
  t.equal(run.fromCache, false)
  run.writeCache()
  t.same(readdirSync(cacheRoot), [], 'no cache folder, no cache')
})
