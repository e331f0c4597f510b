import t from 'tap'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { startBackend, runFlow, TOKEN } from './backend.js'
import { startRecorder } from '../../src/record/proxy.js'
import { operationMatcher } from '../../src/record/operations.js'
import { learn } from '../../src/record/learn.js'
import { writeRecording } from '../../src/record/write.js'
import { parseJsonl } from '../../src/record/exchange.js'
import { hashToken } from '../../src/core/token-hash.js'

t.test('the recorder passes the backend\'s answers through and learns its dialect, world and personas', async t => {
  const backend = await startBackend()
  t.teardown(backend.close)
  const recorder = await startRecorder({ target: new URL(backend.url), host: '127.0.0.1', port: 0, matcher: operationMatcher({}) })
  t.teardown(recorder.close)
  const seen = await runFlow(recorder.url)
  t.same(seen, backend.sent, 'the client saw exactly what the backend answered')
  t.equal(recorder.exchanges.length, 8, 'the known operations are kept')
  t.same([...recorder.unmatched], ['GET /health'], 'the rest is listed')

  const learned = learn(recorder.exchanges, { salt: 'fixedsalt', now: new Date('2026-11-01T00:00:00Z') })
  const shapes = learned.dialect.shapes ?? {}
  t.same(shapes.DebitCard, {
    envelope: '/result/card',
    fields: {
      '/cardId': '/id',
      '/lockState': { from: '/status', values: { ACTIVE: 'off', LOCKED: 'on' } },
      '/lastFour': '/last4',
      '/cardKind': { from: '/form', values: { VIRTUAL: 'virtual', PHYSICAL: 'physical' } },
      '/nickname': { default: 'Groceries' },
      '/modifiedAt': '/updatedAt'
    }
  })
  t.same(shapes.Customer, {
    envelope: '/result/customer',
    fields: {
      '/customerId': '/id',
      '/fullName': { default: 'Ada Lovelace' },
      '/contact/emailAddress': '/email',
      '/contact/mobile': '/phone',
      '/address/street': '/address/line1',
      '/address/city': '/address/city',
      '/address/region': '/address/state',
      '/address/zip': '/address/postalCode',
      '/address/country': '/address/country',
      '/tier': { default: 'gold' },
      '/modifiedAt': '/updatedAt'
    }
  })
  t.same(shapes.Problem, {
    fields: {
      '/httpStatus': '/status',
      '/errorCode': { from: '/code', values: { card_not_found: 'CARD_MISSING' } },
      '/message': '/detail'
    },
    contentType: 'application/json'
  })
  t.same(learned.dialect.requests, {
    updateCustomer: {
      fields: {
        '/customer/contact/emailAddress': '/email',
        '/customer/contact/mobile': '/phone',
        '/customer/address/street': '/address/line1',
        '/customer/address/city': '/address/city',
        '/customer/address/region': '/address/state',
        '/customer/address/zip': '/address/postalCode',
        '/customer/address/country': '/address/country'
      }
    }
  })
  t.same(learned.dialect.entities, {
    Customer: { cu_ada1: { '/fullName': 'Ada Lovelace', '/tier': 'gold' } },
    DebitCard: { crd_A: { '/nickname': 'Groceries' }, crd_B: { '/nickname': 'Travel' } }
  })

  const [customer] = learned.fixtures.customers
  t.match(customer, { id: 'cu_ada1', default: true, email: 'ada.l@example.com', phone: '+14155550123', tokens: [], address: { line1: '12 Analytical Row', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' } })
  t.same(customer?.tokenHashes, [hashToken(TOKEN, 'fixedsalt')], 'the token is kept only as a salted hash')
  t.same(learned.fixtures['debit-cards'].map(c => [c.id, c.status, c.last4, c.form]), [['crd_A', 'ACTIVE', '4242', 'VIRTUAL'], ['crd_B', 'LOCKED', '1881', 'VIRTUAL']])

  const dir = mkdtempSync(join(tmpdir(), 'recorded-'))
  writeRecording(dir, learned, recorder.exchanges, [...recorder.unmatched], backend.url)
  t.equal(readFileSync(join(dir, 'fixtures.yaml'), 'utf8').split('\n').at(-2), 'extends: none', 'a world of its own')
  t.same(parse(readFileSync(join(dir, 'dialect.yaml'), 'utf8')), JSON.parse(JSON.stringify(learned.dialect)))
  t.ok(existsSync(join(dir, 'customers.yaml')) && existsSync(join(dir, 'debit-cards.yaml')) && existsSync(join(dir, 'accounts.yaml')))
  const exchanges = readFileSync(join(dir, 'exchanges.jsonl'), 'utf8')
  t.notMatch(exchanges, TOKEN, 'no token in clear')
  t.equal(parseJsonl(exchanges, 'exchanges.jsonl').length, 8)
  for (const file of ['dialect.yaml', 'customers.yaml', 'REPORT.md']) t.notMatch(readFileSync(join(dir, file), 'utf8'), TOKEN, `no token in ${file}`)
  const report = readFileSync(join(dir, 'REPORT.md'), 'utf8')
  t.match(report, /lockCard answered "on" \(LOCKED\), unlockCard "off" \(ACTIVE\)/)
  t.match(report, /firstName, lastName, dateOfBirth, ssnLast4 made up/)
  t.match(report, /a postal address by its members' names/)
  t.match(report, /GET \/health/)
})
