import type { Static } from 'typebox'
import { Value } from 'typebox/value'
import { Address } from '../core/schemas/common.js'
import { OPERATIONS_BY_ID } from '../core/operations.js'
import { bearerToken } from '../core/persona.js'
import { hashToken } from '../core/token-hash.js'
import type { FieldSpec } from '../dialect/schema.js'
import type { FixtureCustomer, FixtureDebitCard, FixtureStatement } from '../fixtures/schemas.js'
import type { FixtureSet } from '../fixtures/loader.js'
import type { Exchange } from './exchange.js'
import { MADE_UP_CUSTOMER_ID, type LearnedShape } from './learn-shape.js'
import type { Notes } from './notes.js'
import type { Json } from './pointer.js'

type Customer = Static<typeof FixtureCustomer>
type Card = Static<typeof FixtureDebitCard>
type Statement = Static<typeof FixtureStatement>

const ID = /^[A-Za-z0-9_-]{1,64}$/

/** The mock's value of a field, read back from a resource the backend showed, through the learned shape. */
function mockValue (learned: LearnedShape | undefined, fields: ReadonlyMap<string, Json>, mockPointer: string): Json | undefined {
  if (learned === undefined) return undefined
  for (const [teamPointer, spec] of Object.entries(learned.shape.fields) as Array<[string, FieldSpec]>) {
    const from = typeof spec === 'string' ? spec : spec.from
    if (from !== mockPointer || !fields.has(teamPointer)) continue
    const value = fields.get(teamPointer) as Json
    if (typeof spec === 'string' || spec.values === undefined) return value
    return Object.entries(spec.values).find(([, theirs]) => theirs === value)?.[0]
  }
  return undefined
}

/** The customer's address, when the shape bound one with every part the mock needs. */
function learnedAddress (learned: LearnedShape | undefined, fields: ReadonlyMap<string, Json>): Customer['address'] | undefined {
  const part = (name: string): string | undefined => {
    const value = mockValue(learned, fields, `/address/${name}`)
    return typeof value === 'string' ? value : undefined
  }
  const [line1, city, state, postalCode, country, line2] = ['line1', 'city', 'state', 'postalCode', 'country', 'line2'].map(part)
  if (line1 === undefined || city === undefined || state === undefined || postalCode === undefined || country !== 'US') return undefined
  const address = { line1, ...line2 === undefined ? {} : { line2 }, city, state, postalCode, country }
  // A guess the mock's Address refuses (not a US state) would stop the fixtures loading: the made-up address instead.
  return Value.Check(Address, address) ? address as Customer['address'] : undefined
}

/** The last sighting of each entity, in the order first seen. */
function lastById (learned: LearnedShape | undefined): Map<string, ReadonlyMap<string, Json>> {
  const byId = new Map<string, ReadonlyMap<string, Json>>()
  for (const s of learned?.sightings ?? []) if (s.id !== undefined) byId.set(s.id, s.fields)
  return byId
}

export interface LearnedWorld {
  fixtures: FixtureSet
}

/**
 * A world from the entities seen, each in its last state, with what the mock needs but the backend
 * did not show made up (and listed): so an entity seen once works with every operation.
 */
export function learnWorld (exchanges: readonly Exchange[], shapes: ReadonlyMap<string, LearnedShape>, salt: string, notes: Notes, now = new Date()): LearnedWorld {
  const fixtures: FixtureSet = { customers: [], accounts: [], 'debit-cards': [], statements: [], 'scheduled-transfers': [] }
  const customerShape = shapes.get('Customer')
  const made = new Set<string>()
  for (const [id, fields] of lastById(customerShape)) {
    if (!ID.test(id)) {
      notes.edit.push(`Customer ${id}: the id is not one the mock's fixtures take (letters, digits, _ and -); left out of the world`)
      continue
    }
    const email = mockValue(customerShape, fields, '/email')
    const phone = mockValue(customerShape, fields, '/phone')
    const text = (pointer: string): string | undefined => {
      const value = mockValue(customerShape, fields, pointer)
      return typeof value === 'string' ? value : undefined
    }
    const [firstName, lastName, dateOfBirth] = [text('/firstName'), text('/lastName'), text('/dateOfBirth')]
    const customer: Customer = {
      id,
      tokens: [],
      firstName: firstName ?? 'Recorded',
      lastName: lastName ?? 'Customer',
      dateOfBirth: dateOfBirth ?? '1990-01-01',
      email: typeof email === 'string' ? email : 'customer@example.com',
      phone: typeof phone === 'string' ? phone : '+14155550100',
      address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      ssnLast4: '0000'
    }
    const address = learnedAddress(customerShape, fields)
    if (address !== undefined) customer.address = address
    for (const field of [...firstName === undefined ? ['firstName'] : [], ...lastName === undefined ? ['lastName'] : [], ...dateOfBirth === undefined ? ['dateOfBirth'] : [], ...address === undefined ? ['address'] : [], 'ssnLast4', ...email === undefined ? ['email'] : [], ...phone === undefined ? ['phone'] : []]) made.add(field)
    fixtures.customers.push(customer)
  }
  if (made.size > 0) notes.guessed.push(`customers.yaml: ${[...made].join(', ')} made up (the backend did not show them; the mock needs them)`)
  if (fixtures.customers.length === 0) {
    fixtures.customers.push({
      id: MADE_UP_CUSTOMER_ID, tokens: [], firstName: 'Recorded', lastName: 'Customer', dateOfBirth: '1990-01-01', email: 'customer@example.com',
      phone: '+14155550100', address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }, ssnLast4: '0000'
    })
    notes.guessed.push(`customers.yaml: no customer was read in the recording; ${MADE_UP_CUSTOMER_ID} is made up to own the cards`)
  }
  const owner = fixtures.customers[0] as Customer
  owner.default = true

  // Tokens: each selects the customer its request read, else the default persona; kept only hashed.
  const tokenOwner = new Map<string, string>()
  for (const [index, exchange] of exchanges.entries()) {
    const token = bearerToken(exchange.request.headers.authorization)
    if (token === undefined) continue
    const read = customerShape?.sightings.find(s => s.index === index)?.id
    if (read !== undefined || !tokenOwner.has(token)) tokenOwner.set(token, read ?? owner.id)
  }
  for (const [token, id] of tokenOwner) {
    const customer = fixtures.customers.find(c => c.id === id) ?? owner
    customer.tokenHashes = [...customer.tokenHashes ?? [], hashToken(token, salt)]
  }
  if (tokenOwner.size > 0) notes.learned.push(`personas: ${tokenOwner.size} bearer token(s) seen, kept as salted hashes (tokenHashes), each selecting the customer it read (else the default persona)`)

  const accountOf = new Map<string, string>()
  fixtures.customers.forEach((customer, i) => {
    const id = `acct_recorded_${i + 1}`
    accountOf.set(customer.id, id)
    fixtures.accounts.push({ id, customerId: customer.id, type: 'CHECKING', last4: '0001', balance: 100000 })
  })
  notes.guessed.push('accounts.yaml: one checking account per customer, balance 1000.00 (the mock\'s operations read no account)')

  const cardShape = shapes.get('DebitCard')
  const year = now.getUTCFullYear() + 3
  const cardGuesses = new Set<string>(['expirationMonth', 'expirationYear'])
  for (const [id, fields] of lastById(cardShape)) {
    if (!ID.test(id)) {
      notes.edit.push(`DebitCard ${id}: the id is not one the mock's fixtures take; left out of the world`)
      continue
    }
    const status = mockValue(cardShape, fields, '/status')
    const form = mockValue(cardShape, fields, '/form')
    const last4 = mockValue(cardShape, fields, '/last4')
    if (status !== 'ACTIVE' && status !== 'LOCKED') cardGuesses.add('status')
    if (form === undefined) cardGuesses.add('form')
    if (typeof last4 !== 'string') cardGuesses.add('last4')
    const customerId = owner.id
    const card: Card = {
      id,
      customerId,
      accountId: accountOf.get(customerId) as string,
      form: form === 'PHYSICAL' ? 'PHYSICAL' : 'VIRTUAL',
      last4: typeof last4 === 'string' ? last4 : '0000',
      expirationMonth: 12,
      expirationYear: year,
      status: status === 'LOCKED' ? 'LOCKED' : 'ACTIVE'
    }
    fixtures['debit-cards'].push(card)
  }
  if (fixtures['debit-cards'].length > 0) {
    notes.learned.push(`debit-cards.yaml: ${fixtures['debit-cards'].map(c => `${c.id} ${c.status}`).join(', ')} (each in its last state seen)`)
    notes.guessed.push(`debit-cards.yaml: ${[...cardGuesses].join(', ')} made up where the backend did not show them; all cards belong to the default persona`)
  }

  const statementIds = new Set(exchanges.filter(e => OPERATIONS_BY_ID.get(e.operation)?.tag === 'Statements' && e.response.status < 300 && e.params.statementId !== undefined)
    .map(e => e.params.statementId as string))
  for (const id of statementIds) {
    if (!ID.test(id)) continue
    const statement: Statement = { id, accountId: accountOf.get(owner.id) as string, periodStart: 'today-P1M', periodEnd: 'today-P1D' }
    fixtures.statements.push(statement)
  }
  if (statementIds.size > 0) notes.guessed.push(`statements.yaml: ${[...statementIds].join(', ')} seen; their periods and balances are made up`)
  const transfers = new Set(exchanges.filter(e => OPERATIONS_BY_ID.get(e.operation)?.tag === 'Scheduled transfers').map(e => e.operation))
  if (transfers.size > 0) notes.edit.push(`scheduled transfers were seen (${[...transfers].join(', ')}) but are not put in the world: write scheduled-transfers.yaml by hand`)
  return { fixtures }
}
