import t from 'tap'
import { createMock } from '../../src/index.js'
import { customerByTokenHash, hashToken } from '../../src/core/token-hash.js'

const customer = (id: string, extra: string): string => `- id: ${id}
  tokens: []${extra}
  firstName: A
  lastName: B
  dateOfBirth: "1990-01-01"
  email: ${id}@example.com
  phone: "+14155550100"
  address: { line1: 1 Market St, city: San Francisco, state: CA, postalCode: "94105", country: US }
  ssnLast4: "0000"
`

t.test('a hashed token selects its customer; the hash itself selects nobody', async t => {
  const hash = hashToken('tok_secret_1', 'salt_1234')
  t.match(hash, /^sha256:salt_1234:[0-9a-f]{64}$/)
  t.not(hashToken('tok_secret_1', 'salt_5678'), hash, 'the salt changes the hash')
  const mock = await createMock({
    fixtures: { 'customers.yaml': customer('cus_one', '\n  default: true') + customer('cus_two', `\n  tokenHashes: ["${hash}"]`) }
  })
  t.teardown(mock.close)
  const read = async (token: string): Promise<unknown> => ((await (await mock.fetch('/baas/customers', { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }).id
  t.equal(await read('tok_secret_1'), 'cus_two')
  t.equal(await read(hash), 'cus_one', 'sending the hash is not sending the token: the default persona answers')
  t.equal(await read('tok_other'), 'cus_one')
  t.same((await mock.session().journal.list({ order: 'asc' })).map(e => e.persona), [
    { customerId: 'cus_two', via: 'token-hash' }, { customerId: 'cus_one', via: 'default' }, { customerId: 'cus_one', via: 'default' }
  ], 'the journal says which persona answered, and how it was chosen')
  t.equal(customerByTokenHash(new Map([['plain', 'cus_x']]), 'plain'), undefined, 'only hashed entries are searched')
})

t.test('a malformed token hash fails the fixture check', async t => {
  await t.rejects(createMock({ fixtures: { 'customers.yaml': customer('cus_one', '\n  tokenHashes: ["md5:abc"]') } }), /customers\.yaml at \/0\/tokenHashes\/0/)
})
