import { readdirSync } from 'node:fs'
import t from 'tap'
import { groupOf } from './plan.js'

const TEST = new URL('../', import.meta.url)

/** Every test file under test/ but this folder, as a path under test/, sorted. */
export function testFiles (): string[] {
  return readdirSync(TEST, { recursive: true, encoding: 'utf8' })
    .map(path => path.split('\\').join('/'))
    .filter(path => path.endsWith('.test.ts') && !path.startsWith('groups/'))
    .sort()
}

/** Imports every file; one that fails to load fails the group, naming it, and the others still run. */
async function importAll (files: readonly URL[]): Promise<void> {
  const failures: string[] = []
  for (const file of files) {
    try {
      await import(file.href)
    } catch (error) {
      failures.push(`${file.pathname} failed to load: ${error instanceof Error ? error.stack ?? error.message : String(error)}`)
    }
  }
  if (failures.length > 0) throw new Error(failures.join('\n'))
}

/**
 * Imports test files into this process. tap's root test is held busy until the last is imported
 * (t.resolves occupies it), so their tests run after all are loaded: a root test with a teardown
 * ends itself once idle, and would otherwise end between two imports and drop the later files'
 * tests without a failure. Hence a test file must not await one of its tests at its top level.
 */
export async function runFiles (files: readonly URL[], what: string): Promise<void> {
  await t.resolves(importAll(files), `the ${files.length} test files of ${what} load`)
}

/** Imports the test files of the group named as the calling file is (test/groups/<group>.test.ts). */
export async function runGroup (groupFileUrl: string): Promise<void> {
  const group = new URL(groupFileUrl).pathname.split('/').pop()?.replace(/\.test\.ts$/, '')
  const files = testFiles().filter(file => groupOf(file) === group)
  if (files.length === 0) throw new Error(`test/groups: no test file is in the group ${String(group)}`)
  await runFiles(files.map(file => new URL(file, TEST)), `the group ${String(group)}`)
}
