// `npm start` (and the other scripts that need dist/) build only when a source is newer than the
// last build: an unchanged clone starts at once. Plain JavaScript, so it runs before anything is built.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** Written by `npm run build` as its last step. */
export const STAMP = join(ROOT, 'dist/.build-stamp')
/** What the build reads: sources, the build's own scripts and settings, the fixtures and the contract. */
const INPUT_DIRS = ['src', 'routes', 'scripts', 'fixtures']
/** npm gives installed files an old fixed mtime: a changed dependency shows in the lockfiles only. */
const INPUT_FILES = ['openapi.yaml', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json',
  'tsconfig.json', 'tsconfig.build.json', 'tsconfig.types.json']

function mtime (path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0
}

/** The newest input, and which: the file named when a build starts says why. */
export function newestInput (root = ROOT) {
  let newest = { path: undefined, ms: 0 }
  const consider = path => {
    const ms = mtime(path)
    if (ms > newest.ms) newest = { path, ms }
  }
  for (const dir of INPUT_DIRS) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      // A folder counts too: a deleted file shows only as its folder's change.
      if (entry.isFile() || entry.isDirectory()) consider(join(entry.parentPath, entry.name))
    }
    consider(join(root, dir))
  }
  for (const file of INPUT_FILES) consider(join(root, file))
  return newest
}

/** No build yet, the bin gone, or an input newer than the last build. */
export function isStale (root = ROOT, stamp = STAMP) {
  const built = mtime(stamp)
  return built === 0 || mtime(join(root, 'dist/baas-mock.js')) === 0 || newestInput(root).ms > built
}

if (process.argv[1] === fileURLToPath(import.meta.url) && isStale()) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' })
  process.exit(build.status ?? 1)
}
