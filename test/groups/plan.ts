// Which test files share a test process. tap runs each file it is given in a process of its own, and
// a process costs 2 to 4 s of CPU before its first test (tap's runtime, the mock's ~300 modules, the
// schemas compiled): over 168 files that was half of the suite's CPU. tap is given the files in this
// folder instead (.taprc), one per group; each imports its group's test files, whose tests then run
// one after another on tap's root test as they would alone. `npx tap test/<folder>/<file>.test.ts`
// still runs one file by itself.
// A file belongs to the first group with a pattern it matches: 'folder/' is every test file in that
// folder, 'folder/name' every one whose name starts so, './' the files directly in test/.
// A file that changes what its process is (environment, compile cache) or that takes long enough to
// set the suite's pace runs alone. The groups are sized to 20-45 s each on Node 24 so that tap's two
// jobs end together; test/test-groups.test.ts holds that every test file is in exactly one group.
export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  'demo-life': ['stores/demo-life.test.ts'],
  'compile-cache': ['cli/compile-cache.test.ts'],
  'cli-state': ['cli/state-', 'cli/redis-store', 'cli/admin-token-restart'],
  'cli-package': ['cli/package-contents', 'cli/shutdown'],
  cli: ['cli/'],
  'stores-redis': ['stores/redis-', 'stores/replicas-', 'stores/shared-store'],
  stores: ['stores/'],
  'robustness-properties': ['robustness/invariants', 'robustness/fixtures', 'robustness/http-fuzz'],
  robustness: ['robustness/'],
  ui: ['ui/'],
  transports: ['transports/'],
  control: ['control/'],
  routes: ['routes/'],
  dialect: ['dialect/'],
  contract: ['contract/', 'deploy/'],
  record: ['record/'],
  'http-webhooks': ['http/', 'webhooks/'],
  units: ['domain/', 'core/', 'state/', 'config/', 'fixtures/'],
  project: ['./']
}

/** The group of a test file, given as its path under test/ ('routes/customers.test.ts'). */
export function groupOf (file: string): string | undefined {
  const folderless = !file.includes('/')
  for (const [group, patterns] of Object.entries(GROUPS)) {
    if (patterns.some(pattern => pattern === './' ? folderless : file.startsWith(pattern))) return group
  }
  return undefined
}
