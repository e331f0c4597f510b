import { build } from 'esbuild'
import { join } from 'node:path'
import { BUNDLED_FIXTURES, PACKAGE_ROOT } from '../src/config.js'
import { CHECKED_FILES, recordCheckedFiles } from '../src/fixtures/checked-files.js'
import { loadScenarios } from '../src/fixtures/loader.js'
import { loadResponseOverrides } from '../src/fixtures/responses.js'

/**
 * One-file build of the CLI: loading ~900 small modules costs more than the rest of a cold start.
 * Packages that read their own files at run time (log transports, the Swagger UI assets) stay
 * outside the bundle and load from node_modules.
 */
await build({
  entryPoints: [join(PACKAGE_ROOT, 'dist/src/cli.js')],
  outfile: join(PACKAGE_ROOT, 'dist/baas-mock.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['pino', 'pino-pretty', 'thread-stream', '@fastify/swagger-ui', '@fastify/static', 'esbuild'],
  // Bundled CommonJS packages still call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
})

// The bundled fixtures, checked once here instead of at every start (a broken one fails the build).
recordCheckedFiles(() => {
  const scenarios = loadScenarios(BUNDLED_FIXTURES)
  loadResponseOverrides(BUNDLED_FIXTURES, scenarios.keys())
}, CHECKED_FILES)
