import t from 'tap'
import { DEFAULT_SETTINGS } from '../../src/domain/context.js'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'

interface Page { status: number; type: string; headers: Record<string, unknown>; html: string }

/** The page is HTML, not an API answer, so it is fetched directly rather than through the contract-checking `call`. */
async function openPage (app: TestApp['app'], url: string, headers: Record<string, string> = {}): Promise<Page> {
  const { pathname, search } = new URL(url, 'http://localhost')
  const res = await app.inject({ method: 'GET', url: pathname + search, headers })
  return { status: res.statusCode, type: String(res.headers['content-type']), headers: res.headers, html: res.body }
}

/** Path and query of a link, as the page's own script posts to. */
const target = (url: string): string => {
  const { pathname, search } = new URL(url)
  return pathname + search
}

async function pinLink (call: TestApp['call'], cardId: string, token: string, session?: string): Promise<string> {
  const res = await call('POST', `/baas/debit-cards/${cardId}/set-pin-url`, { token, ...(session === undefined ? {} : { session }) })
  if (res.status !== 200) throw new Error(`set-pin-url answered ${res.status}`)
  return res.body.url as string
}

async function cardOf (call: TestApp['call'], id: string, session?: string): Promise<Record<string, unknown> | undefined> {
  const state = (await call('GET', '/__mock/state', session === undefined ? {} : { session })).body
  return (state.debitCards as { id: string }[]).find(c => c.id === id)
}

t.test('set-pin-url → page → PIN set → the link is spent', async t => {
  const { app, call } = await buildTestApp(t)
  const url = await pinLink(call, 'card_jordan_virtual', TOKENS.jordan)

  const page = await openPage(app, url)
  t.equal(page.status, 200)
  t.equal(page.type, 'text/html; charset=utf-8')
  t.match(page.html, /<html lang="en">/)
  t.match(page.html, /<label for="pin">New PIN<\/label>/)
  t.match(page.html, /<input id="pin" name="pin" type="password" inputmode="numeric"[^>]*maxlength="4"[^>]*required/)
  t.match(page.html, /<label for="confirm">Confirm PIN<\/label>/)
  t.match(page.html, /<button type="submit">Set PIN<\/button>/)
  t.match(page.html, /role="status" aria-live="polite"/, 'results are announced to screen readers')
  t.match(page.html, /card ending 0077/)
  t.match(page.html, /15:05 UTC/, 'says when the link expires')
  t.match(page.html, /fetch\(window\.location\.pathname \+ window\.location\.search/, 'posts JSON back to itself')
  t.notMatch(page.html, /\b(src|href)=/, 'no external assets')
  t.match(page.headers['content-security-policy'], /default-src 'none'.*script-src 'sha256-/)
  t.equal(page.headers['cache-control'], 'no-store')
  t.equal(page.headers['referrer-policy'], 'no-referrer')

  const set = await call('POST', target(url), { body: { pin: '2580' } })
  t.equal(set.status, 200)
  t.same(set.body, { cardId: 'card_jordan_virtual', pinStatus: 'SET' })
  t.match(await cardOf(call, 'card_jordan_virtual'), { pinStatus: 'SET', updatedAt: TEST_NOW.toISOString() })
  t.match((await call('GET', '/__mock/state')).body.pinLinks, [{ cardId: 'card_jordan_virtual', usedAt: TEST_NOW.toISOString() }])

  const reopened = await openPage(app, url)
  t.equal(reopened.status, 410)
  t.equal(reopened.type, 'text/html; charset=utf-8')
  t.match(reopened.html, /<h1>This link has already been used<\/h1>/)
  const reused = await call('POST', target(url), { body: { pin: '1357' } })
  t.equal(reused.status, 410)
  t.equal(reused.body.code, 'pin_link_used')
})

t.test('an unknown link is 404: an HTML page, and a problem for the POST', async t => {
  const { app, call } = await buildTestApp(t)
  const page = await openPage(app, '/__mock/pin/notARealToken')
  t.equal(page.status, 404)
  t.equal(page.type, 'text/html; charset=utf-8')
  t.match(page.html, /<h1>This link is not valid<\/h1>/)
  t.match(page.html, /ask for a new link/)
  const res = await call('POST', '/__mock/pin/notARealToken', { body: { pin: '2580' } })
  t.equal(res.status, 404)
  t.equal(res.body.code, 'pin_link_not_found')
})

t.test('a guessable PIN is 422 invalid_pin and the link stays usable', async t => {
  const { call } = await buildTestApp(t)
  const url = await pinLink(call, 'card_jordan_virtual', TOKENS.jordan)
  for (const pin of ['1111', '1234', '4321', '0123']) {
    const res = await call('POST', target(url), { body: { pin } })
    t.equal(res.status, 422, `${pin} is refused`)
    t.match(res.body, { code: 'invalid_pin', errors: [{ pointer: '/pin' }] })
  }
  t.equal((await cardOf(call, 'card_jordan_virtual'))?.pinStatus, 'NOT_SET')
  t.equal((await call('POST', target(url), { body: { pin: '9157' } })).status, 200)
})

t.test('a malformed PIN body is 400 and changes nothing', async t => {
  const { call } = await buildTestApp(t)
  const url = await pinLink(call, 'card_jordan_virtual', TOKENS.jordan)
  for (const body of [{ pin: '12a4' }, { pin: '12345' }, { pin: 2580 }, { pin: '2580', cardId: 'card_maya_virtual' }, {}]) {
    const res = await call('POST', target(url), { body })
    t.equal(res.status, 400, JSON.stringify(body))
    t.equal(res.body.code, 'validation_failed')
  }
  t.equal((await call('POST', target(url))).status, 400, 'no body at all')
  t.equal((await cardOf(call, 'card_jordan_virtual'))?.pinStatus, 'NOT_SET')
  t.notOk((await call('GET', '/__mock/state')).body.pinLinks[0].usedAt, 'the link is not spent')
})

t.test('the link finds its session from ?session= or x-mock-session', async t => {
  const { app, call } = await buildTestApp(t)
  const url = await pinLink(call, 'card_maya_virtual', TOKENS.maya, 'qa-7')
  t.match(url, /\?session=qa-7$/)
  const token = new URL(url).pathname.split('/').pop() ?? ''

  t.equal((await openPage(app, url)).status, 200, 'the link as handed out works in a plain browser')
  t.equal((await openPage(app, `/__mock/pin/${token}`)).status, 404, 'the default session does not know it')
  t.equal((await openPage(app, `/__mock/pin/${token}`, { 'x-mock-session': 'qa-7' })).status, 200, 'the header works too')

  const res = await call('POST', `/__mock/pin/${token}`, { session: 'qa-7', body: { pin: '8024' } })
  t.equal(res.status, 200)
  t.equal((await cardOf(call, 'card_maya_virtual', 'qa-7'))?.pinStatus, 'SET')
  t.equal((await call('GET', '/__mock/state')).body.pinLinks.length, 0, 'the default session is untouched')

  const bad = await call('POST', `/__mock/pin/${token}?session=not%20valid`, { body: { pin: '8024' } })
  t.equal(bad.status, 400)
  t.equal(bad.body.code, 'validation_failed')
})

t.test('an expired link is 410 and sets nothing', async t => {
  // A zero TTL (below what the CLI accepts) makes every link born expired: no clock to move.
  const { app, call } = await buildTestApp(t, { settings: { ...structuredClone(DEFAULT_SETTINGS), pinLinkTtlSeconds: 0 } })
  const url = await pinLink(call, 'card_jordan_virtual', TOKENS.jordan)
  const page = await openPage(app, url)
  t.equal(page.status, 410)
  t.match(page.html, /<h1>This link has expired<\/h1>/)
  const res = await call('POST', target(url), { body: { pin: '2580' } })
  t.equal(res.status, 410)
  t.equal(res.body.code, 'pin_link_expired')
  t.equal((await cardOf(call, 'card_jordan_virtual'))?.pinStatus, 'NOT_SET')
})

t.test('a card closed after the link was made cannot get a PIN (409)', async t => {
  const { app, call } = await buildTestApp(t)
  const url = await pinLink(call, 'card_maya_virtual', TOKENS.maya)
  await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'STOLEN' } })
  const page = await openPage(app, url)
  t.equal(page.status, 409)
  t.match(page.html, /<h1>This card is closed<\/h1>/)
  const res = await call('POST', target(url), { body: { pin: '2580' } })
  t.equal(res.status, 409)
  t.equal(res.body.code, 'card_closed')
})

t.test('the page needs no persona token, even with strict auth: the link is the credential', async t => {
  const { app, call } = await buildTestApp(t, { auth: 'strict' })
  const url = await pinLink(call, 'card_sam_locked', TOKENS.sam)
  t.equal((await openPage(app, url)).status, 200)
  const res = await call('POST', target(url), { body: { pin: '5821' } })
  t.equal(res.status, 200)
  t.equal(res.body.cardId, 'card_sam_locked')
})
