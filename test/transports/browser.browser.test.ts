import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import t from 'tap'
import { appServer, openChromium, skipWithoutChromium } from '../helpers/chromium.js'

// baas-mock/msw in a real browser: Debian's chromium (`.ci/browser-deps` installs it in CI) driven
// by playwright-core loads a page bundled with esbuild, whose MSW Service Worker answers the app's
// API requests from createHandlers, so none of them reaches the network.

const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** The app under test: starts the worker, locks a card, reads the mock's state; the outcome goes to window.outcome. */
const PAGE_SCRIPT = `
import { setupWorker } from 'msw/browser'
import { createHandlers, createMock } from 'baas-mock/msw'

try {
  const worker = setupWorker(...createHandlers({ baseUrl: location.origin }))
  await worker.start({ quiet: true, onUnhandledRequest: 'error' })
  const lock = await fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  const state = await fetch('/__mock/state')
  const dashboard = await fetch('/__mock/ui/app.js')
  const events = await fetch('/__mock/events?session=default')
  const reader = events.body.getReader()
  let feed = ''
  while (!feed.includes('event: hello')) {
    const { done, value } = await reader.read()
    if (done) break
    feed += new TextDecoder().decode(value)
  }
  await reader.cancel()
  // The in-process mock and its session handles come from the same browser build.
  const own = await createMock({ seed: 1 })
  await own.session('page').faults.add({ operation: 'lockCard', status: 503, count: 1 })
  const ownLock = await own.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { 'x-mock-session': 'page' } })
  // JSON, but not a cursor the list gave: the shape check (Ajv-compiled in the browser build) refuses it
  // (in process: the page's console would log a 400 from the network as an error).
  const cursor = await own.fetch('/baas/scheduled-transfers?cursor=' + btoa('{"x":1}').replace(/=+$/, ''), { headers: { authorization: 'Bearer tok_maya' } })
  let folder = 'accepted'
  try { createHandlers({ fixtures: 'my-fixtures' }) } catch (error) { folder = error.message }
  window.outcome = { lock: { status: lock.status, body: await lock.json() }, state: { status: state.status, body: await state.json() },
    dashboard: { status: dashboard.status, type: dashboard.headers.get('content-type'), text: await dashboard.text() },
    events: { status: events.status, type: events.headers.get('content-type'), feed },
    ownLock: ownLock.status, folder, cursor: { status: cursor.status, body: await cursor.json() } }
} catch (error) {
  window.outcome = { error: String(error && error.stack || error) }
}
`

/**
 * Bundles the page as an app would (esbuild, the browser condition of baas-mock/msw), code
 * splitting as Vite's build does: the build's lazily imported chunks stay files of their own.
 */
async function pageBundle (): Promise<Record<string, string>> {
  const outdir = join(REPO, 'page-out')
  const result = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: REPO, loader: 'js' },
    bundle: true,
    splitting: true,
    outdir,
    entryNames: 'app',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent'
  })
  return Object.fromEntries(result.outputFiles.map(file => [`/${relative(outdir, file.path)}`, file.text]))
}

t.test('in a browser, MSW\'s Service Worker answers from createHandlers: a card locks and no API request reaches the network', { timeout: 60_000, skip: skipWithoutChromium }, async t => {
  const requested: string[] = []
  const server = await appServer(await pageBundle(), requested)
  t.teardown(() => new Promise(resolve => server.close(resolve)))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const { page, problems } = await openChromium(t, { timeoutMs: 15_000, consoleErrors: true })

  await page.goto(`${origin}/`)
  // A string: the test is compiled without the DOM library.
  await page.waitForFunction('window.outcome !== undefined')
  const outcome = await page.evaluate('window.outcome') as {
    error?: string
    lock: { status: number; body: { id: string; status: string } }
    state: { status: number; body: { debitCards: Array<{ id: string; status: string }> } }
    dashboard: { status: number; type: string; text: string }
    events: { status: number; type: string; feed: string }
    ownLock: number
    folder: string
    cursor: { status: number; body: { code: string } }
  }

  t.equal(outcome.error, undefined, 'the page ran to the end')
  t.equal(outcome.lock.status, 200, 'the lock is answered')
  t.equal(outcome.lock.body.status, 'LOCKED', 'the card comes back locked')
  t.equal(outcome.state.status, 200, 'the control plane is answered')
  t.equal(outcome.state.body.debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED', 'the mock\'s state holds the card locked')
  t.equal(outcome.dashboard.status, 200, 'the dashboard\'s files are in the browser build')
  t.match(outcome.dashboard.type, /^text\/javascript/)
  t.equal(outcome.dashboard.text, readFileSync(join(REPO, 'src/ui/app.js'), 'utf8'), 'the script is the file')
  t.ok(requested.some(line => /^GET \/[\w.-]*bundled-ui-files[\w.-]*\.js$/.test(line)), 'the dashboard\'s files came as a chunk of their own, loaded when asked for')
  t.equal(outcome.events.status, 200, 'the live feed answers in the browser')
  t.match(outcome.events.type, /^text\/event-stream/)
  t.match(outcome.events.feed, /event: hello\ndata: \{"session":"default"/, 'the stream starts with hello')
  t.match(outcome.cursor, { status: 400, body: { code: 'invalid_cursor' } }, 'a cursor of the wrong shape is refused in the browser as on Node')
  t.equal(outcome.ownLock, 503, 'createMock from baas-mock/msw, and its session\'s fault, work in a page')
  t.match(outcome.folder, /fixtures in the options: my-fixtures is a folder, which a browser cannot read; pass the files as an object/, 'a fixtures folder is refused with what to do instead')
  t.same(requested.filter(line => / \/(baas|__mock)\//.test(line)), [], 'no API or control request reached the server')
  t.ok(requested.includes('GET /mockServiceWorker.js'), 'the worker script was served, so the page really ran MSW\'s worker')
  t.same(problems, [], 'no script errors')
})
