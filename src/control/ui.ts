import { HttpProblem, problem } from '../core/problem.js'
import { pathOf } from '../core/exchange.js'
import { base64url, sha256Bytes } from '../world/digest.js'
import { adminCookieHeader, adminTokenProblem, givenAdminToken, sameText } from '../core/admin-token.js'
import { controlRoute, respond, respondText, type ControlCall, type ControlRoute } from './route.js'
import { readUiFiles, UI_DIR } from './ui-files.js'

export { UI_DIR } from './ui-files.js'

// Every type says its charset, so that the HTTP server and mock.fetch send the same header.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8'
}

/** The page's own files and the mock's API, nothing else: no CDN, no inline code, not framed. */
export const UI_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // A page's address never carries the token (it becomes a cookie first); nor does a Referer carry its query.
  'referrer-policy': 'no-referrer',
  // Revalidated every time (an upgraded mock serves new files), cheap thanks to the ETag.
  'cache-control': 'no-cache'
}

/** The dashboard's cookie when `token` is the admin token in effect; nothing when it is not, or none is set. */
function cookieFor (call: ControlCall, token: string): Record<string, string> {
  const expected = call.services.config.adminToken
  return expected !== undefined && sameText(token, expected) ? { 'set-cookie': adminCookieHeader(expected) } : {}
}

interface Asset { text: string; type: string; etag: string }

/** Reads the dashboard's files once; a missing folder (a packaging mistake) is reported, not fatal. */
export async function loadAssets (dir: string, names: readonly string[]): Promise<Map<string, Asset> | Error> {
  const files = await readUiFiles(dir, names)
  if (files instanceof Error) return files
  const assets = new Map<string, Asset>()
  for (const [name, text] of files) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream'
    assets.set(name, { text, type, etag: `"${base64url(sha256Bytes(text)).slice(0, 27)}"` })
  }
  return assets
}

export const UI_FILES = ['index.html', 'app.js', 'format.js', 'app.css', 'favicon.svg'] as const

let bundled: Promise<Map<string, Asset> | Error> | undefined

/** The package's own dashboard files, read on first use (not at start: most runs never open the page). */
export async function bundledAssets (): Promise<Map<string, Asset> | Error> {
  bundled ??= loadAssets(UI_DIR, UI_FILES)
  return await bundled
}

/**
 * The demo dashboard at `/__mock/ui/`: a static page that reads and drives the mock through the
 * same API and control plane CI uses, and follows a session live through `/__mock/events`.
 * The page and its files hold no data, so they are public like the PIN page; every call they make
 * (and the event stream) needs the admin token when one is set, which the browser sends as an
 * HTTP-only cookie given once for it (a link's ?token=, or the token typed into the page).
 */
export function uiRoutes (assetsOf: () => Promise<Map<string, Asset> | Error> = bundledAssets): ControlRoute[] {
  const serve = (name: string) => async ({ request }: ControlCall): Promise<unknown> => {
    const assets = await assetsOf()
    if (assets instanceof Error) throw new HttpProblem(problem(500, 'dashboard_unavailable', assets.message))
    const asset = assets.get(name) as Asset
    const headers = { ...UI_HEADERS, etag: asset.etag }
    if (request.headers['if-none-match'] === asset.etag) return respond(304, undefined, headers)
    return respondText(200, asset.text, asset.type, headers)
  }
  const hidden = { hide: true, response: {} }
  const page = serve('index.html')
  return [
    controlRoute({
      method: 'GET',
      url: '/__mock/ui',
      schema: hidden,
      public: true,
      // The page's URLs are relative (./app.js, and API calls from its own location), so it must be
      // served from `ui/`: `/__mock/ui` redirects there with a relative Location, which keeps a proxy's path prefix.
      handle: (call: ControlCall) => {
        const at = call.request.url.indexOf('?')
        const search = at === -1 ? '' : call.request.url.slice(at)
        const slash = pathOf(call.request.url).endsWith('/')
        const query = new URLSearchParams(search)
        const token = query.get('token')
        if (token !== null) {
          // A link with the token (the one printed at start) is its one use in a URL: it becomes the
          // cookie at `/__mock/ui`, whose folder is the cookie's path, and the page is reached without it.
          if (slash) return respond(303, undefined, { location: `../ui${search}` })
          query.delete('token')
          const rest = query.size === 0 ? '' : `?${query}`
          return respond(303, undefined, { location: `ui/${rest}`, 'cache-control': 'no-store', ...cookieFor(call, token) })
        }
        if (!slash) return respond(302, undefined, { location: `ui/${search}` })
        return page(call)
      }
    }),
    controlRoute({
      method: 'POST',
      url: '/__mock/ui',
      schema: hidden,
      public: true,
      // The token typed into the page, sent once in a header and answered with the cookie (never kept by the page).
      handle: (call: ControlCall) => {
        const given = givenAdminToken(call.request.headers, undefined)
        const cookie = given === undefined ? {} : cookieFor(call, given)
        const expected = call.services.config.adminToken
        if (expected !== undefined && !('set-cookie' in cookie)) throw new HttpProblem(adminTokenProblem(given, '/__mock/ui'))
        return respond(204, undefined, { 'cache-control': 'no-store', ...cookie })
      }
    }),
    ...UI_FILES.filter(name => name !== 'index.html').map(name => controlRoute({
      method: 'GET',
      url: `/__mock/ui/${name}`,
      schema: hidden,
      public: true,
      handle: serve(name)
    }))
  ]
}
