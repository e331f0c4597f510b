import t from 'tap'
import { buildTestApp } from '../helpers/app.js'

t.test('a browser app on another origin can call the API, preflight included', async t => {
  const { app } = await buildTestApp(t)
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/baas/debit-cards/card_maya_virtual/lock',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-mock-session' }
  })
  t.equal(preflight.statusCode, 204)
  t.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:5173')
  t.match(String(preflight.headers['access-control-allow-methods']), /POST/)
  t.match(String(preflight.headers['access-control-allow-headers']).toLowerCase(), /authorization/)
  t.equal(preflight.headers['access-control-allow-credentials'], 'true')
  for (const [method, url] of [['PUT', '/baas/debit-cards/card_maya_virtual/unlock'], ['PUT', '/baas/customers'], ['DELETE', '/__mock/faults'], ['PATCH', '/baas/customers']]) {
    const other = await app.inject({ method: 'OPTIONS', url: url as string, headers: { origin: 'http://localhost:5173', 'access-control-request-method': method as string } })
    t.ok(String(other.headers['access-control-allow-methods']).split(/, */).includes(method as string), `a browser may send ${method} ${url}`)
  }
  const get = await app.inject({ method: 'GET', url: '/baas/customers', headers: { origin: 'http://localhost:5173', authorization: 'Bearer tok_maya' } })
  t.equal(get.headers['access-control-allow-origin'], 'http://localhost:5173')
  t.match(String(get.headers['access-control-expose-headers']), /Retry-After/)
  const noOrigin = await app.inject({ method: 'GET', url: '/baas/customers', headers: { authorization: 'Bearer tok_maya' } })
  t.equal(noOrigin.statusCode, 200)
  t.equal(noOrigin.headers['access-control-allow-origin'], undefined, 'a request without Origin is no CORS request')
  t.equal(noOrigin.headers.vary, 'Origin', 'caches still key on Origin')
})

t.test('CORS can be turned off', async t => {
  const { app } = await buildTestApp(t, { cors: false })
  const get = await app.inject({ method: 'GET', url: '/baas/customers', headers: { origin: 'http://localhost:5173' } })
  t.equal(get.headers['access-control-allow-origin'], undefined)
})
