import t from 'tap'
import { buildTestApp, TEST_NOW, TOKENS, type TestApp } from '../helpers/app.js'

const NOW = TEST_NOW.toISOString()
const mayaAddress = { line1: '500 Howard St', line2: 'Apt 4B', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }
const elsewhere = { line1: '1 Main St', city: 'Boston', state: 'MA', postalCode: '02108', country: 'US' }

interface Card { id: string; customerId: string; form: string; status: string; [field: string]: unknown }

async function cards (call: TestApp['call'], session?: string): Promise<Card[]> {
  const res = await call('GET', '/__mock/state', session === undefined ? {} : { session })
  return res.body.debitCards as Card[]
}

async function cardById (call: TestApp['call'], id: string): Promise<Card | undefined> {
  return (await cards(call)).find(c => c.id === id)
}

t.test('lock: ACTIVE → LOCKED, then locking again changes nothing', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya })
  t.equal(res.status, 200)
  t.match(res.body, { id: 'card_maya_virtual', status: 'LOCKED', lockedAt: NOW, updatedAt: NOW, maskedPan: '411111******4242', last4: '4242' })
  t.match(await cardById(call, 'card_maya_virtual'), { status: 'LOCKED', lockedAt: NOW })

  const again = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.maya, body: {} })
  t.equal(again.status, 200)
  t.same(again.body, res.body, 'idempotent: the same card, unchanged')
})

t.test('unlock: LOCKED → ACTIVE clears lockedAt, then unlocking again changes nothing', async t => {
  const { call } = await buildTestApp(t)
  t.match(await cardById(call, 'card_sam_locked'), { status: 'LOCKED', lockedAt: '2026-11-21T15:00:00.000Z' })
  const res = await call('PUT', '/baas/debit-cards/card_sam_locked/unlock', { token: TOKENS.sam })
  t.equal(res.status, 200)
  t.match(res.body, { id: 'card_sam_locked', status: 'ACTIVE', updatedAt: NOW })
  t.notOk('lockedAt' in res.body)
  const stored = await cardById(call, 'card_sam_locked')
  t.equal(stored?.status, 'ACTIVE')
  t.notOk(stored !== undefined && 'lockedAt' in stored, 'lockedAt is gone from the state too')

  const again = await call('PUT', '/baas/debit-cards/card_sam_locked/unlock', { token: TOKENS.sam })
  t.equal(again.status, 200)
  t.same(again.body, res.body)
})

t.test('lock and unlock round-trip', async t => {
  const { call } = await buildTestApp(t)
  await call('POST', '/baas/debit-cards/card_maya_physical/lock', { token: TOKENS.maya })
  const unlocked = await call('PUT', '/baas/debit-cards/card_maya_physical/unlock', { token: TOKENS.maya })
  t.equal(unlocked.body.status, 'ACTIVE')
})

t.test('a CLOSED card refuses everything with 409 card_closed and stays as it was', async t => {
  const { call } = await buildTestApp(t)
  const before = await cardById(call, 'card_sam_lost')
  const attempts = [
    await call('POST', '/baas/debit-cards/card_sam_lost/lock', { token: TOKENS.sam }),
    await call('PUT', '/baas/debit-cards/card_sam_lost/unlock', { token: TOKENS.sam }),
    await call('POST', '/baas/debit-cards/card_sam_lost/reissue', { token: TOKENS.sam, body: { reason: 'DAMAGED' } }),
    await call('POST', '/baas/debit-cards/card_sam_lost/set-pin-url', { token: TOKENS.sam })
  ]
  for (const res of attempts) {
    t.equal(res.status, 409)
    t.equal(res.body.code, 'card_closed')
  }
  t.same(await cardById(call, 'card_sam_lost'), before)
})

t.test('a PENDING_ACTIVATION card can be neither locked nor unlocked (409 invalid_card_state)', async t => {
  const { call } = await buildTestApp(t)
  const lock = await call('POST', '/baas/debit-cards/card_sam_replacement/lock', { token: TOKENS.sam })
  t.equal(lock.status, 409)
  t.match(lock.body, { code: 'invalid_card_state', cardStatus: 'PENDING_ACTIVATION' })
  const unlock = await call('PUT', '/baas/debit-cards/card_sam_replacement/unlock', { token: TOKENS.sam })
  t.equal(unlock.status, 409)
  t.equal(unlock.body.code, 'invalid_card_state')
  t.equal((await cardById(call, 'card_sam_replacement'))?.status, 'PENDING_ACTIVATION')
})

t.test('another customer\'s card and an unknown id are both 404 card_not_found, and nothing changes', async t => {
  const { call } = await buildTestApp(t)
  const foreign = await call('POST', '/baas/debit-cards/card_maya_virtual/lock', { token: TOKENS.sam })
  const unknown = await call('POST', '/baas/debit-cards/card_does_not_exist/lock', { token: TOKENS.sam })
  for (const res of [foreign, unknown]) {
    t.equal(res.status, 404)
    t.equal(res.body.code, 'card_not_found')
  }
  t.equal(foreign.body.detail.replace('card_maya_virtual', 'X'), unknown.body.detail.replace('card_does_not_exist', 'X'), 'the two answers cannot be told apart')
  for (const [method, action] of [['PUT', 'unlock'], ['POST', 'reissue'], ['POST', 'set-pin-url']] as const) {
    const res = await call(method, `/baas/debit-cards/card_sam_locked/${action}`, { token: TOKENS.maya, ...(action === 'reissue' ? { body: { reason: 'LOST' } } : {}) })
    t.equal(res.status, 404, `${action} of another customer's card`)
  }
  t.equal((await cardById(call, 'card_maya_virtual'))?.status, 'ACTIVE')
  t.equal((await cardById(call, 'card_sam_locked'))?.status, 'LOCKED')
  t.equal((await cards(call)).length, 7, 'no card was issued')
})

t.test('a FROZEN customer can change none of their cards (409 customer_not_writable)', async t => {
  const { call } = await buildTestApp(t)
  const attempts = [
    await call('POST', '/baas/debit-cards/card_riley_virtual/lock', { token: TOKENS.riley }),
    await call('PUT', '/baas/debit-cards/card_riley_virtual/unlock', { token: TOKENS.riley }),
    await call('POST', '/baas/debit-cards/card_riley_virtual/reissue', { token: TOKENS.riley, body: { reason: 'STOLEN' } }),
    await call('POST', '/baas/debit-cards/card_riley_virtual/set-pin-url', { token: TOKENS.riley }),
    await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.riley, body: {} })
  ]
  for (const res of attempts) {
    t.equal(res.status, 409)
    t.equal(res.body.code, 'customer_not_writable')
  }
  const after = await cards(call)
  t.same(after.filter(c => c.customerId === 'cus_riley').map(c => [c.id, c.status]), [['card_riley_virtual', 'ACTIVE']])
  t.equal((await call('GET', '/__mock/state')).body.pinLinks.length, 0)
})

t.test('reissue DAMAGED of a physical card: same number, new expiry, shipped, old card REPLACED', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_physical/reissue', { token: TOKENS.maya, body: { reason: 'DAMAGED' } })
  t.equal(res.status, 201)
  const replacement = res.body
  t.not(replacement.id, 'card_maya_physical')
  t.match(replacement, {
    customerId: 'cus_maya',
    accountId: 'acct_maya_checking',
    form: 'PHYSICAL',
    network: 'VISA',
    last4: '1881',
    maskedPan: '411111******1881',
    expirationMonth: 11,
    expirationYear: 2030,
    status: 'PENDING_ACTIVATION',
    pinStatus: 'SET',
    replacementFor: 'card_maya_physical',
    shipment: { status: 'ORDERED', method: 'STANDARD', trackingNumber: null, eta: '2026-12-01', address: mayaAddress, orderedAt: NOW },
    createdAt: NOW
  })
  t.match(await cardById(call, 'card_maya_physical'), { status: 'CLOSED', closedReason: 'REPLACED', replacedBy: replacement.id, updatedAt: NOW })
  t.match(await cardById(call, replacement.id), { status: 'PENDING_ACTIVATION' })

  const twice = await call('POST', '/baas/debit-cards/card_maya_physical/reissue', { token: TOKENS.maya, body: { reason: 'DAMAGED' } })
  t.equal(twice.status, 409, 'the old card is closed now')
  t.equal(twice.body.code, 'card_closed')
})

t.test('reissue EXPIRED keeps the number with a new expiry', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'EXPIRED' } })
  t.equal(res.status, 201)
  t.match(res.body, { last4: '4242', maskedPan: '411111******4242', expirationMonth: 11, expirationYear: 2030, status: 'ACTIVE', pinStatus: 'SET' })
  t.match(await cardById(call, 'card_maya_virtual'), { status: 'CLOSED', closedReason: 'REPLACED', replacedBy: res.body.id })
})

t.test('reissue LOST of a virtual card: new number, ACTIVE at once, no PIN, no shipment', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'LOST' } })
  t.equal(res.status, 201)
  t.match(res.body, { form: 'VIRTUAL', status: 'ACTIVE', pinStatus: 'NOT_SET', replacementFor: 'card_maya_virtual', accountId: 'acct_maya_checking' })
  t.not(res.body.last4, '4242')
  t.equal(res.body.maskedPan, `411111******${res.body.last4}`)
  t.notOk('shipment' in res.body)
  t.match(await cardById(call, 'card_maya_virtual'), { status: 'CLOSED', closedReason: 'LOST', replacedBy: res.body.id })
})

t.test('reissue STOLEN of a LOCKED card, shipped EXPRESS to another address', async t => {
  const { call } = await buildTestApp(t)
  const { body: physical } = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: {} })
  await call('POST', `/baas/debit-cards/${physical.id}/set-pin-url`, { token: TOKENS.jordan })
  const res = await call('POST', `/baas/debit-cards/${physical.id}/reissue`, {
    token: TOKENS.jordan, body: { reason: 'STOLEN', shippingAddress: elsewhere, shippingMethod: 'EXPRESS' }
  })
  t.equal(res.status, 201)
  t.match(res.body, { status: 'PENDING_ACTIVATION', pinStatus: 'NOT_SET', shipment: { status: 'ORDERED', method: 'EXPRESS', eta: '2026-11-25', address: elsewhere } })
  t.not(res.body.last4, physical.last4)
  t.match(await cardById(call, physical.id), { status: 'CLOSED', closedReason: 'STOLEN', replacedBy: res.body.id })

  const locked = await call('POST', '/baas/debit-cards/card_sam_locked/reissue', { token: TOKENS.sam, body: { reason: 'STOLEN' } })
  t.equal(locked.status, 201, 'a LOCKED card can be reissued')
  t.equal(locked.body.status, 'ACTIVE', 'the replacement is not locked')
  const old = await cardById(call, 'card_sam_locked')
  t.match(old, { status: 'CLOSED', closedReason: 'STOLEN' })
  t.notOk(old !== undefined && 'lockedAt' in old, 'a closed card is no longer locked')
})

t.test('reissue of a PENDING_ACTIVATION card replaces it', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_sam_replacement/reissue', { token: TOKENS.sam, body: { reason: 'LOST' } })
  t.equal(res.status, 201)
  t.match(res.body, { network: 'MASTERCARD', maskedPan: /^535522\*{6}\d{4}$/, status: 'PENDING_ACTIVATION', replacementFor: 'card_sam_replacement' })
  t.match(res.body.shipment.address, { line1: '233 S Wacker Dr', city: 'Chicago' }, 'the address on file by default')
  t.match(await cardById(call, 'card_sam_replacement'), { status: 'CLOSED', closedReason: 'LOST', replacedBy: res.body.id })
})

t.test('bad reissue requests are refused and change nothing', async t => {
  const { call } = await buildTestApp(t)
  const before = await cards(call)
  const noReason = await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: {} })
  t.equal(noReason.status, 400)
  t.same(noReason.body.errors.map((e: { pointer: string }) => e.pointer), ['/reason'])
  const badReason = await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'BORED', color: 'red' } })
  t.equal(badReason.status, 400)
  t.same(badReason.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/color', '/reason'])
  const badAddress = await call('POST', '/baas/debit-cards/card_maya_physical/reissue', { token: TOKENS.maya, body: { reason: 'LOST', shippingAddress: { ...elsewhere, postalCode: '2108' } } })
  t.equal(badAddress.status, 400)
  t.same(badAddress.body.errors.map((e: { pointer: string }) => e.pointer), ['/shippingAddress/postalCode'])
  const virtualShipped = await call('POST', '/baas/debit-cards/card_maya_virtual/reissue', { token: TOKENS.maya, body: { reason: 'DAMAGED', shippingMethod: 'EXPRESS' } })
  t.equal(virtualShipped.status, 422, 'a virtual card is not shipped')
  t.match(virtualShipped.body, { code: 'invalid_field', errors: [{ pointer: '/shippingMethod' }] })
  t.same(await cards(call), before)
})

t.test('physical card request: 201 with a new card, then 200 with the same one', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: {} })
  t.equal(res.status, 201)
  t.match(res.body, {
    id: /^card_/,
    customerId: 'cus_jordan',
    accountId: 'acct_jordan_checking',
    form: 'PHYSICAL',
    network: 'VISA',
    maskedPan: /^411111\*{6}\d{4}$/,
    expirationMonth: 11,
    expirationYear: 2030,
    status: 'PENDING_ACTIVATION',
    pinStatus: 'NOT_SET',
    shipment: {
      status: 'ORDERED', method: 'STANDARD', trackingNumber: null, eta: '2026-12-01', orderedAt: NOW,
      address: { line1: '88 Bedford Ave', city: 'Brooklyn', state: 'NY', postalCode: '11211-3104', country: 'US' }
    }
  })
  t.not(res.body.last4, '0077', 'a different number from the virtual card')

  const again = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: { shippingMethod: 'PRIORITY', shippingAddress: elsewhere } })
  t.equal(again.status, 200)
  t.same(again.body, res.body, 'the existing card; a different body does not reorder it')
  const jordans = (await cards(call)).filter(c => c.customerId === 'cus_jordan' && c.form === 'PHYSICAL')
  t.equal(jordans.length, 1)
})

t.test('physical card request with an address and a method', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: { shippingAddress: elsewhere, shippingMethod: 'PRIORITY' } })
  t.equal(res.status, 201)
  t.match(res.body.shipment, { method: 'PRIORITY', eta: '2026-11-24', address: elsewhere })
})

t.test('physical card request answers an open physical card the customer already has', async t => {
  const { call } = await buildTestApp(t)
  const maya = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.maya })
  t.equal(maya.status, 200)
  t.equal(maya.body.id, 'card_maya_physical')
  const sam = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.sam, body: {} })
  t.equal(sam.status, 200)
  t.equal(sam.body.id, 'card_sam_replacement', 'a PENDING_ACTIVATION card counts; the CLOSED one does not')

  const lost = await call('POST', '/baas/debit-cards/card_maya_physical/reissue', { token: TOKENS.maya, body: { reason: 'LOST' } })
  const afterReissue = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.maya })
  t.equal(afterReissue.status, 200)
  t.equal(afterReissue.body.id, lost.body.id, 'the replacement is the open physical card now')
})

t.test('invalid physical card requests are 400 and issue nothing', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: { shippingMethod: 'DRONE', giftWrap: true } })
  t.equal(res.status, 400)
  t.same(res.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/giftWrap', '/shippingMethod'])
  const wrongState = await call('PUT', '/baas/debit-cards/physical', { token: TOKENS.jordan, body: { shippingAddress: { ...elsewhere, state: 'ZZ' } } })
  t.equal(wrongState.status, 400)
  t.equal((await cards(call)).filter(c => c.customerId === 'cus_jordan').length, 1)
})

t.test('set-pin-url: a single-use link to the PIN page, valid 5 minutes', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_jordan_virtual/set-pin-url', { token: TOKENS.jordan })
  t.equal(res.status, 200)
  t.equal(res.body.expiresAt, '2026-11-23T15:05:00.000Z')
  t.match(res.body.url, /^http:\/\/localhost(:\d+)?\/__mock\/pin\/[A-Za-z0-9]{32}$/, 'the default session needs no query')
  const token = new URL(res.body.url).pathname.split('/').pop()
  const state = (await call('GET', '/__mock/state')).body
  t.match(state.pinLinks, [{ token, cardId: 'card_jordan_virtual', customerId: 'cus_jordan', expiresAt: '2026-11-23T15:05:00.000Z' }])

  const locked = await call('POST', '/baas/debit-cards/card_sam_locked/set-pin-url', { token: TOKENS.sam })
  t.equal(locked.status, 200, 'a LOCKED card can get a PIN')
  const pending = await call('POST', '/baas/debit-cards/card_sam_replacement/set-pin-url', { token: TOKENS.sam })
  t.equal(pending.status, 200, 'so can a card on its way')
})

t.test('set-pin-url carries a non-default session and honours the public URL', async t => {
  const { call } = await buildTestApp(t, { publicUrl: 'https://mock.example.com/bank/' })
  const res = await call('POST', '/baas/debit-cards/card_maya_virtual/set-pin-url', { token: TOKENS.maya, session: 'qa:run-7' })
  t.match(res.body.url, /^https:\/\/mock\.example\.com\/bank\/__mock\/pin\/[A-Za-z0-9]{32}\?session=qa%3Arun-7$/)
  t.equal((await call('GET', '/__mock/state', { session: 'qa:run-7' })).body.pinLinks.length, 1)
  t.equal((await call('GET', '/__mock/state')).body.pinLinks.length, 0, 'the default session has no link')
})
