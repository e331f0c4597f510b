import { fileURLToPath } from 'node:url'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

// The browser build swaps this file for package-root.browser.ts.

/** The folder holding package.json, fixtures/ and openapi.yaml, from sources, dist/ or the bundle. */
export const PACKAGE_ROOT = findPackageRoot(fileURLToPath(new URL('.', import.meta.url)))

function findPackageRoot (from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'baas-mock') return dir
    if (dirname(dir) === dir) throw new Error(`baas-mock: cannot find its package.json above ${from}`)
  }
}
export const BUNDLED_FIXTURES = join(PACKAGE_ROOT, 'fixtures')
