import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PACKAGE_ROOT } from '../../src/config/config.js'
import { adminTokenGuard, documentAdminToken } from '../../src/transports/fastify/admin-auth.js'
import { controlOriginGuard } from '../../src/transports/fastify/cors.js'
import { problem, sendProblem } from '../../src/transports/fastify/problem.js'
import type { MockServices } from '../../src/transports/fastify/services.js'
import { eventRoutes, type EventFeedOptions } from './events.js'

/** Plain files, not compiled: served from the package root whether the mock runs from src/ or dist/. */
export const UI_DIR = join(PACKAGE_ROOT, 'src', 'ui')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml'
}

/** The page's own files and the mock's API, nothing else: no CDN, no inline code, not framed. */
export const UI_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // The page may carry ?token=; it must not travel in a Referer.
  'referrer-policy': 'no-referrer',
  // Revalidated every time (an upgraded mock serves new files), cheap thanks to the ETag.
  'cache-control': 'no-cache'
}

interface Asset { body: Buffer; type: string; etag: string }

/** Reads the dashboard's files once; a missing folder (a packaging mistake) is reported, not fatal. */
export function loadAssets (dir: string, names: readonly string[]): Map<string, Asset> | Error {
  const assets = new Map<string, Asset>()
  for (const name of names) {
    let body: Buffer
    try {
      body = readFileSync(join(dir, name))
    } catch (error) {
      return new Error(`The dashboard's files are missing from ${dir} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}: ${name}).`)
    }
    const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream'
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` })
  }
  return assets
}

export const UI_FILES = ['index.html', 'app.js', 'format.js', 'app.css', 'favicon.svg'] as const

/**
 * The demo dashboard at `/__mock/ui/`: a static page that reads and drives the mock through the
 * same API and control plane CI uses, and follows a session live through `/__mock/events`.
 * The page and its files hold no data, so they are public like the PIN page; every call they make
 * (and the event stream) needs the admin token when one is set, which the page asks for.
 */
export async function uiRoutes (app: FastifyInstance, options: { services: MockServices; uiDir?: string; feedOptions?: EventFeedOptions }): Promise<void> {
  const { services, uiDir = UI_DIR } = options
  const assets = loadAssets(uiDir, UI_FILES)
  if (assets instanceof Error) app.log.warn(assets.message)

  const serve = (name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (assets instanceof Error) return sendProblem(reply, problem(500, 'dashboard_unavailable', assets.message, { instance: request.url.split('?')[0] }))
    const asset = assets.get(name) as Asset
    reply.headers(UI_HEADERS).header('etag', asset.etag)
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send()
    return reply.type(asset.type).send(asset.body)
  }
  const hidden = { schema: { hide: true } }

  const page = serve('index.html')
  // The page's URLs are relative (./app.js, and API calls from its own location), so it must be
  // served from `ui/`: `/__mock/ui` redirects there with a relative Location, which keeps a proxy's path prefix.
  app.get('/ui', hidden, async (request, reply) => {
    const [path = '', query] = request.url.split('?')
    if (!path.endsWith('/')) return reply.code(302).header('location', `ui/${query === undefined ? '' : `?${query}`}`).send()
    return page(request, reply)
  })
  for (const name of UI_FILES.filter(n => n !== 'index.html')) app.get(`/ui/${name}`, hidden, serve(name))

  await app.register(async guarded => {
    guarded.addHook('onRequest', controlOriginGuard(services.config))
    guarded.addHook('onRequest', adminTokenGuard(services.config.adminToken))
    guarded.addHook('onRoute', documentAdminToken(services.config.adminToken))
    await guarded.register(eventRoutes, { services, ...(options.feedOptions === undefined ? {} : { feedOptions: options.feedOptions }) })
  })
}
