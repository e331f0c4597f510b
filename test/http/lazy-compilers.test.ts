import t from 'tap'
import { referencedSchemas } from '../../src/core/serializers.js'
import { SERIALIZED_AS } from '../../src/core/schemas/index.js'
import { AchScheduledTransfer, InternalScheduledTransfer, ScheduledTransferSerialized } from '../../src/core/schemas/scheduled-transfer.js'
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

t.test('transfer answers are written from one flat schema holding every field of either kind of the documented oneOf, and no other', async t => {
  t.equal(SERIALIZED_AS.ScheduledTransfer, ScheduledTransferSerialized)
  const fieldsOf = (schema: { properties: object }): string[] => Object.keys(schema.properties).sort()
  t.same(fieldsOf(ScheduledTransferSerialized), [...new Set([...fieldsOf(InternalScheduledTransfer), ...fieldsOf(AchScheduledTransfer)])].sort(), 'a field of either kind is never dropped from an answer')
  const ach = new Set<string>(AchScheduledTransfer.required)
  t.same([...ScheduledTransferSerialized.required ?? []].sort(), InternalScheduledTransfer.required.filter(field => ach.has(field)).sort(), 'required: what both kinds require')
})
