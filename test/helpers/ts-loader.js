// The TypeScript loader of the test processes (.taprc: node-arg --import=./test/helpers/ts-loader.js).
// esbuild (already the build's bundler) turns each .ts file into JavaScript as it is imported, with
// an inline source map holding the .ts text, so tap's coverage report is of the .ts sources: the
// same lines, functions and branches as ts-node's, tap's default, which spent seconds of CPU on
// every test process. Not tsx (esbuild too): it wraps functions in a naming helper and squeezes
// each file onto a few lines, and its coverage then drops uncalled arrow functions and counts
// uncalled methods as run. Plain JavaScript, so it runs before anything is transpiled; the type
// check is `npm run typecheck`, which `npm test` runs first.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { register } from 'node:module'
import process from 'node:process'
import { fileURLToPath, URL } from 'node:url'
import { isMainThread } from 'node:worker_threads'

// This file is also the hooks module, which Node runs in its loader thread.
if (isMainThread) register(import.meta.url)

const TYPESCRIPT = /\.m?ts$/
let esbuild
let tsconfigRaw

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
  esbuild ??= await import('esbuild')
  // esbuild reads what it needs from it (the target decides how class fields are defined, as tsc does).
  tsconfigRaw ??= JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8'))
  const path = fileURLToPath(url)
  const { code } = await esbuild.transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    sourcefile: path,
    sourcemap: 'inline',
    sourcesContent: true,
    tsconfigRaw,
    target: `node${process.versions.node}`
  })
  return { format: 'module', source: code, shortCircuit: true }
}
