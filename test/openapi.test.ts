import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'yaml'
import { generateOpenApiYaml } from '../scripts/openapi-document.js'
import { OPERATIONS, configurationNames } from '../src/core/operations.js'
import { buildTestApp } from './helpers/app.js'

t.test('openapi.yaml is what the route schemas generate (run `npm run openapi` after changing a route)', async t => {
  const committed = readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')
  const generated = await generateOpenApiYaml()
  t.equal(committed, generated, 'openapi.yaml has drifted from the code')
})

t.test('every operation of the table is in the document with its method, path and configuration name', async t => {
  const doc = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, { operationId: string; description: string }>> }
  const found = new Map<string, { method: string; path: string; description: string }>()
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) found.set(op.operationId, { method: method.toUpperCase(), path, description: op.description })
  }
  for (const op of OPERATIONS) {
    const entry = found.get(op.id)
    t.ok(entry, `${op.id} is documented`)
    t.equal(entry?.method, op.method, `${op.id} method`)
    t.equal(entry?.path, op.path.replace(/\$([A-Z_]+)/g, (_m, p: string) => `{${p.toLowerCase().replace(/_([a-z])/g, (_x, c: string) => c.toUpperCase())}}`), `${op.id} path`)
    t.match(entry?.description, op.configName, `${op.id} names ${op.configName}`)
  }
  t.ok(configurationNames().includes('API_PHONE_VERFICATION_SEND_CODE'), 'the send-code name keeps its original spelling')
})

t.test('/openapi.json and /openapi.yaml serve the document; /docs serves the UI', async t => {
  const { call } = await buildTestApp(t)
  const json = await call('GET', '/openapi.json')
  t.equal(json.status, 200)
  t.equal(json.body.openapi, '3.1.0')
  const yaml = await call('GET', '/openapi.yaml')
  t.equal(yaml.status, 200)
  t.match(yaml.headers['content-type'], /yaml/)
  t.same(parse(yaml.text), json.body)
  const docs = await call('GET', '/docs/')
  t.equal(docs.status, 200)
  t.match(docs.text, /swagger/i)
  // The UI is an inner app built on this first visit; it shows the main app's document and assets.
  t.same((await call('GET', '/docs/json')).body, json.body, 'the UI shows the document of the routes in effect')
  const css = await call('GET', '/docs/static/swagger-ui.css')
  t.equal(css.status, 200)
  t.match(css.headers['content-type'], /text\/css/)
  const crossOrigin = await call('GET', '/docs/json', { headers: { origin: 'http://localhost:5173' } })
  t.equal(crossOrigin.headers['access-control-allow-origin'], 'http://localhost:5173', 'CORS headers reach the answer the inner app sends')
  t.equal((await call('HEAD', '/docs/')).status, 200)
  const missing = await call('GET', '/docs/nope')
  t.equal(missing.status, 404)
  t.match(missing.body, { code: 'route_not_found', instance: '/docs/nope' }, 'a wrong docs path is problem+json like any other')
})
