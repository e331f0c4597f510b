import type { AddressInfo } from 'node:net'
import t from 'tap'
import { openChromium, skipWithoutChromium } from '../helpers/chromium.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'
import { Receiver } from '../helpers/receiver.js'

// The dashboard's events feed and deliveries view in a real browser (Debian's chromium, as the dashboard test).

const SESSION = 'hooks-demo'
t.test('the dashboard shows events live, and deliveries with their attempts; a person retries a failed one', { timeout: 60_000, skip: skipWithoutChromium }, async t => {
  let failing = true
  const hooks = await Receiver.start(() => (failing ? 503 : 200))
  t.teardown(() => hooks.close())
  const { app, call } = await buildTestApp(t, { webhookRetrySchedule: [0, 20] })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  await call('POST', '/__mock/webhooks/endpoints', { session: SESSION, body: { url: hooks.url } })
  // Made before the page opens: the dashboard reads it from the paged lists, not from the live feed.
  t.equal((await call('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', { session: SESSION, token: TOKENS.maya })).status, 202)

  const { page, problems } = await openChromium(t, { timeoutMs: 10_000, viewport: { width: 1440, height: 900 } })

  await page.goto(`${base}/__mock/ui?session=${SESSION}&persona=${TOKENS.maya}`)
  await page.getByText(`Live: session ${SESSION}`).waitFor()
  await page.locator('#endpoint-list li', { hasText: hooks.url }).waitFor()
  t.pass('the session\'s endpoint is listed')
  await page.locator('#event-list li', { hasText: 'statement.sent' }).waitFor()
  await page.locator('#delivery-list li', { hasText: 'statement.sent' }).waitFor()
  t.pass('the event and delivery made before the page opened are listed')

  await page.getByRole('button', { name: 'Lock card ending 4242' }).click()
  const event = page.locator('#event-list li', { hasText: 'card.locked' })
  await event.waitFor()
  t.match(await event.innerText(), /card\.locked\s+Locked/, 'the event arrives on the live feed')

  const delivery = page.locator('#delivery-list li', { hasText: 'card.locked' })
  await delivery.locator('.badge', { hasText: 'failed' }).waitFor()
  t.match(await delivery.innerText(), /2 attempts, HTTP 503/, 'both attempts of the schedule, and what came back')
  failing = false
  await page.getByRole('button', { name: `Retry delivery of card.locked to ${hooks.url}` }).click()
  await delivery.locator('.badge', { hasText: 'succeeded' }).waitFor()
  await delivery.locator('summary').click()
  t.match(await delivery.innerText(), /\(by hand\)[\s\S]*200/, 'the attempt sent by hand is listed with its answer')
  t.equal(hooks.received.filter(r => JSON.parse(r.body).type === 'card.locked').length, 3)
  t.same(problems, [], 'no script errors')
})
