import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'yaml'
import { generateOpenApiYaml } from '../scripts/openapi-document.js'
import { OPERATIONS, configurationNames, isWrite } from '../src/core/operations.js'
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

type DocOperation = {
  operationId: string
  tags?: string[]
  parameters?: { $ref?: string; name?: string }[]
  requestBody?: { required?: boolean }
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>
  security?: Record<string, string[]>[]
}
type Doc = { servers?: { url: string }[]; paths: Record<string, Record<string, DocOperation>> }

function operationsOf (doc: Doc): { method: string; path: string; op: DocOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method, path, op })))
}

t.test('the committed document points at the default port; a served one at the mock as the client reached it, or --public-url', async t => {
  const committed = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as Doc
  t.same(committed.servers?.map(s => s.url), ['http://localhost:4010'])
  const { call } = await buildTestApp(t)
  const host = { host: 'mock.test:8080' }
  t.same((await call('GET', '/openapi.json', { headers: host })).body.servers.map((s: { url: string }) => s.url), ['http://mock.test:8080'])
  t.same(parse((await call('GET', '/openapi.yaml', { headers: host })).text).servers.map((s: { url: string }) => s.url), ['http://mock.test:8080'])
  t.same((await call('GET', '/docs/json', { headers: host })).body.servers.map((s: { url: string }) => s.url), ['http://mock.test:8080'], '"Try it out" in /docs calls this mock')
  const behindProxy = await call('GET', '/openapi.json', { headers: { ...host, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'bank.test' } })
  t.same(behindProxy.body.servers.map((s: { url: string }) => s.url), ['https://bank.test'])
  const { call: callPublic } = await buildTestApp(t, { publicUrl: 'https://mock.example.com/bank/' })
  t.same((await callPublic('GET', '/openapi.json', { headers: host })).body.servers.map((s: { url: string }) => s.url), ['https://mock.example.com/bank'])
})

t.test('errors are declared as problem+json, with Retry-After on 429 and 503; the API declares its optional headers and the persona token', async t => {
  const doc = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as Doc
  for (const { method, path, op } of operationsOf(doc)) {
    for (const [status, response] of Object.entries(op.responses)) {
      if (!/^[45]/.test(status)) continue
      t.notOk(response.content?.['application/json'], `${method} ${path} ${status} is not declared as application/json`)
      if (['429', '503'].includes(status)) t.ok(response.headers?.['Retry-After'], `${method} ${path} ${status} declares Retry-After`)
    }
    t.ok(Array.isArray(op.security), `${method} ${path} says what it asks for`)
  }
  for (const op of OPERATIONS) {
    const found = operationsOf(doc).find(o => o.op.operationId === op.id)?.op
    const headers = ['#/components/parameters/MockSession', '#/components/parameters/Prefer', ...(isWrite(op) ? ['#/components/parameters/IdempotencyKey'] : [])]
    t.same(found?.parameters?.filter(p => p.$ref !== undefined).map(p => p.$ref), headers, `${op.id} takes x-mock-session and Prefer${isWrite(op) ? ', and Idempotency-Key' : ''}`)
    if (isWrite(op)) {
      for (const status of [String(op.success.status), '409', '422']) {
        t.ok(found?.responses[status]?.headers?.['Idempotent-Replayed'], `${op.id} ${status} may be a replay`)
      }
      t.notOk(found?.responses['400']?.headers?.['Idempotent-Replayed'], `${op.id}: a 400 is never a replay`)
    }
    t.same(found?.security, [{ bearer: [] }, {}], `${op.id} takes the persona token, optional in open auth`)
    t.ok(found?.responses['503']?.content?.['application/problem+json'], `${op.id} declares 503`)
  }
})

t.test('the control plane declares the admin token: optional without --admin-token, required with it; health and the PIN page ask for nothing', async t => {
  const securityOf = (doc: Doc, id: string): unknown => operationsOf(doc).find(o => o.op.operationId === id)?.op.security
  const { call } = await buildTestApp(t)
  const open = (await call('GET', '/openapi.json')).body as Doc
  t.same(securityOf(open, 'mockGetState'), [{ adminToken: [] }, { adminTokenQuery: [] }, {}])
  t.same(securityOf(open, 'mockEvents'), [{ adminToken: [] }, { adminTokenQuery: [] }, {}], 'the event stream too')
  t.same(securityOf(open, 'healthz'), [])
  t.same(securityOf(open, 'mockPinPage'), [])
  const { call: callGuarded } = await buildTestApp(t, { adminToken: 'sekrit' })
  const guarded = (await callGuarded('GET', '/openapi.json')).body as Doc
  t.same(securityOf(guarded, 'mockGetState'), [{ adminToken: [] }, { adminTokenQuery: [] }])
  t.same(securityOf(guarded, 'getCustomer'), [{ bearer: [] }, {}], 'the API is unchanged')
})

t.test('a body the document marks optional may be left out; one it requires is refused when left out', async t => {
  const { call } = await buildTestApp(t)
  const doc = (await call('GET', '/openapi.json')).body as Doc
  const withBody = operationsOf(doc).filter(o => o.op.requestBody !== undefined)
  const optional = withBody.filter(o => o.op.requestBody?.required === false).map(o => o.op.operationId)
  t.ok(['lockCard', 'unlockCard', 'createSetPinUrl', 'sendStatementByEmail', 'cancelScheduledTransfer', 'deleteScheduledTransfer', 'mockReset'].every(id => optional.includes(id)), 'the actions take no body')
  t.notOk(['updateCustomer', 'reissueCard', 'mockAdvanceClock', 'mockAddFault', 'mockSetPin'].some(id => optional.includes(id)), 'a body that needs a field is required')
  for (const { method, path, op } of withBody) {
    // Ids that need not exist: a route that got past body validation answers 404 at worst.
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => name === 'faultId' ? 'fault_1' : 'nope_1')
    const res = await call(method.toUpperCase(), url, { session: `bodies-${op.operationId}` })
    if (op.requestBody?.required === false) t.not(res.status, 400, `${op.operationId} answers without a body (${res.status} ${res.body?.detail ?? ''})`)
    else t.ok([400, 422].includes(res.status), `${op.operationId} refuses a missing body, naming what is missing (${res.status} ${res.body?.detail ?? ''})`)
  }
})
