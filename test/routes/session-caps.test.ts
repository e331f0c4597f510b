import t from 'tap'
import { DEFAULT_SETTINGS, type DomainSettings } from '../../src/domain/context.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'

/**
 * What a client can multiply in one session is capped (issue 28): set-PIN links, cards from
 * chained reissues, phone numbers sent codes. Past a cap the answer is a problem naming the setting
 * and its value, and nothing changes; superseded and spent entries make room on a frozen clock
 * (every test world's clock is frozen at TEST_NOW).
 */
function settings (over: Partial<DomainSettings>, verification: Partial<DomainSettings['verification']> = {}): DomainSettings {
  const base = structuredClone(DEFAULT_SETTINGS)
  return { ...base, ...over, verification: { ...base.verification, ...verification } }
}

async function state (call: TestApp['call']): Promise<Record<string, unknown[]>> {
  return (await call('GET', '/__mock/state')).body
}

const cardsOf = async (call: TestApp['call'], customerId: string): Promise<unknown[]> =>
  (await state(call)).debitCards?.filter(card => (card as { customerId: string }).customerId === customerId) ?? []

t.test('a chain of reissues stops at 50 cards per customer, closed ones included: 409 too_many_cards, nothing changes', async t => {
  const { call } = await buildTestApp(t)
  let cardId = 'card_maya_virtual'
  let issued = 0
  // Bounded, so code without the cap fails here instead of reissuing for ever.
  while (issued < 60) {
    const res = await call('POST', `/baas/debit-cards/${cardId}/reissue`, { token: TOKENS.maya, body: { reason: 'DAMAGED' } })
    if (res.status !== 201) break
    cardId = res.body.id
    issued++
  }
  t.equal(issued, 48, 'Maya starts with 2 cards: 48 replacements reach the default cap of 50')
  const before = await state(call)
  const refused = await call('POST', `/baas/debit-cards/${cardId}/reissue`, { token: TOKENS.maya, body: { reason: 'LOST' } })
  t.equal(refused.status, 409)
  t.match(refused.body, { code: 'too_many_cards', limit: 'maxCardsPerCustomer', max: 50, detail: /holds 50 cards, closed ones included/ })
  t.same(await state(call), before, 'the card is still open and nothing was issued')
  t.equal((await cardsOf(call, 'cus_maya')).length, 50)
  const closed = (await cardsOf(call, 'cus_maya')).filter(card => (card as { status: string }).status === 'CLOSED')
  t.equal(closed.length, 48, 'every closed card of the chain stays readable')
})

t.test('a physical card request past the cap is 409 too; the open one is still answered', async t => {
  const { call } = await buildTestApp(t, { settings: settings({ maxCardsPerCustomer: 1 }) })
  const refused = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: {} })
  t.equal(refused.status, 409)
  t.match(refused.body, { code: 'too_many_cards', limit: 'maxCardsPerCustomer', max: 1 })
  t.equal((await cardsOf(call, 'cus_jordan')).length, 1)
  t.equal((await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.maya, body: {} })).status, 200, 'Maya\'s open physical card, over the cap or not')
})

t.test('a new set-PIN link for a card supersedes the earlier one, on a frozen clock', async t => {
  const { call } = await buildTestApp(t)
  const tokens: string[] = []
  for (let i = 0; i < 150; i++) {
    const res = await call('POST', '/baas/debit-cards/card_maya_virtual/set-pin-url', { token: TOKENS.maya })
    t.equal(res.status, 200)
    tokens.push(new URL(res.body.url).pathname.split('/').at(-1) ?? '')
  }
  t.same((await state(call)).pinLinks?.map(link => (link as { token: string }).token), [tokens.at(-1)], 'only the newest link is kept')
  const old = await call('POST', `/__mock/pin/${tokens[0]}`, { body: { pin: '2580' } })
  t.equal(old.status, 404)
  t.match(old.body, { code: 'pin_link_not_found', detail: /a newer link for its card replaces it/ })
  t.equal((await call('POST', `/__mock/pin/${tokens.at(-1)}`, { body: { pin: '2580' } })).status, 200, 'the newest one works')
})

t.test('past --max-pin-links a spent link makes room; with every link live the request is 409 and changes nothing', async t => {
  const { call } = await buildTestApp(t, { settings: settings({ maxPinLinks: 2 }) })
  const link = async (cardId: string, token: string): Promise<{ status: number; body: any }> => // eslint-disable-line @typescript-eslint/no-explicit-any -- problem or link
    await call('POST', `/baas/debit-cards/${cardId}/set-pin-url`, { token })
  const first = await link('card_maya_virtual', TOKENS.maya)
  t.equal((await link('card_maya_physical', TOKENS.maya)).status, 200)
  const before = await state(call)
  const refused = await link('card_jordan_virtual', TOKENS.jordan)
  t.equal(refused.status, 409)
  t.match(refused.body, { code: 'too_many_pin_links', limit: 'maxPinLinks', max: 2, detail: /2 of them can still be used/ })
  t.same(await state(call), before, 'nothing changed')

  t.equal((await call('POST', new URL(first.body.url).pathname, { body: { pin: '2580' } })).status, 200, 'one link is used')
  t.equal((await link('card_jordan_virtual', TOKENS.jordan)).status, 200, 'the used link made room')
  t.same((await state(call)).pinLinks?.map(l => (l as { cardId: string }).cardId), ['card_maya_physical', 'card_jordan_virtual'])
})

t.test('codes to more than 20 numbers: numbers with no pending code make room, else 429 too_many_verifications', async t => {
  const { call } = await buildTestApp(t, { settings: settings({}, { fixedCode: '123456' }) })
  const send = async (phone: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> => // eslint-disable-line @typescript-eslint/no-explicit-any -- problem or result
    await call('POST', '/mfa/send-code', { token: TOKENS.maya, body: { phone } })
  const number = (i: number): string => `+1415555${String(1000 + i)}`
  for (let i = 0; i < 20; i++) t.equal((await send(number(i))).status, 202, `number ${i}`)
  const before = await state(call)
  const refused = await send(number(20))
  t.equal(refused.status, 429)
  t.match(refused.body, { code: 'too_many_verifications', limit: 'maxVerifications', max: 20, retryAfterSeconds: 600 })
  t.equal(refused.headers['retry-after'], '600', 'until the first pending code expires on the session clock')
  t.same(await state(call), before, 'no code sent, nothing kept')

  t.equal((await send(number(0))).status, 429, 'a number already tracked is held to its own limits (the resend cool-down)')
  t.equal((await call('POST', '/mfa/verify', { token: TOKENS.maya, body: { phone: number(3), code: '123456' } })).status, 200, 'one number is approved')
  t.equal((await send(number(20))).status, 202, 'its place is taken by the new number')
  const phones = (await state(call)).phoneVerifications?.map(v => (v as { phone: string }).phone) ?? []
  t.equal(phones.length, 20)
  t.notOk(phones.includes(number(3)))
  t.equal((await send(number(3))).status, 429, 'the approved number, forgotten, is a new number again: no room for it')
})

t.test('a link whose card closed, or that expired, makes room as a used one does', async t => {
  const { call } = await buildTestApp(t, { settings: settings({ maxPinLinks: 1, pinLinkTtlSeconds: 60 }) })
  const link = async (cardId: string, token: string): Promise<number> => (await call('POST', `/baas/debit-cards/${cardId}/set-pin-url`, { token })).status
  t.equal(await link('card_maya_virtual', TOKENS.maya), 200)
  t.equal(await link('card_jordan_virtual', TOKENS.jordan), 409, 'the one link is live')
  t.equal((await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'STOLEN' } })).status, 201)
  t.equal(await link('card_jordan_virtual', TOKENS.jordan), 200, 'the closed card\'s link made room')
  t.equal(await link('card_maya_physical', TOKENS.maya), 409)
  t.equal((await call('POST', '/__mock/clock/advance', { body: { by: 'PT61S' } })).status, 200)
  t.equal(await link('card_maya_physical', TOKENS.maya), 200, 'the expired link made room')
  t.same((await state(call)).pinLinks?.map(l => (l as { cardId: string }).cardId), ['card_maya_physical'])
})
