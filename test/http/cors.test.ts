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
  const exposed = String(get.headers['access-control-expose-headers']).toLowerCase().split(/, */)
  // A page on another origin (the app's dev server) rehearses a retry by reading this header.
  t.ok(exposed.includes('idempotent-replayed'), 'a page may read Idempotent-Replayed')
  t.ok(exposed.includes('x-mock-session-created'), 'and X-Mock-Session-Created')
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

const FOREIGN = 'https://evil.example'

t.test('a page of another origin can neither read nor drive the control plane', async t => {
  const { app, call } = await buildTestApp(t)
  for (const [method, url] of [['GET', '/__mock/state'], ['POST', '/__mock/reset'], ['POST', '/__mock/faults'], ['GET', '/%5F%5Fmock/outbox']]) {
    const preflight = await app.inject({ method: 'OPTIONS', url: url as string, headers: { origin: FOREIGN, 'access-control-request-method': method as string, 'access-control-request-headers': 'content-type' } })
    t.equal(preflight.headers['access-control-allow-origin'], undefined, `no preflight grant for ${method} ${url}`)
    t.equal(preflight.headers['access-control-allow-credentials'], undefined)
  }
  const read = await app.inject({ method: 'GET', url: '/__mock/state', headers: { origin: FOREIGN } })
  t.equal(read.headers['access-control-allow-origin'], undefined, 'a simple GET gets no grant: the browser hides the answer')
  t.equal(read.statusCode, 403)
  t.equal(read.json().code, 'origin_not_allowed')
  t.notMatch(read.body, 'cus_maya', 'and no state in it')

  // A POST without a body needs no preflight: the browser sends it, so the server must refuse it.
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: 'tok_maya' })).status, 200)
  const reset = await app.inject({ method: 'POST', url: '/__mock/reset', headers: { origin: FOREIGN } })
  t.equal(reset.statusCode, 403)
  t.match(reset.json().detail, '--control-origins', 'the answer says how to allow an origin')
  const { debitCards } = (await call('GET', '/__mock/state')).body
  t.equal(debitCards.find((c: { id: string }) => c.id === 'card_maya_virtual').status, 'LOCKED', 'the reset did not happen')

  const feed = await app.inject({ method: 'GET', url: '/__mock/events', headers: { origin: FOREIGN, accept: 'text/event-stream' } })
  t.same([feed.statusCode, feed.json().code], [403, 'origin_not_allowed'], 'nor follow the dashboard\'s feed')

  const api = await app.inject({ method: 'GET', url: '/baas/customers', headers: { origin: FOREIGN, authorization: 'Bearer tok_maya' } })
  t.equal(api.headers['access-control-allow-origin'], FOREIGN, 'the API stays open to any origin')
  t.equal(api.headers['access-control-allow-credentials'], 'true', 'with credentials')
})

t.test('loopback pages and the mock\'s own pages use the control plane, never with credentials', async t => {
  const { app } = await buildTestApp(t)
  for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'https://localhost', 'http://[::1]:8080']) {
    const preflight = await app.inject({ method: 'OPTIONS', url: '/__mock/reset', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-mock-admin-token' } })
    t.equal(preflight.statusCode, 204)
    t.equal(preflight.headers['access-control-allow-origin'], origin)
    t.equal(preflight.headers['access-control-allow-credentials'], undefined, `${origin}: no credentials`)
    const read = await app.inject({ method: 'GET', url: '/__mock/state', headers: { origin } })
    t.equal(read.statusCode, 200)
    t.equal(read.headers['access-control-allow-origin'], origin)
    t.equal(read.headers['access-control-allow-credentials'], undefined)
  }
  for (const origin of ['http://localhost.evil.example', 'http://localhost:80abc', 'http://127.0.0.1.nip.io:4010', 'null']) {
    const read = await app.inject({ method: 'GET', url: '/__mock/state', headers: { origin } })
    t.same([read.statusCode, read.headers['access-control-allow-origin']], [403, undefined], `${origin} is not loopback`)
  }
  // The dashboard is served by the mock itself: its writes carry the mock's own origin, whatever its address.
  const own = await app.inject({ method: 'POST', url: '/__mock/reset', headers: { host: '192.168.1.20:4010', origin: 'http://192.168.1.20:4010' } })
  t.equal(own.statusCode, 200)
})

t.test('--control-origins replaces the loopback default', async t => {
  const { app } = await buildTestApp(t, { controlOrigins: ['https://tools.example.com', 'http://devbox.lan:*'] })
  for (const origin of ['https://tools.example.com', 'http://devbox.lan:5173']) {
    const read = await app.inject({ method: 'GET', url: '/__mock/state', headers: { origin } })
    t.same([read.statusCode, read.headers['access-control-allow-origin'], read.headers['access-control-allow-credentials']], [200, origin, undefined], origin)
  }
  const loopback = await app.inject({ method: 'GET', url: '/__mock/state', headers: { origin: 'http://localhost:5173' } })
  t.equal(loopback.statusCode, 403)
  const none = await buildTestApp(t, { controlOrigins: [] })
  t.equal((await none.app.inject({ method: 'GET', url: '/__mock/clock', headers: { origin: 'http://localhost:5173' } })).statusCode, 403, 'an empty list allows no page')
  t.equal((await none.app.inject({ method: 'GET', url: '/__mock/clock' })).statusCode, 200, 'and leaves clients without Origin alone')
})

t.test('an open mock on loopback refuses the control plane under a foreign DNS name (DNS rebinding)', async t => {
  const { app } = await buildTestApp(t)
  // A page of http://attacker.example:4010 rebinds its name to 127.0.0.1: same origin, no Origin on a GET.
  const read = await app.inject({ method: 'GET', url: '/__mock/outbox', headers: { host: 'attacker.example:4010', 'x-forwarded-host': 'localhost' } })
  t.same([read.statusCode, read.json().code], [403, 'host_not_allowed'])
  t.match(read.json().detail, '--public-url', 'the answer says the way out')
  const reset = await app.inject({ method: 'POST', url: '/__mock/reset', headers: { host: 'attacker.example:4010', origin: 'http://attacker.example:4010' } })
  t.same([reset.statusCode, reset.json().code], [403, 'host_not_allowed'], 'nor is it the mock\'s "own origin"')
  const feed = await app.inject({ method: 'GET', url: '/__mock/events', headers: { host: 'attacker.example', accept: 'text/event-stream' } })
  t.equal(feed.statusCode, 403, 'nor the dashboard\'s feed')
  for (const host of ['localhost:4010', '127.0.0.1:4010', '[::1]:4010', 'app.localhost:4010', '10.0.0.5:4010']) {
    t.equal((await app.inject({ method: 'GET', url: '/__mock/state', headers: { host } })).statusCode, 200, `${host} cannot be rebound`)
  }
  t.equal((await app.inject({ method: 'GET', url: '/baas/customers', headers: { host: 'attacker.example' } })).statusCode, 200, 'the API itself stays open')
})

t.test('a public URL or an admin token lets the control plane answer under a DNS name', async t => {
  const named = await buildTestApp(t, { publicUrl: 'https://mock.test.example' })
  t.equal((await named.app.inject({ method: 'GET', url: '/__mock/state', headers: { host: 'mock.test.example' } })).statusCode, 200)
  const guarded = await buildTestApp(t, { adminToken: 'sekret' })
  t.equal((await guarded.app.inject({ method: 'GET', url: '/__mock/state', headers: { host: 'mock.test.example', 'x-mock-admin-token': 'sekret' } })).statusCode, 200)
})

t.test('a request a browser sends for another site without asking (an <img>, a link) is refused, even with no Origin', async t => {
  const { app, call } = await buildTestApp(t)
  await call('GET', `/baas/${'a'.repeat(50)}`)
  const img = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }
  const refused = await app.inject({ method: 'GET', url: '/__mock/requests?path=*a*', headers: img })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().code, 'cross_site_not_allowed')
  t.notMatch(refused.body, 'aaaa', 'and no journal in it')
  const link = await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } })
  t.same([link.statusCode, link.json().code], [403, 'cross_site_not_allowed'], 'a link from another site')
  const sameSiteImg = await app.inject({ method: 'GET', url: '/__mock/state', headers: { ...img, 'sec-fetch-site': 'same-site' } })
  t.same([sameSiteImg.statusCode, sameSiteImg.json().code], [403, 'cross_site_not_allowed'], 'another port of localhost is another origin: same-site, still refused without CORS')
  const form = await app.inject({ method: 'POST', url: '/__mock/reset', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', origin: 'http://localhost:5173' } })
  t.same([form.statusCode, form.json().code], [403, 'cross_site_not_allowed'], 'a form posted from an allowed origin is no fetch: refused')
  const noOrigin = await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' } })
  t.equal(noOrigin.statusCode, 403, 'a cross-site request without Origin is no page of an allowed origin')
})

t.test('tools, the dashboard and allowed pages still use the control plane with Sec-Fetch-* headers', async t => {
  const { app } = await buildTestApp(t)
  t.equal((await app.inject({ method: 'GET', url: '/__mock/state' })).statusCode, 200, 'curl sends no Sec-Fetch-*')
  const dashboard = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', origin: 'http://localhost:80', host: 'localhost:80' }
  t.equal((await app.inject({ method: 'GET', url: '/__mock/state', headers: dashboard })).statusCode, 200, 'the dashboard, same-origin')
  t.equal((await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors' } })).statusCode, 200, 'the mock\'s own page, no-cors')
  t.equal((await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' } })).statusCode, 200, 'an address typed in the bar')
  const appPage = await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', origin: 'http://localhost:5173' } })
  t.equal(appPage.statusCode, 200, 'a fetch from the app\'s dev server on another port')
  const configured = await buildTestApp(t, { controlOrigins: ['https://app.example.com'] })
  const remote = await configured.app.inject({ method: 'GET', url: '/__mock/state', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', origin: 'https://app.example.com' } })
  t.equal(remote.statusCode, 200, 'a fetch from a configured origin on another site')
  const pin = await app.inject({ method: 'GET', url: '/__mock/pin/nope', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } })
  t.same([pin.statusCode, String(pin.headers['content-type']).split(';')[0]], [404, 'text/html'], 'the PIN page, opened from a link in the app, is for people and stays reachable (its unknown-link page)')
})
