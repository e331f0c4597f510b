// The TypeScript loader of the test processes (.taprc: node-arg --import=./test/helpers/ts-loader.js).
// esbuild (already the build's bundler) turns each .ts file into JavaScript as it is imported, with
// an inline source map holding the .ts text, so tap's coverage report is of the .ts sources: the
// same lines, functions and branches as ts-node's, tap's default, which spent seconds of CPU on
// every test process. Not tsx (esbuild too): it wraps functions in a naming helper and squeezes
// each file onto a few lines, and its coverage then drops uncalled arrow functions and counts
// uncalled methods as run. Plain JavaScript, so it runs before anything is transpiled; the type
// check is `npm run typecheck`, which `npm test` runs first.
// What esbuild makes is kept in node_modules/.cache/ts-loader, under a hash of everything it was
// made from: the 160 test processes each load the same ~300 files, and turning them over again cost
// about a second of CPU per process.
// On Node 24.13+ the hooks run in the importing thread, synchronously (module.registerHooks):
// module.register's run in a thread of their own, and every import (a package's too) then crosses
// between the two, which cost 0.8 s of CPU per test process on Node 24. Earlier Node (20, 22) gets
// module.register: registerHooks is missing there, or, as tap's own hooks judge, not yet reliable.
// The same functions serve both.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import process from 'node:process'
import { fileURLToPath, URL } from 'node:url'
import { isMainThread } from 'node:worker_threads'

const TYPESCRIPT = /\.m?ts$/
const RELATIVE_JS = /^\.\.?\/.*\.m?js$/
const CACHE = new URL('../../node_modules/.cache/ts-loader/', import.meta.url)
const require = module.createRequire(import.meta.url)
let esbuild
let options
/** This file, the tsconfig and esbuild's version: what the output depends on besides the source. */
let maker

/**
 * The sources import each other as .js (NodeNext): outside node_modules, a relative .js is its .ts
 * twin when there is one. Looked up here rather than after Node's own resolution fails: a failed
 * resolution builds an error, for each of some 300 imports per process.
 */
function typescriptTwin (specifier, parentURL) {
  if (!RELATIVE_JS.test(specifier) || parentURL === undefined || !parentURL.startsWith('file:') || parentURL.includes('/node_modules/')) return undefined
  const twin = new URL(specifier.replace(/js$/, 'ts'), parentURL)
  return existsSync(twin) ? twin.href : undefined
}

/** A .ts file as JavaScript, from the cache or made by esbuild (and kept). */
function transpiled (url) {
  options ??= {
    loader: 'ts',
    format: 'esm',
    sourcemap: 'inline',
    sourcesContent: true,
    // esbuild reads what it needs from it (the target decides how class fields are defined, as tsc does).
    tsconfigRaw: JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8')),
    target: `node${process.versions.node}`
  }
  maker ??= [
    readFileSync(new URL(import.meta.url), 'utf8'),
    JSON.stringify(options),
    JSON.parse(readFileSync(new URL('../../node_modules/esbuild/package.json', import.meta.url), 'utf8')).version
  ].join('\0')
  const path = fileURLToPath(url)
  const source = readFileSync(path, 'utf8')
  const kept = new URL(`${createHash('sha256').update(maker).update('\0').update(path).update('\0').update(source).digest('hex')}.js`, CACHE)
  if (existsSync(kept)) return readFileSync(kept, 'utf8')
  esbuild ??= require('esbuild')
  const { code } = esbuild.transformSync(source, { ...options, sourcefile: path })
  // Written whole under another name first: other test processes read the cache meanwhile.
  const draft = new URL(`${kept.pathname}.${process.pid}.${Math.random().toString(36).slice(2)}`, 'file:')
  mkdirSync(CACHE, { recursive: true })
  writeFileSync(draft, code)
  renameSync(draft, kept)
  return code
}

const isTypeScript = url => url.startsWith('file:') && TYPESCRIPT.test(new URL(url).pathname)

function resolveSync (specifier, context, nextResolve) {
  const twin = typescriptTwin(specifier, context.parentURL)
  return twin !== undefined ? { url: twin, shortCircuit: true } : nextResolve(specifier, context)
}

function loadSync (url, context, nextLoad) {
  return isTypeScript(url) ? { format: 'module', source: transpiled(url), shortCircuit: true } : nextLoad(url, context)
}

// module.register's form: the same, with Node's next hooks answering promises.
export async function resolve (specifier, context, nextResolve) {
  const twin = typescriptTwin(specifier, context.parentURL)
  return twin !== undefined ? { url: twin, shortCircuit: true } : nextResolve(specifier, context)
}

export async function load (url, context, nextLoad) {
  return isTypeScript(url) ? { format: 'module', source: transpiled(url), shortCircuit: true } : nextLoad(url, context)
}

// This file is also module.register's hooks module, which Node runs in its loader thread.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
const inThread = typeof module.registerHooks === 'function' && (major > 24 || (major === 24 && minor >= 13))
if (isMainThread) {
  if (inThread) module.registerHooks({ resolve: resolveSync, load: loadSync })
  else module.register(import.meta.url)
}
