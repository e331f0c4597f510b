import t from 'tap'
import { setupServer } from 'msw/node'
import { createMock } from '../../src/index.js'
import { createHandlers, openMockPage } from '../../src/msw.js'

// The links the mock hands out come back to MSW's handlers in Node (setupServer): the set-PIN link
// is under the app's base URL, its path prefix included, and fetching it gets the page.

for (const baseUrl of ['https://app.example', 'https://app.example/api']) {
  t.test(`through setupServer under ${baseUrl}, the set-PIN link and the dashboard are answered by the mock`, async t => {
    const server = setupServer(...createHandlers({ baseUrl, seed: 1 }))
    server.listen({ onUnhandledRequest: 'error' })
    t.teardown(() => server.close())
    const maya = { authorization: 'Bearer tok_maya', 'x-mock-session': 'links' }

    const answer = await fetch(`${baseUrl}/baas/debit-cards/card_maya_physical/set-pin-url`, { method: 'POST', headers: maya })
    t.equal(answer.status, 200)
    const { url } = await answer.json() as { url: string }
    t.match(url, `${baseUrl}/__mock/pin/`, 'the link is under the base URL, its path included')
    t.match(url, /\?session=links$/, 'and names the session, which a browser opening it would not send')

    const page = await fetch(url)
    t.equal(page.status, 200, 'the link is answered by the handlers')
    t.match(page.headers.get('content-type'), /^text\/html/)
    t.match(await page.text(), 'Set your card PIN')

    const set = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: '2580' }) })
    t.same(await set.json(), { cardId: 'card_maya_physical', pinStatus: 'SET' }, 'what the page submits sets the PIN')
    t.equal((await fetch(url)).status, 410, 'and spends the link')

    const dashboard = await fetch(`${baseUrl}/__mock/ui`)
    t.equal(dashboard.url, `${baseUrl}/__mock/ui/`, 'the dashboard redirects to its folder under the base URL')
    t.match(await dashboard.text(), '<title>baas-mock dashboard</title>')
  })
}

t.test('mock.fetch, as the server, puts X-Forwarded-Prefix in the links it hands out, and ignores one that is not a path', async t => {
  const mock = await createMock({ seed: 1 })
  t.teardown(() => mock.close())
  const link = async (prefix: string): Promise<string> => {
    const res = await mock.fetch('https://bank.example/baas/debit-cards/card_maya_physical/set-pin-url', { method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-forwarded-prefix': prefix } })
    return (await res.json() as { url: string }).url
  }
  t.match(await link('/bank/, /other'), /^https:\/\/bank\.example\/bank\/__mock\/pin\//, 'the first value, without its trailing slash')
  t.match(await link('not a path'), /^https:\/\/bank\.example\/__mock\/pin\//, 'junk is left out')
})

t.test('openMockPage in Node says to fetch the URL instead', async t => {
  await t.rejects(openMockPage('https://app.example/__mock/ui'), /in Node, fetch the URL through MSW instead/)
})
