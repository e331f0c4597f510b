import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { parse } from 'yaml'
import { shapeContract } from '../../src/dialect/contract.js'
import { startServer } from '../../src/index.js'
import { binOf, OPENAPI, runTool } from '../contract/tools.js'
import { SUITE_DIALECT as SUITE_DIALECT_FILE } from './world.js'
import { SUITE_DIALECT } from './suite-dialect.js'

// The contract follows the dialect: the shaped document, as contract.ts makes it and as the mock serves it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read as JSON
type Json = any
const mockDocument = parse(readFileSync(OPENAPI, 'utf8')) as Json
const shaped = shapeContract(mockDocument, SUITE_DIALECT) as Json
const schemas = shaped.components.schemas
const lock = shaped.paths['/baas/debit-cards/{cardId}/lock'].post

t.test('answers: the team\'s schema under its envelope, value maps as enums, consts, kept values typed by their defaults', async t => {
  t.same(lock.responses['200'].content, { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/DebitCard' } }, additionalProperties: false } } })
  const card = schemas.DebitCard
  t.same(card.required, ['id', 'type', 'attributes'])
  const attributes = card.properties.attributes
  t.same(attributes.properties.card_state, { type: 'string', enum: ['pending', 'active', 'frozen', 'closed'] }, 'the mock\'s enum, mapped')
  t.same(attributes.properties.kind.enum, ['virtual', 'plastic'])
  t.same(card.properties.type, { type: 'string', const: 'card' })
  t.same(attributes.properties.nickname.type, ['null', 'string'], 'a kept value: its default\'s type, and the kept values\', nullable when the default is null')
  t.same(attributes.properties.last_4, mockDocument.components.schemas.DebitCard.properties.last4, 'a copied field keeps the mock\'s schema')
  t.same(attributes.required, ['card_state', 'last_4', 'kind', 'nickname', 'updated_at'])
  t.equal(card.additionalProperties, false, 'only listed fields appear')

  t.same(schemas.ScheduledTransfer.properties.runs, { type: 'array', items: { $ref: '#/components/schemas/Run' } }, 'a nested shape is a ref to it')
  t.same(schemas.Run.properties.result.enum, ['ok', 'failed', 'pending', 'settled', 'returned'])
  t.same(schemas.ScheduledTransferList.properties.items, { type: 'array', items: { $ref: '#/components/schemas/ScheduledTransfer' } })
  t.same(schemas.ScheduledTransfer.required, ['id', 'amount_cents', 'state', 'runs'], 'required when both kinds of transfer have it')
  t.equal(schemas.InternalScheduledTransfer, undefined, 'the mock\'s schemas nothing refers to any more are gone')
  t.same(schemas.Customer.properties.attributes.properties.home_address.required, ['line1', 'city', 'state', 'postalCode', 'country'], 'a copied object is written out')
  t.equal(schemas.Customer.properties.attributes.properties.greeting.type, undefined, 'a template can be anything')
})

t.test('errors: every API error is the Problem shape, under its media type; the control plane keeps the mock\'s', async t => {
  t.same(Object.keys(lock.responses['404'].content), ['application/json'])
  t.same(lock.responses['404'].content['application/json'].schema, { $ref: '#/components/schemas/Problem' })
  t.same(lock.responses['404'].headers, mockDocument.paths['/baas/debit-cards/{cardId}/lock'].post.responses['404'].headers, 'headers stay')
  const problem = schemas.Problem
  t.same(problem.properties.errors.type, 'array')
  t.same(problem.properties.errors.minItems, 1)
  t.same(problem.properties.errors.items.properties.code.anyOf[0], { enum: ['NOT_FOUND', 'CONFLICT'] }, 'a value map over a free string: the mapped values, or the mock\'s')
  t.same(problem.properties.errors.items.required, ['status', 'code', 'detail'])
  t.same(problem.properties.errors.items.properties.source, { type: 'object', properties: { pointer: { type: 'string', description: 'JSON pointer to the offending input, e.g. /address/postalCode' } }, additionalProperties: false })
  const reset = shaped.paths['/__mock/reset'].post.responses['404'].content
  t.same(reset, { 'application/problem+json': { schema: { $ref: '#/components/schemas/MockProblem' } } })
  t.same(schemas.MockProblem, mockDocument.components.schemas.Problem)

  const json = shapeContract(mockDocument, { shapes: { Problem: { contentType: 'application/vnd.api+json', fields: { '/error/code': '/code' } } } }) as Json
  t.same(Object.keys(json.paths['/baas/customers'].get.responses['401'].content), ['application/vnd.api+json'], 'the shape\'s media type')
})

t.test('requests: the team\'s request shape, or the inverse of the resource\'s; ids, paths, parameters and security stay', async t => {
  const update = shaped.paths['/baas/customers'].put.requestBody.content['application/json'].schema
  t.same(update.required, ['data'])
  const data = update.properties.data
  t.same(data.required, ['type', 'attributes'], 'the const is sent; the id, which the update does not read, is not asked for')
  t.same(data.properties.type, { type: 'string', const: 'customer' })
  t.same(Object.keys(data.properties.attributes.properties), ['email_address', 'phone_number', 'given_name', 'home_address'], 'what the update reads (not the id, not the template)')
  const reissue = shaped.paths['/baas/debit-cards/{cardId}/reissue'].post.requestBody.content['application/json'].schema
  t.same(reissue.properties.data.properties.attributes.properties.reason.enum, ['damaged', 'expired', 'lost', 'stolen'])
  for (const [path, methods] of Object.entries(mockDocument.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const now = shaped.paths[path][method]
      t.same([now.operationId, now.parameters, now.security], [operation.operationId, operation.parameters, operation.security], `${method} ${path}`)
    }
  }
  t.equal(shapeContract(mockDocument, {}), mockDocument, 'a dialect with nothing to shape leaves the document as it is')
  t.same(mockDocument, parse(readFileSync(OPENAPI, 'utf8')), 'the mock\'s document is not changed')
})

t.test('served: /openapi.json and /openapi.yaml in the dialect; Redocly and Spectral find no error in it', async t => {
  // A folder holding only the dialect, over the bundled world.
  const dir = t.testdir({ 'dialect.yaml': readFileSync(SUITE_DIALECT_FILE, 'utf8') })
  const server = await startServer({ fixtures: dir, logLevel: 'silent' })
  t.teardown(() => server.close())
  const served = await (await fetch(`${server.url}/openapi.json`)).json() as Json
  t.same(served.components.schemas.DebitCard, schemas.DebitCard, 'the shaped document, built from the routes in effect')
  t.same(served.servers, [{ url: server.url, description: 'This mock' }])
  t.match(await (await fetch(`${server.url}/openapi.yaml`)).text(), /card_state:/)

  const file = join(dir, 'shaped.json')
  writeFileSync(file, JSON.stringify(served))
  const [redocly, spectral] = await Promise.all([
    runTool(binOf('@redocly/cli', 'redocly'), ['lint', file, '--format=json'], { timeoutMs: 120_000 }),
    runTool(binOf('@stoplight/spectral-cli', 'spectral'), ['lint', file, '--format', 'json', '--fail-severity', 'error', '--quiet'], { timeoutMs: 120_000 })
  ])
  const redoclyErrors = (JSON.parse(redocly.stdout) as { problems: { ruleId: string; severity: string; location: { pointer: string }[] }[] }).problems
    .filter(p => p.severity === 'error').map(p => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}`)
  t.same(redoclyErrors, [], 'Redocly: no errors')
  t.equal(redocly.code, 0, 'redocly exits 0', { stderr: redocly.stderr })
  const spectralErrors = (JSON.parse(spectral.stdout === '' ? '[]' : spectral.stdout) as { code: string; severity: number; path: string[] }[])
    .filter(r => r.severity === 0).map(r => `${r.code} at ${r.path.join('/')}`)
  t.same(spectralErrors, [], 'Spectral: no errors')
  t.equal(spectral.code, 0, 'spectral exits 0', { stderr: spectral.stderr })
})

t.test('the rarer specs: a default behind a pointer, a nested shape of one value, value maps over lists and free values, requests alone', async t => {
  const doc = shapeContract(mockDocument, {
    shapes: {
      DebitCard: {
        fields: {
          '/nickname': { from: '/replacedBy', default: 'none' },
          '/ship': { from: '/shipment', shape: 'Shipping' },
          '/size': { const: 3 },
          '/pins': { from: '/pinStatus', values: { SET: 1 } },
          '/kept': { default: 2 }
        }
      },
      Shipping: { fields: { '/how': { from: '/method', values: { STANDARD: 'slow' } } } }
    },
    entities: { DebitCard: { card_maya_virtual: { '/kept': 2.5 } } }
  }) as Json
  const card = doc.components.schemas.DebitCard
  t.same(card.properties.nickname, { anyOf: [{ type: 'string' }, { type: 'string', description: 'A value the mock keeps per entity (dialect)' }] }, 'the mock\'s value, or the default')
  t.same(card.required, ['nickname', 'size', 'pins', 'kept'], 'a default is always there; the shipment is not')
  t.same(card.properties.ship, { $ref: '#/components/schemas/Shipping' })
  t.same(doc.components.schemas.Shipping.properties.how.enum, ['slow', 'EXPRESS', 'PRIORITY'], 'a value not listed passes through')
  t.same(card.properties.size, { type: 'integer', const: 3 })
  t.same(card.properties.pins.enum, [1, 'NOT_SET'])
  t.same(card.properties.pins.type, ['integer', 'string'])
  t.same(card.properties.kept.type, 'number', 'an integer default and a kept fraction: a number')

  const requestsOnly = shapeContract(mockDocument, { requests: { updateCustomer: { fields: { '/mail': '/email', '/kind': { const: 'me' }, '/nope': { to: '/nope' } } } } }) as Json
  const body = requestsOnly.paths['/baas/customers'].put.requestBody.content['application/json'].schema
  t.same(body.required, ['mail', 'kind'])
  t.same(body.properties.nope, {}, 'a field the operation has no place for: anything (check-fixtures refuses it first)')
  t.same(requestsOnly.components.schemas.Customer, mockDocument.components.schemas.Customer, 'answers as they were')
})
