import { createRequire } from 'node:module'
import t from 'tap'
import { loadOptionalPackage } from '../../src/world/stores/optional-package.js'
import { StoreOpenError } from '../../src/world/stores/store.js'

// better-sqlite3 and ioredis are optional peers: a user who asks for a store without its driver
// gets one line naming the package to add, whether the mock runs as ES modules or as the CLI's bundle.
const MISSING = 'baas-mock-no-such-driver'

t.test('a driver missing under ESM names the flag and the package to install', async t => {
  const error = await loadOptionalPackage(MISSING, '--state-dir', async () => await import(MISSING)).then(() => undefined, (e: unknown) => e)
  t.ok(error instanceof StoreOpenError)
  t.equal((error as Error).message, `--state-dir needs the ${MISSING} package, which is not installed: add it with npm install ${MISSING}`)
  t.notOk((error as Error).message.includes('\n'), 'one line')
})

t.test('a driver missing under CommonJS (the CLI bundle require()s it) says the same', async t => {
  const require = createRequire(import.meta.url)
  await t.rejects(loadOptionalPackage(MISSING, '--store', async () => require(MISSING) as unknown), {
    name: 'StoreOpenError',
    message: `--store needs the ${MISSING} package, which is not installed: add it with npm install ${MISSING}`
  })
})

t.test('a package the driver needs, missing, and any other failure pass through unchanged', async t => {
  await t.rejects(loadOptionalPackage('ioredis', '--store', async () => await import(MISSING)), { message: new RegExp(`^Cannot find package '${MISSING}'`) })
  const broken = new Error('the native module was built for another Node')
  await t.rejects(loadOptionalPackage('better-sqlite3', '--state-dir', async () => { throw broken }), broken)
  await t.rejects(loadOptionalPackage('better-sqlite3', '--state-dir', async () => { throw 'not an Error' }))
})

t.test('an installed driver loads as it is', async t => {
  const { default: Database } = await loadOptionalPackage('better-sqlite3', '--state-dir', async () => await import('better-sqlite3'))
  t.equal(typeof Database, 'function')
})
