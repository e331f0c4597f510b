import { fileURLToPath } from 'node:url'
import { parseCircular, parseDependencyTree } from 'dpdm'
import t from 'tap'

// No module of the library imports itself back through others: a cycle makes the load order
// decide what a module sees (an import read before it is set), and tangles the layers. dpdm reads
// the TypeScript sources (type-only imports included, since they tie the layers as much) and
// follows dynamic imports too: none is excluded, so a lazily loaded module (startServer's Fastify
// app) may not import its loader back either.

const REPO = fileURLToPath(new URL('../', import.meta.url))

t.test('src/ and routes/ have no import cycle', async t => {
  const tree = await parseDependencyTree(['src/**/*.ts', 'routes/**/*.ts'], {
    context: REPO,
    cwd: REPO,
    tsconfig: `${REPO}tsconfig.json`,
    transform: false,
    skipDynamicImports: false
  })
  const modules = Object.keys(tree).filter(id => /^(src|routes)\//.test(id))
  // Guards against a check that passes because it read nothing: every module, and every relative
  // import resolved to its .ts file (the sources import siblings as ./name.js).
  t.ok(modules.length > 100, `${modules.length} modules read`)
  const unresolved = Object.values(tree).flatMap(deps => deps ?? []).filter(dep => dep.request.startsWith('.') && dep.id === null)
  t.same(unresolved.map(dep => `${dep.issuer} → ${dep.request}`), [], 'every relative import resolves')
  t.ok(tree['src/index.ts']?.some(dep => dep.id === 'src/transports/fetch/mock.ts'), 'the entry point\'s imports are followed')

  const cycles = parseCircular(tree, false)
  t.same(cycles.map(cycle => cycle.join(' → ')), [], 'no cycle')
})

/**
 * The layers, top to bottom: entry (src/*.ts, cli), transports, record, dialect, control, core, world, domain. A layer
 * imports only from those below it; the ones between (config, fixtures, webhooks) are not placed yet, since
 * config and core still import each other. Were core to take the PIN page's URL from control again, this fails.
 */
const BELOW: Record<string, string[]> = {
  domain: [],
  world: ['domain'],
  core: ['world', 'domain'],
  control: ['core', 'world', 'domain'],
  dialect: ['core', 'world', 'domain'],
  record: ['dialect', 'core', 'world', 'domain']
}
const LAYERS = ['cli', 'transports', 'record', 'dialect', 'control', 'core', 'world', 'domain']

t.test('no layer imports one above it', async t => {
  const tree = await parseDependencyTree(['src/**/*.ts'], { context: REPO, cwd: REPO, tsconfig: `${REPO}tsconfig.json`, transform: false, skipDynamicImports: false })
  const layerOf = (id: string): string | undefined => /^src\/([^/]+)\//.exec(id)?.[1]
  const upward: string[] = []
  for (const [id, deps] of Object.entries(tree)) {
    const from = layerOf(id)
    const allowed = from === undefined ? undefined : BELOW[from]
    if (from === undefined || allowed === undefined) continue
    for (const dep of deps ?? []) {
      const to = dep.id === null ? undefined : layerOf(dep.id)
      if (to !== undefined && to !== from && LAYERS.includes(to) && !allowed.includes(to)) upward.push(`${id} → ${dep.id ?? ''}`)
    }
  }
  t.ok(Object.keys(tree).length > 100, 'the sources were read')
  t.same(upward, [], 'every import goes down the layers')
})
