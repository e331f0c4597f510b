import { readdirSync } from 'node:fs'
import { groupOf } from './plan.js'

const TEST = new URL('../', import.meta.url)

/** Every test file under test/ but this folder, as a path under test/, sorted. */
export function testFiles (): string[] {
  return readdirSync(TEST, { recursive: true, encoding: 'utf8' })
    .map(path => path.split('\\').join('/'))
    .filter(path => path.endsWith('.test.ts') && !path.startsWith('groups/'))
    .sort()
}

/** Imports the test files of the group named as the calling file is (test/groups/<group>.test.ts). */
export async function runGroup (groupFileUrl: string): Promise<void> {
  const group = new URL(groupFileUrl).pathname.split('/').pop()?.replace(/\.test\.ts$/, '')
  const files = testFiles().filter(file => groupOf(file) === group)
  if (files.length === 0) throw new Error(`test/groups: no test file is in the group ${String(group)}`)
  for (const file of files) await import(new URL(file, TEST).href)
}
