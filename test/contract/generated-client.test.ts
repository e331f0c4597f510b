import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { binOf, OPENAPI, ROOT, runTool } from './tools.js'

// As strict as a careful frontend team would compile it. The generated types go to a .ts file, so
// that they are checked while the libraries' .d.ts files are skipped (checking lib.dom triples the time).
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    types: [],
    module: 'NodeNext',
    moduleResolution: 'NodeNext'
  },
  files: ['client.ts']
}

t.test('openapi-typescript types from openapi.yaml make a strict openapi-fetch client compile: lockCard without a body, transfers narrowed by type', async t => {
  // Inside the project (.tap/fixtures), so that openapi-fetch resolves from its node_modules.
  const dir = t.testdir({
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': JSON.stringify(TSCONFIG),
    'client.ts': readFileSync(join(ROOT, 'test', 'contract', 'client', 'client.ts'), 'utf8')
  })
  const generated = await runTool(binOf('openapi-typescript', 'openapi-typescript'), [OPENAPI, '--output', join(dir, 'schema.ts')])
  t.equal(generated.code, 0, 'openapi-typescript generates the types', { stderr: generated.stderr })
  const compiled = await runTool(binOf('typescript', 'tsc'), ['-p', join(dir, 'tsconfig.json')])
  t.equal(compiled.stdout, '', 'tsc reports nothing')
  t.equal(compiled.code, 0, 'the client compiles')
})
