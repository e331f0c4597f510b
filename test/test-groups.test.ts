import { readdirSync } from 'node:fs'
import t from 'tap'
import { GROUPS, groupOf } from './groups/plan.js'
import { testFiles } from './groups/run.js'

// tap runs only test/groups/*.test.ts (.taprc): a test file in no group would silently never run.
t.test('every test file is in a group, and every group has its file in test/groups and a test file', async t => {
  const files = testFiles()
  t.ok(files.length > 100, `${files.length} test files found`)
  t.same(files.filter(file => groupOf(file) === undefined), [], 'test files in no group (add a pattern to test/groups/plan.ts)')
  const groupFiles = readdirSync(new URL('./groups/', import.meta.url)).filter(name => name.endsWith('.test.ts')).map(name => name.replace(/\.test\.ts$/, '')).sort()
  t.same(groupFiles, Object.keys(GROUPS).sort(), 'a test/groups/<group>.test.ts per group, and no other')
  t.same(Object.keys(GROUPS).filter(group => !files.some(file => groupOf(file) === group)), [], 'groups that no test file reaches (a pattern taken by an earlier group)')
})
