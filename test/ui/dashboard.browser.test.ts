import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { openChromium, skipWithoutChromium } from '../helpers/chromium.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

// The dashboard in a real browser: Debian's chromium (`.ci/browser-deps` installs it in CI)
// driven by playwright-core, through a proxy that mounts the mock under /mock/ as a demo host would.

const ADMIN_TOKEN = 'demo-admin-token'
const SESSION = 'browser-demo'
const REPO = fileURLToPath(new URL('../../', import.meta.url))
const OUTPUT = join(REPO, 'test-output', 'dashboard')
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** A reverse proxy serving the mock under `/mock/`, stripping the prefix (as nginx `proxy_pass .../;` does). */
async function prefixProxy (upstreamPort: number): Promise<Server> {
  const proxy = createServer((req, res) => {
    if (!req.url?.startsWith('/mock/')) return res.writeHead(404).end()
    const upstream = httpRequest({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url.slice('/mock'.length), headers: req.headers }, answer => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    res.on('close', () => upstream.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
  return proxy
}

t.test('the dashboard shows the persona, locks a card, follows the journal live and shows an SMS code', { timeout: 60_000, skip: skipWithoutChromium }, async t => {
  const { app } = await buildTestApp(t, { adminToken: ADMIN_TOKEN })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const mockPort = (app.server.address() as AddressInfo).port
  const proxy = await prefixProxy(mockPort)
  t.teardown(() => new Promise(resolve => proxy.close(resolve)))
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mock`

  // In Los Angeles: the page shows the mock's UTC clock whatever the viewer's zone.
  const { browser, page, problems } = await openChromium(t, { timeoutMs: 10_000, consoleErrors: true, viewport: { width: 1440, height: 900 }, timezoneId: 'America/Los_Angeles' })
  const offsite: string[] = []
  page.on('request', r => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) offsite.push(r.url()) })
  const carryingToken: string[] = []
  page.on('request', r => { if (r.url().includes(ADMIN_TOKEN)) carryingToken.push(r.url()) })

  // Without the admin token the page asks for it (labelled, focused) and shows no data.
  await page.goto(`${base}/__mock/ui`)
  await page.getByText('Admin token needed').waitFor()
  t.equal(await page.locator(':focus').getAttribute('id'), 'admin-token', 'the token field has the focus')
  t.equal(await page.locator('#customer').innerText(), '', 'nothing is shown without the token')
  // The token typed in is posted once for the cookie; the page goes live with it.
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN)
  await page.getByLabel('Admin token').press('Enter')
  await page.getByText('Live: session default').waitFor()
  t.equal((await browser.cookies(`${base}/__mock/events`)).length, 1, 'the typed token became the cookie')
  await browser.clearCookies()
  // A wrong token in a link leaves the address bar too, at once.
  await page.goto(`${base}/__mock/ui?session=${SESSION}&token=wrong-token`)
  await page.getByText('Admin token needed').waitFor()
  t.equal(page.url(), `${base}/__mock/ui/?session=${SESSION}`, 'a refused token is not left in the address bar either')
  problems.length = 0 // the refused calls were logged as failed loads

  // The token and session come in the link a demo host hands out; the token leaves the address bar.
  await page.goto(`${base}/__mock/ui?session=${SESSION}&persona=${TOKENS.maya}&token=${ADMIN_TOKEN}`)
  await page.getByRole('heading', { name: 'Maya Chen' }).waitFor()
  t.equal(await page.getByLabel('Persona').inputValue(), TOKENS.maya, 'the persona picker shows the persona')
  t.equal(await page.getByLabel('Session', { exact: true }).inputValue(), SESSION)
  await page.getByText(`Live: session ${SESSION}`).waitFor()
  t.notMatch(page.url(), /token=/, 'the admin token is not left in the address bar')
  t.same(carryingToken, [`${base}/__mock/ui?session=${SESSION}&persona=${TOKENS.maya}&token=${ADMIN_TOKEN}`],
    'only the link carries the token: the page, its calls and the event stream go with the cookie it was traded for')
  const [cookie] = await browser.cookies(`${base}/__mock/events`)
  t.match(cookie, { name: 'baas-mock-admin', path: '/mock/__mock', httpOnly: true, sameSite: 'Strict' }, 'an HTTP-only cookie under the proxy prefix')
  t.not(cookie?.value, ADMIN_TOKEN, 'the cookie is not the token')
  t.match(page.url(), `${base}/__mock/ui/?session=${SESSION}`, 'served under the proxy prefix')
  t.ok(await page.locator('#accounts').getByRole('cell', { name: '$4,825.19' }).isVisible(), 'balances are dollars')

  // Accessibility, audited by axe-core (WCAG 2.1 A and AA: names, labels, contrast...) in both colour schemes.
  await page.evaluate(readFileSync(AXE, 'utf8'))
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    // A string: the test is compiled without the DOM library.
    const violations = await page.evaluate(`axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] })
      .then(result => result.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))`)
    t.same(violations, [], `no accessibility violations in the ${colorScheme} scheme`)
  }
  await page.emulateMedia({ colorScheme: 'light' })

  const virtualCard = page.locator('[data-card="card_maya_virtual"]')
  t.equal(await virtualCard.locator('.card-status').innerText(), 'active')

  // Lock from the UI: the card's badge and the journal (fed by the event stream) both change.
  await page.getByRole('button', { name: 'Lock card ending 4242' }).click()
  await virtualCard.locator('.card-status', { hasText: 'locked' }).waitFor()
  const lockEntry = page.locator('#journal li', { hasText: '/baas/debit-cards/card_maya_virtual/lock' })
  await lockEntry.waitFor()
  t.match(await lockEntry.innerText(), /POST[\s\S]*200[\s\S]*lockCard/, 'the journal shows the lock request')
  const card = await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'x-mock-session': SESSION, 'x-mock-admin-token': ADMIN_TOKEN } })
  t.equal((card.json().debitCards as { id: string; status: string }[]).find(c => c.id === 'card_maya_virtual')?.status, 'LOCKED', 'the mock holds the card locked')

  // Keyboard: focus stays on the card after its Lock button went away; Tab reaches Unlock, Enter presses it.
  t.equal(await page.locator(':focus').getAttribute('data-key'), 'card:card_maya_virtual', 'focus stays on the card')
  await page.keyboard.press('Tab')
  t.equal(await page.locator(':focus').getAttribute('aria-label'), 'Unlock card ending 4242')
  await page.keyboard.press('Enter')
  await virtualCard.locator('.card-status', { hasText: 'active' }).waitFor()
  await page.locator('#journal li', { hasText: '/baas/debit-cards/card_maya_virtual/unlock' }).waitFor()
  await page.getByRole('button', { name: 'Lock card ending 4242' }).click()
  await virtualCard.locator('.card-status', { hasText: 'locked' }).waitFor()

  // An app under test sends a code; the dashboard shows it live, as the outbox has it.
  const sent = await app.inject({ method: 'POST', url: '/mfa/send-code', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': SESSION, 'content-type': 'application/json' }, payload: '{}' })
  t.equal(sent.statusCode, 202)
  const latest = await app.inject({ method: 'GET', url: '/__mock/outbox/latest-code', headers: { 'x-mock-session': SESSION, 'x-mock-admin-token': ADMIN_TOKEN } })
  const code = latest.json().code as string
  await page.locator('#code-value', { hasText: code }).waitFor()
  t.pass(`the dashboard shows the SMS code ${code}`)
  await page.locator('#journal li', { hasText: '/mfa/send-code' }).waitFor()

  // A returned payment, from the transfer's tile: send the rent now, then have the bank return it R02.
  const rent = page.locator('[data-key="transfer:sxfer_maya_rent"]')
  await page.getByRole('button', { name: 'Run now for transfer sxfer_maya_rent' }).click()
  // The executions table sits in a closed <details>: attached, not visible.
  await rent.locator('tbody tr', { hasText: 'pending' }).first().waitFor({ state: 'attached' })
  await page.getByLabel('Return code for transfer sxfer_maya_rent').selectOption('R02')
  await page.getByRole('button', { name: 'Return latest payment for transfer sxfer_maya_rent' }).click()
  await rent.locator('header .badge', { hasText: 'failed' }).waitFor()
  t.match(await rent.locator('tbody tr').first().textContent(), /returned[\s\S]*R02/, 'the returned payment shows its code; R02 ended the transfer')

  // The clock and the faults, from their panels.
  await page.getByRole('button', { name: '+1 day' }).click()
  await page.locator('#clock-now', { hasText: 'Tue, Nov 24, 2026, 15:00:00 UTC' }).waitFor()
  await page.getByLabel('Operation').selectOption('API_BAAS_SCHEDULED_TRANSFER_ACH')
  await page.getByRole('button', { name: 'Add fault' }).click()
  await page.locator('#fault-list li', { hasText: 'API_BAAS_SCHEDULED_TRANSFER_ACH: answers 503' }).waitFor()

  t.same(problems, [], 'no script errors')
  t.same(offsite, [], 'every request stays on the mock (no CDN)')

  mkdirSync(OUTPUT, { recursive: true })
  await page.evaluate('window.scrollTo(0, 0)') // the sticky header belongs at the top of a full-page picture
  const screenshot = join(OUTPUT, 'dashboard.png')
  await page.screenshot({ path: screenshot, fullPage: true })
  t.ok(existsSync(screenshot), `screenshot at ${screenshot}`)
  // The README's picture is refreshed on purpose only, so a run never dirties the work tree.
  if (process.env.UPDATE_DOCS_SCREENSHOT === '1') copyFileSync(screenshot, join(REPO, 'docs', 'dashboard.png'))
})
