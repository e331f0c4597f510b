import t from 'tap'
import { referencedSchemas } from '../../src/transports/fastify/lazy-compilers.js'
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

t.test('a response that refers to a shared schema through another (transfer list → transfer) serializes in full', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/baas/scheduled-transfers', { token: TOKENS.maya })
  t.equal(res.status, 200)
  t.ok(res.body.data.length > 0, 'Maya has scheduled transfers')
  t.match(res.body.data[0], { id: String, status: String, frequency: String, amount: Number }, 'each item has the transfer\'s fields')
})
