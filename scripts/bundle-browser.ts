import { build, type Plugin } from 'esbuild'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { BUNDLED_FIXTURES, PACKAGE_ROOT } from '../src/config/config.js'
import { UI_DIR, UI_FILES } from '../src/control/ui.js'

/**
 * dist/msw.browser.js: createHandlers for MSW's Service Worker (msw/browser), an ES module with
 * no Node built-in in it and the bundled fixtures inside it as data. What only some pages use (the
 * dashboard's files) is a chunk beside it, dist/msw.browser.<name>-<hash>.js, that a dynamic
 * import() loads on first use: an app's bundler (Vite, esbuild) keeps it a chunk of its own. msw
 * stays outside: the app brings its own, the one its worker script matches.
 */
export const BROWSER_OUTFILE = join(PACKAGE_ROOT, 'dist/msw.browser.js')
/** The build's files: the entry and its chunks, which package.json's `files` names as dist/msw.browser*.js. */
export const BROWSER_FILES = /^msw\.browser(\..+)?\.js$/

/** The fixtures folder as relative path → text, as memory-files.ts reads it. */
function fixtureFiles (dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter(entry => entry.isFile())
  return Object.fromEntries(files.map(entry => {
    const path = join(entry.parentPath, entry.name)
    return [relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8')]
  }).sort(([a], [b]) => (a as string).localeCompare(b as string)))
}

const SOURCES = join(PACKAGE_ROOT, 'src')

/** A module exporting `Type` as an object of the TypeBox builders that the sources under `dir` call (`Type.Object`). */
export function typeBuilders (dir: string): string {
  const used = new Set<string>()
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
    for (const [, name] of readFileSync(join(entry.parentPath, entry.name), 'utf8').matchAll(/\bType\.([A-Za-z]+)\b/g)) used.add(name as string)
  }
  const names = [...used].sort()
  return `import { ${names.map(name => `${name} as $${name}`).join(', ')} } from ${JSON.stringify(join(dirname(fileURLToPath(import.meta.resolve('typebox'))), 'typebox.mjs'))}\n` +
    `export const Type = { ${names.map(name => `${name}: $${name}`).join(', ')} }\n`
}

/** A module with a `.browser.js` sibling (file-system, package-root, options, checked-files) is replaced by it. */
const browserVariants: Plugin = {
  name: 'browser-variants',
  setup (build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, args => {
      const path = resolve(args.resolveDir, args.path)
      const variant = path.replace(/\.js$/, '.browser.js')
      return existsSync(variant) ? { path: variant } : undefined
    })
    // find-my-way require()s node:assert for assert(condition, message) alone.
    build.onResolve({ filter: /^node:assert$/ }, () => ({ path: 'node:assert', namespace: 'assert-shim' }))
    build.onLoad({ filter: /.*/, namespace: 'assert-shim' }, () => ({
      contents: "module.exports = function assert (condition, message) { if (!condition) throw message instanceof Error ? message : new Error(message || 'Assertion failed') }",
      loader: 'js'
    }))
    // Handlebars' compiler require()s source-map only to map templates it compiles, and without it
    // uses its own plain code builder: 26 kB minified that a browser never uses.
    build.onResolve({ filter: /^source-map$/ }, () => ({ path: 'source-map', namespace: 'no-source-map' }))
    build.onLoad({ filter: /.*/, namespace: 'no-source-map' }, () => ({ contents: 'module.exports = {}', loader: 'js' }))
    // `import { Type } from 'typebox'` is the namespace of every builder, which esbuild keeps whole
    // (TypeScript-syntax parser, conditional and mapped types: 80 kB); the browser build gets an
    // object of the builders the sources call (Type.Object...), found in them at build time.
    build.onResolve({ filter: /^typebox$/ }, args => args.namespace === 'typebox-builders' ? undefined : { path: 'typebox', namespace: 'typebox-builders' })
    build.onLoad({ filter: /.*/, namespace: 'typebox-builders' }, () => ({
      contents: typeBuilders(SOURCES),
      resolveDir: PACKAGE_ROOT,
      loader: 'js'
    }))
    // Ajv and fast-json-stringify each bring their own fast-uri (3 and 4: the same seven functions,
    // 4 stricter on malformed references): the build carries one, fast-json-stringify's.
    build.onResolve({ filter: /^fast-uri$/ }, () => ({ path: createRequire(createRequire(import.meta.url).resolve('fast-json-stringify')).resolve('fast-uri') }))
    // standardwebhooks signs with fast-sha256's HMAC; the build has @noble/hashes' HMAC-SHA256 already.
    build.onResolve({ filter: /^fast-sha256$/ }, () => ({ path: 'fast-sha256', namespace: 'noble-sha256' }))
    build.onLoad({ filter: /.*/, namespace: 'noble-sha256' }, () => ({
      contents: "import { hmac as nobleHmac } from '@noble/hashes/hmac.js'\nimport { sha256 } from '@noble/hashes/sha2.js'\n" +
        'export function hmac (key, data) { return nobleHmac(sha256, key, data) }\n',
      resolveDir: PACKAGE_ROOT,
      loader: 'js'
    }))
    build.onLoad({ filter: /[\\/]bundled-fixture-files\.js$/ }, () => ({
      contents: `export const BUNDLED_FIXTURE_FILES = ${JSON.stringify(fixtureFiles(BUNDLED_FIXTURES))}`,
      loader: 'js'
    }))
    build.onLoad({ filter: /[\\/]bundled-ui-files\.js$/ }, () => ({
      contents: `export const BUNDLED_UI_FILES = ${JSON.stringify(Object.fromEntries(UI_FILES.map(name => [name, readFileSync(join(UI_DIR, name), 'utf8')])))}`,
      loader: 'js'
    }))
  }
}

export async function bundleBrowser (): Promise<void> {
  const dist = dirname(BROWSER_OUTFILE)
  // Chunks are named by their content's hash: an earlier build's would otherwise be packed too.
  for (const name of readdirSync(dist)) if (BROWSER_FILES.test(name)) rmSync(join(dist, name))
  await build({
    entryPoints: [join(PACKAGE_ROOT, 'dist/src/msw.js')],
    outdir: dist,
    entryNames: 'msw.browser',
    chunkNames: 'msw.browser.[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // Minified, as an app's bundler would make it (its size is what Vite's 500 kB warning sees),
    // and no source map: one would map to sources the package does not ship.
    minify: true,
    logLevel: 'warning',
    external: ['msw'],
    plugins: [browserVariants],
    // fast-json-stringify reads Node's and V8's versions to pick fast paths; a browser has no
    // process, and the version-free paths are the portable ones.
    define: { 'process.versions.node': '"0"', 'process.versions.v8': '"0.0"' }
  })
}

if (resolve(process.argv[1] ?? '') === resolve(dirname(new URL(import.meta.url).pathname), 'bundle-browser.js')) await bundleBrowser()
