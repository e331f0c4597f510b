import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
// @ts-expect-error plain JavaScript, run before anything is built: no types
import { isStale } from '../scripts/build-if-stale.js'

// `npm start` builds only when a source is newer than the last build (dist/.build-stamp).
const stale = isStale as (root: string, stamp: string) => boolean

t.test('a build is due with no build yet, and after any source, fixture or lockfile changes', async t => {
  const root = mkdtempSync(join(tmpdir(), 'baas-mock-stale-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const past = new Date(Date.now() - 60_000)
  for (const dir of ['src/core', 'routes', 'scripts', 'fixtures', 'dist']) mkdirSync(join(root, dir), { recursive: true })
  for (const file of ['src/core/a.ts', 'routes/b.ts', 'fixtures/c.yaml', 'package-lock.json']) writeFileSync(join(root, file), '')
  const stamp = join(root, 'dist/.build-stamp')
  t.equal(stale(root, stamp), true, 'never built')

  const touchAll = (when: Date): void => {
    for (const path of ['src/core/a.ts', 'src/core', 'src', 'routes/b.ts', 'routes', 'scripts', 'fixtures/c.yaml', 'fixtures', 'package-lock.json']) utimesSync(join(root, path), when, when)
  }
  touchAll(past)
  writeFileSync(stamp, '')
  t.equal(stale(root, stamp), true, 'the bin is missing')
  writeFileSync(join(root, 'dist/baas-mock.js'), '')
  t.equal(stale(root, stamp), false, 'built after every input: nothing to do')

  for (const changed of ['src/core/a.ts', 'fixtures/c.yaml', 'package-lock.json']) {
    touchAll(past)
    utimesSync(join(root, changed), new Date(), new Date())
    t.equal(stale(root, stamp), true, `${changed} changed`)
  }
  touchAll(past)
  rmSync(join(root, 'src/core/a.ts'))
  t.equal(stale(root, stamp), true, 'a source deleted (its folder changed)')
})
