import t from 'tap'
import { referencedSchemas } from '../../src/http/lazy-compilers.js'
import { buildTestApp, TOKENS } from '../helpers/app.js'

t.test('a response is compiled with the shared schemas it refers to, through one another, and no others', async t => {
  const shared = {
    Card: { $id: 'Card', type: 'object', properties: { shipment: { $ref: 'Shipment' }, owner: { $ref: 'Person#/properties/name' } } },
    Shipment: { $id: 'Shipment', type: 'object', properties: { address: { $ref: 'Address#' }, card: { $ref: 'Card' } } },
    Address: { $id: 'Address', type: 'object' },
    Person: { $id: 'Person', type: 'object', properties: { name: { type: 'string' } } },
    Unused: { $id: 'Unused', type: 'object' }
  }
  t.same(Object.keys(referencedSchemas({ type: 'array', items: { $ref: 'Card' } }, shared)).sort(), ['Address', 'Card', 'Person', 'Shipment'], 'a cycle (Card ↔ Shipment) ends')
  t.same(referencedSchemas({ anyOf: [{ $ref: '#/definitions/local' }, { $ref: 'Nowhere' }] }, shared), {}, 'local and unknown references add nothing')
})

t.test('a nested response (a card, its shipment, the address) serializes in full on its first answer', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('POST', '/baas/debit-cards/card_maya_physical/lock', { token: TOKENS.maya })
  t.equal(res.status, 200)
  t.match(res.body, { id: 'card_maya_physical', status: 'LOCKED', shipment: { status: String, address: { city: String } } }, 'nested shared schemas (the shipment, its address) serialized')
})
