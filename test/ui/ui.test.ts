import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { defaultConfig } from '../../src/config/config.js'
import { loadCore } from '../../src/core/build.js'
import { CoreServices } from '../../src/core/services.js'
import { controlDefinitions } from '../../src/control/route.js'
import { loadAssets, UI_DIR, UI_FILES, uiRoutes } from '../../src/control/ui.js'
import { createFetchHandler } from '../../src/transports/fetch/handler.js'
import { createMock } from '../../src/index.js'
import { buildTestApp } from '../helpers/app.js'

const page = readFileSync(join(UI_DIR, 'index.html'), 'utf8')
const script = readFileSync(join(UI_DIR, 'app.js'), 'utf8')

t.test('/__mock/ui redirects to ui/ with a relative Location, so a proxy prefix survives; the query travels along', async t => {
  const { app } = await buildTestApp(t)
  const bare = await app.inject('/__mock/ui')
  t.equal(bare.statusCode, 302)
  t.equal(bare.headers.location, 'ui/')
  const withQuery = await app.inject('/__mock/ui?session=demo&persona=tok_sam')
  t.equal(withQuery.headers.location, 'ui/?session=demo&persona=tok_sam')
})

t.test('/__mock/ui/ is the page: HTML, locked down to its own files and the mock', async t => {
  const { app } = await buildTestApp(t)
  const res = await app.inject('/__mock/ui/?session=demo')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], 'text/html')
  t.equal(res.body, page)
  t.match(res.headers['content-security-policy'], "default-src 'none'; script-src 'self'; style-src 'self'")
  t.match(res.headers['content-security-policy'], "connect-src 'self'")
  t.equal(res.headers['referrer-policy'], 'no-referrer', 'a ?token= never leaks in a Referer')
  t.equal(res.headers['x-content-type-options'], 'nosniff')
})

t.test('the page works under any path prefix: every URL in it is relative, and the script derives the mock root from its location', async t => {
  const urls = [...page.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map(m => m[1] ?? '')
  t.ok(urls.length >= 3, 'the page links its files')
  for (const url of urls) t.match(url, /^(\.\/|#)/, `${url} is relative`)
  t.notMatch(script, /https?:\/\//, 'no absolute URL in the script (no CDN)')
  t.match(script, 'const ROOT = mockRoot(location.pathname)')
  for (const [, path] of script.matchAll(/`\$\{ROOT\}(\/[^`$]*)/g)) t.match(path, /^\/__mock/, `${path} is called relative to the mock root`)
  const imports = [...script.matchAll(/^import .* from '([^']+)'/gm)].map(m => m[1])
  t.same(imports, ['./format.js'], 'the script imports only its sibling')
})

t.test('the files are served with their types and revalidate cheaply', async t => {
  const { app } = await buildTestApp(t)
  const types: Record<string, RegExp> = { 'app.js': /^text\/javascript/, 'format.js': /^text\/javascript/, 'app.css': /^text\/css/, 'favicon.svg': /^image\/svg\+xml/ }
  for (const [name, type] of Object.entries(types)) {
    const res = await app.inject(`/__mock/ui/${name}`)
    t.equal(res.statusCode, 200, name)
    t.match(res.headers['content-type'], type, `${name} type`)
    t.equal(res.body, readFileSync(join(UI_DIR, name), 'utf8'), `${name} is the file`)
    t.equal(res.headers['cache-control'], 'no-cache')
    const again = await app.inject({ url: `/__mock/ui/${name}`, headers: { 'if-none-match': String(res.headers.etag) } })
    t.equal(again.statusCode, 304, `${name} unchanged: 304`)
    t.equal(again.body, '')
  }
  const stale = await app.inject({ url: '/__mock/ui/app.js', headers: { 'if-none-match': '"something-else"' } })
  t.equal(stale.statusCode, 200)
  const unknown = await app.inject('/__mock/ui/secrets.json')
  t.equal(unknown.statusCode, 404)
  t.match(unknown.json(), { code: 'route_not_found' })
})

t.test('the dashboard stays small: its files add up to a few tens of KB', async t => {
  const bytes = UI_FILES.reduce((sum, name) => sum + readFileSync(join(UI_DIR, name)).length, 0)
  t.ok(bytes < 64 * 1024, `${bytes} bytes`)
})

t.test('with an admin token the page still loads (it holds no data) while the data it reads needs the token', async t => {
  const { app } = await buildTestApp(t, { adminToken: 'sesame' })
  t.equal((await app.inject('/__mock/ui/')).statusCode, 200)
  t.equal((await app.inject('/__mock/ui/app.js')).statusCode, 200)
  t.equal((await app.inject('/__mock/state')).statusCode, 401)
  t.equal((await app.inject('/__mock/events')).statusCode, 401)
  t.match(page, 'id="admin-token"', 'the page asks for the token')
})

t.test('missing files (a packaging mistake) make the dashboard say so, and nothing else breaks', async t => {
  const missing = await loadAssets('/nonexistent/ui', UI_FILES)
  t.type(missing, Error)
  t.match((missing as Error).message, '/nonexistent/ui')
  const services = loadCore(defaultConfig({ logLevel: 'silent' }), CoreServices)
  const handle = createFetchHandler(services, controlDefinitions(services, uiRoutes(async () => missing)))
  const res = await handle(new Request('http://localhost/__mock/ui/'))
  t.equal(res.status, 500)
  t.match(res.headers.get('content-type'), 'application/problem+json')
  t.match(await res.json(), { code: 'dashboard_unavailable', detail: /\/nonexistent\/ui/, instance: '/__mock/ui/' })
  t.equal((await handle(new Request('http://localhost/__mock/ui/app.js'))).status, 500)
})

t.test('mock.fetch serves the dashboard as the server does: redirect, page, files, revalidation', async t => {
  const mock = await createMock()
  t.teardown(() => mock.close())
  const bare = await mock.fetch('/__mock/ui?session=demo')
  t.equal(bare.status, 302)
  t.equal(bare.headers.get('location'), 'ui/?session=demo')
  const res = await mock.fetch('/__mock/ui/')
  t.equal(res.status, 200)
  t.equal(await res.text(), page)
  t.match(res.headers.get('content-security-policy'), "default-src 'none'")
  const script = await mock.fetch('/__mock/ui/app.js')
  t.match(script.headers.get('content-type'), /^text\/javascript/)
  const again = await mock.fetch('/__mock/ui/app.js', { headers: { 'if-none-match': script.headers.get('etag') ?? '' } })
  t.equal(again.status, 304)
  t.equal(await again.text(), '')
})

t.test('the bundled files load from the package root', async t => {
  const assets = await loadAssets(UI_DIR, UI_FILES)
  t.notOk(assets instanceof Error)
  t.same([...(assets as Map<string, unknown>).keys()], [...UI_FILES])
})

t.test('a link with the admin token is its one use in a URL: it becomes an HTTP-only cookie, and the page is reached without it', async t => {
  const { app } = await buildTestApp(t, { adminToken: 'sesame' })
  const link = await app.inject('/__mock/ui?session=demo&token=sesame&persona=tok_sam')
  t.equal(link.statusCode, 303)
  t.equal(link.headers.location, 'ui/?session=demo&persona=tok_sam', 'no token in the Location, relative for a proxy prefix')
  const setCookie = String(link.headers['set-cookie'])
  t.match(setCookie, /^baas-mock-admin=[\w-]{43}; HttpOnly; SameSite=Strict$/, 'HTTP-only, same-site only, scoped by default to the folder of /__mock/ui: /__mock')
  t.notMatch(setCookie, 'sesame', 'the cookie is not the token')
  const cookie = setCookie.split(';')[0] as string
  t.equal((await app.inject({ url: '/__mock/state', headers: { cookie } })).statusCode, 200, 'the control plane takes the cookie')
  t.equal((await app.inject({ url: '/__mock/clock', headers: { cookie: `theme=dark; ${cookie}` } })).statusCode, 200, 'among other cookies')
  // The guard after the cookie: a page of another site cannot ride on it (SameSite=Strict keeps browsers from sending it anyway).
  const crossSite = await app.inject({ url: '/__mock/state', headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' } })
  t.equal(crossSite.statusCode, 403)
  t.match(crossSite.json(), { code: 'cross_site_not_allowed' })
  const foreign = await app.inject({ method: 'POST', url: '/__mock/reset', headers: { cookie, origin: 'https://evil.example' } })
  t.equal(foreign.statusCode, 403)
  t.equal((await app.inject('/__mock/state')).statusCode, 401, 'nothing without it')

  // A wrong token leaves the URL all the same, and gives no cookie; nor does a cookie of another token pass.
  const wrong = await app.inject('/__mock/ui?token=open')
  t.equal(wrong.statusCode, 303)
  t.equal(wrong.headers.location, 'ui/')
  t.equal(wrong.headers['set-cookie'], undefined)
  const other = await buildTestApp(t, { adminToken: 'another' })
  const otherCookie = String((await other.app.inject('/__mock/ui?token=another')).headers['set-cookie']).split(';')[0] as string
  t.equal((await app.inject({ url: '/__mock/state', headers: { cookie: otherCookie } })).statusCode, 401)
  t.equal((await app.inject({ url: '/__mock/state', headers: { cookie: 'baas-mock-admin' } })).statusCode, 401, 'a cookie without a value')
  t.equal((await app.inject({ url: '/__mock/state', headers: { cookie: 'baas-mock-admin=sesame' } })).statusCode, 401, 'the token itself is not the cookie')
  // A token given explicitly is what is checked: a wrong one is refused whatever cookie comes along.
  t.equal((await app.inject({ url: '/__mock/state', headers: { cookie, 'x-mock-admin-token': 'wrong' } })).statusCode, 401)

  // An older link to ui/ goes through /__mock/ui, whose folder is the cookie's.
  const slashed = await app.inject('/__mock/ui/?token=sesame&session=demo')
  t.equal(slashed.statusCode, 303)
  t.equal(slashed.headers.location, '../ui?token=sesame&session=demo')
  t.equal(slashed.headers['set-cookie'], undefined)
})

t.test('the token typed into the page is posted once in a header for the cookie', async t => {
  const { app } = await buildTestApp(t, { adminToken: 'sesame' })
  const typed = await app.inject({ method: 'POST', url: '/__mock/ui', headers: { 'x-mock-admin-token': 'sesame' } })
  t.equal(typed.statusCode, 204)
  const cookie = String(typed.headers['set-cookie']).split(';')[0] as string
  t.equal((await app.inject({ url: '/__mock/state', headers: { cookie } })).statusCode, 200)
  const wrong = await app.inject({ method: 'POST', url: '/__mock/ui', headers: { 'x-mock-admin-token': 'open' } })
  t.equal(wrong.statusCode, 401)
  t.match(wrong.json(), { code: 'admin_token_required', detail: /does not match/ })
  t.equal(wrong.headers['set-cookie'], undefined)
  const none = await app.inject({ method: 'POST', url: '/__mock/ui' })
  t.equal(none.statusCode, 401)
  t.match(none.json(), { code: 'admin_token_required' })

  // Without an admin token there is nothing to exchange: the link just leaves the URL.
  const open = await buildTestApp(t)
  t.equal((await open.app.inject({ method: 'POST', url: '/__mock/ui' })).statusCode, 204)
  const link = await open.app.inject('/__mock/ui?token=anything')
  t.equal(link.statusCode, 303)
  t.equal(link.headers['set-cookie'], undefined)
})

t.test('mock.fetch takes the dashboard cookie as the server does', async t => {
  const mock = await createMock({ adminToken: 'sesame' })
  t.teardown(() => mock.close())
  const link = await mock.fetch('/__mock/ui?token=sesame')
  t.equal(link.status, 303)
  const cookie = (link.headers.get('set-cookie') ?? '').split(';')[0] as string
  t.match(cookie, /^baas-mock-admin=/)
  t.equal((await mock.fetch('/__mock/state', { headers: { cookie } })).status, 200)
  t.equal((await mock.fetch('/__mock/state', { headers: { cookie: 'baas-mock-admin=sesame' } })).status, 401)
  t.equal((await mock.fetch('/__mock/state', { headers: { cookie, 'x-mock-admin-token': 'wrong' } })).status, 401)
  t.equal((await mock.fetch('/__mock/state')).status, 401)
})

t.test('the page keeps no token: it sends none in a URL, a header or storage of its own', async t => {
  t.notMatch(script, /token=|sessionStorage|localStorage/)
})
