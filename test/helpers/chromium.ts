import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page } from 'playwright-core'

const WORKER_SCRIPT = fileURLToPath(new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url))

// Debian's chromium driven by playwright-core, as every browser test opens it (`.ci/browser-deps` installs it in CI).

export const CHROMIUM = '/usr/bin/chromium'

/** A test's `skip`: the reason when chromium is not installed. */
export const skipWithoutChromium: false | string = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium (.ci/browser-deps does in CI)`

interface Teardown { teardown: (fn: () => unknown) => void }

export interface OpenedBrowser {
  browser: BrowserContext
  page: Page
  /** Page errors, and with `consoleErrors` the console's error lines, as they come. */
  problems: string[]
}

/** Headless chromium on a fresh profile, closed and removed at teardown; its first page with `timeoutMs` as the default wait. */
export async function openChromium (t: Teardown, options: { timeoutMs: number, consoleErrors?: boolean, viewport?: { width: number, height: number }, timezoneId?: string }): Promise<OpenedBrowser> {
  const { chromium } = await import('playwright-core')
  const profile = mkdtempSync(join(tmpdir(), 'baas-mock-chromium-'))
  t.teardown(() => rmSync(profile, { recursive: true, force: true }))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    ...(options.viewport === undefined ? {} : { viewport: options.viewport }),
    ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId })
  })
  t.teardown(() => browser.close())
  const page = browser.pages()[0] ?? await browser.newPage()
  page.setDefaultTimeout(options.timeoutMs)
  const problems: string[] = []
  page.on('pageerror', error => problems.push(`page error: ${error.message}`))
  if (options.consoleErrors === true) page.on('console', message => { if (message.type() === 'error') problems.push(`console: ${message.text()}`) })
  return { browser, page, problems }
}

/**
 * An app's server on loopback: an index page loading /app.js, the given scripts (path → source) and
 * MSW's worker script; every path asked of it is pushed to `requested`. Anything else is a 404, with
 * `notFoundPage` as its HTML when given (a dev server's own page).
 */
export async function appServer (scripts: Record<string, string>, requested: string[], notFoundPage?: string): Promise<Server> {
  const files: Record<string, { type: string; body: string }> = {
    '/': { type: 'text/html', body: '<!doctype html><title>app</title><link rel="icon" href="data:,"><script type="module" src="/app.js"></script>' },
    ...Object.fromEntries(Object.entries(scripts).map(([path, body]) => [path, { type: 'text/javascript', body }])),
    '/mockServiceWorker.js': { type: 'text/javascript', body: readFileSync(WORKER_SCRIPT, 'utf8') }
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    requested.push(`${req.method ?? ''} ${path}`)
    const file = files[path]
    if (file === undefined) return notFoundPage === undefined ? res.writeHead(404).end() : res.writeHead(404, { 'content-type': 'text/html' }).end(notFoundPage)
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return server
}
