import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import t from 'tap'
import { appServer, openChromium, skipWithoutChromium } from '../helpers/chromium.js'

// The links the mock hands out, in a real browser under MSW's setupWorker (as browser.browser.test.ts
// runs it): opened as links they are navigations, which MSW's worker passes to the network; shown
// with openMockPage they run in a frame whose requests the worker answers.

const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** The app: a new physical card for Jordan, a set-PIN link for it, shown with openMockPage; then the dashboard. */
const PAGE_SCRIPT = `
import { setupWorker } from 'msw/browser'
import { createHandlers, openMockPage } from 'baas-mock/msw'

const jordan = { authorization: 'Bearer tok_jordan', 'content-type': 'application/json' }
window.app = {
  async start () {
    await setupWorker(...createHandlers({ baseUrl: location.origin })).start({ quiet: true, onUnhandledRequest: 'error' })
    const card = await (await fetch('/baas/debit-cards/physical', { method: 'PUT', headers: jordan, body: JSON.stringify({ shippingMethod: 'EXPRESS' }) })).json()
    const link = await (await fetch('/baas/debit-cards/' + card.id + '/set-pin-url', { method: 'POST', headers: { authorization: jordan.authorization } })).json()
    return { card, url: link.url }
  },
  async pinPage (url) { window.shown = await openMockPage(url) },
  async closePage () { window.shown.close() },
  async dashboard () {
    const box = document.createElement('section')
    document.body.append(box)
    await openMockPage('/__mock/ui?session=default', { container: box })
  },
  async pinStatus (cardId) {
    const state = await (await fetch('/__mock/state')).json()
    return state.debitCards.find(card => card.id === cardId).pinStatus
  },
  async reopen (url) { return (await fetch(url)).status },
  async crossOrigin () { try { await openMockPage('https://bank.example/__mock/ui') } catch (error) { return error.message } }
}
window.ready = true
`

async function pageBundle (): Promise<string> {
  const result = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: REPO, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent'
  })
  return result.outputFiles[0]?.text ?? ''
}

t.test('under setupWorker, the set-PIN link and the dashboard open with openMockPage, not as navigations', { timeout: 90_000, skip: skipWithoutChromium }, async t => {
  const requested: string[] = []
  const server = await appServer({ '/app.js': await pageBundle() }, requested, '<!doctype html><title>dev server</title><h1>Not found on the dev server</h1>')
  t.teardown(() => new Promise(resolve => server.close(resolve)))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const { browser, page, problems } = await openChromium(t, { timeoutMs: 15_000, consoleErrors: true })

  await page.goto(`${origin}/`)
  // Strings: the test is compiled without the DOM library.
  await page.waitForFunction('window.ready === true')
  const { card, url } = await page.evaluate('window.app.start()') as { card: { id: string; pinStatus: string }; url: string }
  t.equal(card.pinStatus, 'NOT_SET', 'the new card has no PIN yet')
  t.equal(new URL(url).origin, origin, 'the link is under the app\'s base URL')

  // The link as a link: a navigation, which the worker does not answer, so it reaches the dev server.
  const tab = await browser.newPage()
  const navigated = await tab.goto(url)
  t.equal(navigated?.status(), 404, 'opened in a tab, the link gets the dev server\'s answer, not the PIN page')
  t.match(await tab.textContent('h1'), 'Not found on the dev server')
  await tab.close()
  t.ok(requested.includes(`GET ${new URL(url).pathname}`), 'the navigation went to the network')

  await page.evaluate(`window.app.pinPage(${JSON.stringify(url)})`)
  const pin = page.frameLocator('iframe[title="baas-mock page"]')
  t.match(await pin.locator('h1').textContent(), 'Set your card PIN', 'openMockPage shows the PIN page')
  t.match(await pin.locator('main').textContent(), /ending \d{4}/, 'for the card the link was made for')
  await pin.locator('#pin').fill('2580')
  await pin.locator('#confirm').fill('2580')
  await pin.locator('button[type=submit]').click()
  await pin.locator('#message.success').waitFor()
  t.match(await pin.locator('#message').textContent(), 'Your PIN is set', 'the form\'s POST went to the mock')
  t.equal(await page.evaluate(`window.app.pinStatus(${JSON.stringify(card.id)})`), 'SET', 'the mock\'s card has its PIN set')
  t.equal(await page.evaluate(`window.app.reopen(${JSON.stringify(url)})`), 410, 'and the link is spent')
  await page.evaluate('window.app.closePage()')
  t.equal(await page.locator('iframe').count(), 0, 'close takes the overlay away')

  await page.evaluate('window.app.dashboard()')
  const dashboard = page.frameLocator('section iframe')
  await dashboard.locator('#live[data-state="live"]').waitFor()
  t.match(await dashboard.locator('#live').textContent(), 'Live: session default', 'the dashboard runs, its live feed through the worker')
  t.ok(page.frames().some(frame => frame.url().startsWith(`${origin}/__mock/ui/?session=default`)), 'at its own address, after the redirect')

  t.match(await page.evaluate('window.app.crossOrigin()'), /not on this page's origin/, 'a page on another origin is refused with why')
  t.same(requested.filter(line => / \/(baas|__mock)\//.test(line)), [`GET ${new URL(url).pathname}`], 'nothing but the navigation reached the dev server')
  // The spent link's 410 is logged by Chromium as a failed load: the one expected.
  t.same(problems.filter(problem => !problem.includes('status of 410')), [], 'no script errors')
})
