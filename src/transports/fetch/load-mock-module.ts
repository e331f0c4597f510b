import type * as MockModule from './mock.js'

/**
 * mock.js, the whole in-process mock, loaded on first use: the browser build's createHandlers and
 * createMock come without it, so an app's entry chunk carries only the options and the routes.
 *
 * Its largest libraries are imported here too, each one a chunk boundary for the app's bundler
 * (esbuild, Vite's Rollup), which makes every dynamically imported module a chunk of its own: they
 * load in parallel, and no chunk comes near Vite's 500 kB warning, where one chunk would hold them
 * all. In Node these resolve to the modules mock.js imports anyway.
 */
export async function loadMockModule (): Promise<typeof MockModule> {
  const [mock] = await Promise.all([
    import('./mock.js'),
    import('ajv'),
    import('yaml'),
    import('handlebars'),
    import('@fastify/fast-json-stringify-compiler'),
    import('find-my-way')
  ])
  return mock
}
