import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import t from 'tap'
import { cacheDisabled, cacheFileName, privateCacheDir, runBundle } from '../../src/cli/compile-cache.js'
import { runCli, startCli } from '../helpers/spawn.js'

/** These starts are a user's: the test helper turns the cache off for every other test. */
const CACHING = { NODE_DISABLE_COMPILE_CACHE: '', NODE_V8_COVERAGE: '' }

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

async function stop (child: ChildProcess): Promise<void> {
  const exited = new Promise(resolve => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

async function serveOnce (root: string, env: Record<string, string> = {}): Promise<string> {
  const server = await startCli([], { TMPDIR: root, ...CACHING, ...env })
  const body = await (await fetch(`${server.baseUrl}/baas/customers`)).text()
  await stop(server.child)
  return body
}

t.test('the second start compiles from the cache the first one left, and answers the same', async t => {
  const root = mkdtempSync(join(tmpdir(), 'baas-mock-cache-'))
  const first = await serveOnce(root)
  const [cache] = cachesIn(root)
  t.ok(cache, 'a server that answered and stopped left a cache')
  const made = statSync(join(cacheFolder(root), cache ?? '')).mtimeMs

  t.equal(await serveOnce(root), first, 'the same answer from the cached start')
  t.equal(statSync(join(cacheFolder(root), cache ?? '')).mtimeMs, made, 'the cache was used, not made again')
  t.equal((statSync(cacheFolder(root)).mode & 0o777).toString(8), '700', 'the folder is private')
})

t.test('a cache V8 refuses (damaged, another build) is made again; the start is not hurt', async t => {
  const root = mkdtempSync(join(tmpdir(), 'baas-mock-cache-'))
  await serveOnce(root)
  const [cache] = cachesIn(root)
  const file = join(cacheFolder(root), cache ?? '')
  writeFileSync(file, 'not a code cache')
  t.match(await serveOnce(root), /"id":"cus_maya"/, 'served from a fresh compile')
  t.ok(statSync(file).size > 1000, 'a good cache in its place')
})

t.test('no cache from a command that serves nothing, with NODE_DISABLE_COMPILE_CACHE, or in a folder others can write', async t => {
  const root = mkdtempSync(join(tmpdir(), 'baas-mock-cache-'))
  t.equal((await runCli(['--version'], { TMPDIR: root, ...CACHING })).code, 0)
  t.same(cachesIn(root), [], '--version leaves nothing')

  await serveOnce(root, { NODE_DISABLE_COMPILE_CACHE: '1' })
  t.same(cachesIn(root), [], 'turned off as Node\'s own cache is')

  mkdirSync(cacheFolder(root), { recursive: true })
  chmodSync(cacheFolder(root), 0o777)
  t.match(await serveOnce(root), /"id":"cus_maya"/, 'still serves')
  t.same(cachesIn(root), [], 'a cache is code: none is read from or written to a folder others could write')
})

t.test('the launcher\'s parts, in process', async t => {
  t.equal(cacheDisabled({}), false)
  t.equal(cacheDisabled({ NODE_DISABLE_COMPILE_CACHE: '1' }), true)
  t.equal(cacheDisabled({ NODE_V8_COVERAGE: '/tmp/coverage' }), true, 'under coverage: code from a cache is not instrumented')
  t.match(cacheFileName('abc'), new RegExp(`^abc-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{12}\\.v8cache$`))

  const root = mkdtempSync(join(tmpdir(), 'baas-mock-cache-'))
  writeFileSync(join(root, 'baas-mock-compile-cache' + (process.getuid === undefined ? '' : `-${process.getuid()}`)), 'a file, not a folder')
  t.equal(privateCacheDir(root), undefined, 'not a folder: no cache')

  // A bundle of its own: module.exports, require and __dirname as Node gives them.
  const folder = mkdtempSync(join(tmpdir(), 'baas-mock-bundle-'))
  const bundle = join(folder, 'tiny.cjs')
  writeFileSync(bundle, '#!/usr/bin/env node\nglobalThis.tinyRan = { dir: __dirname, path: typeof require("node:path").join }\n')
  const cacheRoot = mkdtempSync(join(tmpdir(), 'baas-mock-cache-'))
  const saved = { NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE, NODE_DISABLE_COMPILE_CACHE: process.env.NODE_DISABLE_COMPILE_CACHE }
  delete process.env.NODE_V8_COVERAGE
  delete process.env.NODE_DISABLE_COMPILE_CACHE
  t.teardown(() => { for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value })
  const first = runBundle(bundle, 'tiny', cacheRoot)
  t.same(Reflect.get(globalThis, 'tinyRan'), { dir: folder, path: 'function' }, 'ran as a CommonJS module')
  t.equal(first.fromCache, false)
  first.writeCache()
  t.equal(runBundle(bundle, 'tiny', cacheRoot).fromCache, true, 'the next run compiles from the cache written')
})

t.test('with the cache off, the bundle is required as any CommonJS module', async t => {
  const folder = mkdtempSync(join(tmpdir(), 'baas-mock-bundle-'))
  const bundle = join(folder, 'plain.cjs')
  writeFileSync(bundle, 'globalThis.plainRan = __filename\n')
  const saved = process.env.NODE_DISABLE_COMPILE_CACHE
  process.env.NODE_DISABLE_COMPILE_CACHE = '1'
  t.teardown(() => { if (saved === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE; else process.env.NODE_DISABLE_COMPILE_CACHE = saved })
  const cacheRoot = mkdtempSync(join(tmpdir(), 'baas-mock-cache-'))
  const run = runBundle(bundle, 'plain', cacheRoot)
  t.equal(Reflect.get(globalThis, 'plainRan'), bundle)
  t.ok(createRequire(import.meta.url).cache[bundle], 'loaded by Node\'s CommonJS loader')
  t.equal(run.fromCache, false)
  run.writeCache()
  t.same(readdirSync(cacheRoot), [], 'no cache folder, no cache')
})
