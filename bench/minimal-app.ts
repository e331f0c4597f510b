import Fastify from 'fastify'

/**
 * The practical ceiling: a bare Fastify app answering the same JSON with no validation,
 * sessions, journal or logging. The mock is measured against this on the same machine.
 */
const customer = {
  id: 'cus_maya', firstName: 'Maya', lastName: 'Chen', dateOfBirth: '1988-04-12', email: 'maya.chen@example.com',
  phone: '+14155550123', phoneVerified: true,
  address: { line1: '500 Howard St', line2: 'Apt 4B', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  ssnLast4: '4821', status: 'ACTIVE', createdAt: '2024-02-03T17:20:00.000Z', updatedAt: '2025-06-01T09:00:00.000Z'
}
const card = {
  id: 'card_maya_virtual', customerId: 'cus_maya', accountId: 'acct_maya_checking', form: 'VIRTUAL', network: 'VISA', last4: '4242',
  maskedPan: '411111******4242', expirationMonth: 9, expirationYear: 2029, status: 'ACTIVE', pinStatus: 'SET',
  createdAt: '2024-02-03T17:25:00.000Z', updatedAt: '2024-02-03T17:25:00.000Z'
}

const app = Fastify()
app.get('/baas/customers', async () => customer)
app.post('/baas/debit-cards/:cardId/lock', async () => ({ ...card, status: 'LOCKED' }))
app.put('/baas/debit-cards/:cardId/unlock', async () => card)
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
console.log(`listening at http://127.0.0.1:${(app.server.address() as { port: number }).port}`)
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => { void app.close().then(() => process.exit(0)) })
