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
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { register } from 'node:module'
import process from 'node:process'
import { fileURLToPath, URL } from 'node:url'
import { isMainThread } from 'node:worker_threads'

// This file is also the hooks module, which Node runs in its loader thread.
if (isMainThread) register(import.meta.url)

const TYPESCRIPT = /\.m?ts$/
const CACHE = new URL('../../node_modules/.cache/ts-loader/', import.meta.url)
let esbuild
let options
/** This file, the tsconfig and esbuild's version: what the output depends on besides the source. */
let maker

/** The sources import each other as .js (NodeNext): a relative .js that does not exist is its .ts. */
export async function resolve (specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context)
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/^\.\.?\/.*\.m?js$/.test(specifier)) throw error
    return nextResolve(specifier.replace(/js$/, 'ts'), context)
  }
}

export async function load (url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(new URL(url).pathname)) return nextLoad(url, context)
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
  const source = await readFile(path, 'utf8')
  const kept = new URL(`${createHash('sha256').update(maker).update('\0').update(path).update('\0').update(source).digest('hex')}.js`, CACHE)
  const cached = await readFile(kept, 'utf8').catch(() => undefined)
  if (cached !== undefined) return { format: 'module', source: cached, shortCircuit: true }
  esbuild ??= await import('esbuild')
  const { code } = await esbuild.transform(source, { ...options, sourcefile: path })
  // Written whole under another name first: other test processes read the cache meanwhile.
  const draft = new URL(`${kept.pathname}.${process.pid}.${Math.random().toString(36).slice(2)}`, 'file:')
  await mkdir(CACHE, { recursive: true })
  await writeFile(draft, code)
  await rename(draft, kept)
  return { format: 'module', source: code, shortCircuit: true }
}
