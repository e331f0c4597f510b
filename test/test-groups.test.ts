import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
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

t.test('a group runs the tests of every file, one that loads late too, and fails naming a file that does not load', async t => {
  // Run as a process of its own, outside this test's tap: the fixture's root test is the one that ends.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TAP') && name !== 'NODE_OPTIONS'))
  const run = spawnSync(process.execPath, ['--import=./test/helpers/ts-loader.js', 'test/helpers/group-fixture/group.ts'], { cwd: fileURLToPath(new URL('..', import.meta.url)), env, encoding: 'utf8' })
  t.match(run.stdout, /^ok \d+ - the first file's test/m)
  t.match(run.stdout, /^ok \d+ - the late file's test/m, 'a file imported after the first file\'s tests could have ended the root')
  t.match(run.stdout, /^not ok \d+ - \S*missing\.ts failed to load/m, 'the file that did not load is named')
  t.equal(run.status, 1, 'the process fails')
})
