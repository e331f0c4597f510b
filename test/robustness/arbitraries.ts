import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'

/**
 * Generators of hostile HTTP input for the property tests: every endpoint of the OpenAPI document
 * with valid and invalid path segments, query strings, headers and bodies.
 */

/**
 * One seed for every property file, so CI replays the same inputs and a failure reproduces.
 * `FC_SEED=<n> npx tap test/robustness` explores other inputs locally.
 */
export const SEED = Number(process.env.FC_SEED ?? 20261123)

export interface Endpoint {
  method: string
  /** OpenAPI template, e.g. /baas/debit-cards/{cardId}/lock */
  template: string
  params: string[]
  operationId: string
  /** Media types the success response may have: an endpoint that streams is not fuzzed with inject. */
  streams: boolean
}

interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> }>>
}

/** The dashboard's page and its event stream: an event stream never ends, so inject cannot wait for it. */
const NOT_FUZZED = ['/__mock/ui', '/__mock/events']

/** Every endpoint of the document but the dashboard's (its own tests cover it). */
export function endpointsOf (doc: OpenApiDoc): Endpoint[] {
  const out: Endpoint[] = []
  for (const [template, methods] of Object.entries(doc.paths)) {
    if (NOT_FUZZED.some(prefix => template.startsWith(prefix))) continue
    for (const [method, op] of Object.entries(methods)) {
      const streams = Object.values(op.responses ?? {}).some(r => Object.keys(r.content ?? {}).includes('text/event-stream'))
      out.push({
        method: method.toUpperCase(),
        template,
        params: [...template.matchAll(/\{([^}]+)\}/g)].map(m => m[1] as string),
        operationId: op.operationId ?? `${method} ${template}`,
        streams
      })
    }
  }
  return out.filter(e => !e.streams)
}

/** Ids that exist in the bundled fixtures (so some requests get past the 404). */
export const KNOWN_IDS = [
  'card_maya_virtual', 'card_maya_physical', 'card_sam_locked', 'card_sam_lost', 'card_sam_replacement', 'card_riley_virtual', 'card_jordan_virtual',
  'stmt_maya_2026_10', 'stmt_sam_2026_10', 'stmt_riley_2026_10',
  'sxfer_maya_savings', 'sxfer_maya_rent', 'sxfer_sam_car_loan', 'sxfer_riley_utilities',
  'fault_1', 'default', 'fuzz'
]

const HOSTILE_STRINGS = [
  '', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '..', '../..', '../../etc/passwd', '%2e%2e%2f',
  'null', 'undefined', 'NaN', '-1', '0', '1e308', '9007199254740993', 'true', '[]', '{}', '\u0000', '\u202e', '😀', 'é', '\ud800',
  '<script>alert(1)</script>', '${CARD_ID}', '{{customer.ssnLast4}}', "' OR 1=1 --", 'a'.repeat(300), 'x'.repeat(5000)
]

/** A short text with a bias to the strings that break parsers. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) }
)

/** One path segment, encoded (raw percent sequences included: malformed ones too). */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_IDS) },
  { weight: 3, arbitrary: hostileString.map(s => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))) },
  { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%', '%u0041', '%00', '%2F', '%2e%2e', '..', '.', '%C0%AE', '%FF%FE') }
)

const QUERY_KEYS = [
  'status', 'type', 'limit', 'order', 'operation', 'method', 'path', 'since', 'after', 'channel', 'to', 'kind', 'customerId', 'phone',
  'prefix', 'format', 'baseUrl', 'escape', 'session', 'token', '__proto__', 'constructor', 'a[b]', 'x'
]

const QUERY_VALUES = [
  'ACTIVE', 'ACH', 'INTERNAL', '0', '1', '-1', '10001', 'asc', 'desc', 'lockCard', 'API_BAAS_REISSUE', 'GET', '4xx', '999', '/baas/*',
  '2026-11-23T15:00:00Z', 'sms', 'email', '+14155550123', ' 14155550123', 'VITE_', 'json', 'dotenv', 'http://x.test', 'true', 'fuzz', 'maybe'
]

/**
 * Journal `?path=` patterns of many stars: over the long paths the fuzzer sends (runs of `a` and
 * `x`), a backtracking matcher would take hours on these, and the run would hang.
 */
export const starPattern: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('*a*a*a*a!', `${'*x'.repeat(40)}!`, `/baas/${'*a'.repeat(25)}*`, '**********', '*/*/*/*/*!'),
  fc.array(fc.constantFrom('*', '*', 'a', 'x', '/', '!', 'aa'), { minLength: 4, maxLength: 40 }).map(pieces => pieces.join(''))
)

export const queryString: fc.Arbitrary<string> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), hostileString), fc.oneof(fc.constantFrom(...QUERY_VALUES), hostileString)) },
    { weight: 1, arbitrary: fc.tuple(fc.constant('path'), starPattern) }
  ),
  { maxLength: 4 }
).map(pairs => pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'))

function enc (text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))
}

/** Header values must be Latin-1 without control characters or the client refuses to send them. */
const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e]/g, '')

const jwt = (payload: unknown): string => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`

const authorization = fc.oneof(
  fc.constantFrom('Bearer tok_maya', 'Bearer tok_sam', 'Bearer tok_riley', 'Bearer tok_jordan', 'Bearer tok_nobody', 'Bearer', 'Basic dXNlcjpwYXNz',
    `Bearer ${jwt({ sub: 'cus_sam' })}`, `Bearer ${jwt({ sub: '__proto__' })}`, `Bearer ${jwt({ sub: 'constructor' })}`, 'Bearer a.b.c', 'Bearer e30.bm90IGpzb24.x'),
  hostileString.map(s => `Bearer ${headerSafe(s)}`)
)

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/problem+json', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/octet-stream', '*/*', 'garbage', ''
]

const PREFER = [
  'code=404', 'code=200', 'code=abc', 'code=99', 'code=600', 'example=minimal', 'example=nope', 'example=../../x', 'delay=0', 'delay=-5',
  'delay=abc', 'return=minimal', 'code=422, example=minimal', 'code', '=', ';;;'
]

export interface FuzzHeaders { [name: string]: string }

export const headers: fc.Arbitrary<FuzzHeaders> = fc.record({
  authorization,
  'x-mock-session': fc.oneof(fc.constantFrom('fuzz', 'fuzz', 'default', 'other-1', '', 'bad session', 'x'.repeat(129), '__proto__', 'constructor'), hostileString.map(headerSafe)),
  prefer: fc.oneof(fc.constantFrom(...PREFER), hostileString.map(headerSafe)),
  accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', 'garbage'),
  'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher', ''),
  'x-forwarded-host': fc.constantFrom('mock.test', 'mock.test:8443', 'a b', 'x/y?z', ''),
  'x-mock-admin-token': hostileString.map(headerSafe)
}, { requiredKeys: [] })

/** A body to send: raw text and its content type (undefined: no body at all). */
export interface FuzzBody { payload?: string; contentType?: string }

const address = { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' }

/** A valid body per operation: mutations of it reach deeper validation than random JSON does. */
export const VALID_BODIES: Record<string, Record<string, unknown>> = {
  updateCustomer: { email: 'fuzz@example.com', phone: '+14155550123', address },
  requestPhysicalCard: { shippingMethod: 'EXPRESS' },
  reissueCard: { reason: 'DAMAGED' },
  sendPhoneVerificationCode: { channel: 'SMS' },
  verifyPhoneVerificationCode: { code: '123456' },
  createInternalScheduledTransfer: { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100, frequency: 'MONTHLY', startDate: '2026-12-01' },
  createAchScheduledTransfer: {
    fromAccountId: 'acct_maya_checking', amount: 100, frequency: 'ONCE', startDate: '2026-12-01',
    counterparty: { name: 'Fuzz Co', routingNumber: '021000021', accountNumber: '12345678', accountType: 'CHECKING' }
  },
  updateScheduledTransfer: { amount: 200 },
  mockAdvanceClock: { by: 'PT1H' },
  mockReset: {},
  mockAddFault: { operation: 'getCustomer', status: 418, count: 1 },
  mockSetPin: { pin: '2580' },
  mockSimulateTransferFailNext: { reason: 'ACCOUNT_CLOSED' }
}

/** Values of every JSON type and the shapes that break naive code. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -0, '', [], {}, 'x'.repeat(10_000), '😀'.repeat(50), { __proto__: null }, [[[[[]]]]]),
  hostileString,
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 })
)

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty']

/** A valid body with one mutation: a field dropped, retyped, replaced or added (pollution keys too). */
function mutate (valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(valid)
  const mutation = fc.oneof(
    fc.constant({ kind: 'none' as const }),
    fc.record({ kind: fc.constant('drop' as const), key: fc.constantFrom(...(keys.length === 0 ? ['none'] : keys)) }),
    fc.record({ kind: fc.constant('set' as const), key: fc.oneof(fc.constantFrom(...keys, ...POLLUTION_KEYS), hostileString), value: wrongValue })
  )
  return mutation.map(m => {
    const copy: Record<string, unknown> = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>
    if (m.kind === 'drop') delete copy[m.key]
    // defineProperty: `copy.__proto__ = v` would set the prototype instead of a key the server sees.
    if (m.kind === 'set') Object.defineProperty(copy, m.key, { value: m.value, enumerable: true, writable: true, configurable: true })
    return copy
  })
}

const RAW_BODIES = [
  '{', '}', '{"a":', '[1,2', 'nul', 'undefined', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}', '"just a string"', '42', 'null', '[]', '\u0000', '\ufeff{}', '{"x":"\ud800"}', '[' .repeat(3000) + ']'.repeat(3000),
  '{"reason":"DAMAGED"}garbage', ' '
]

export function body (endpoint: Endpoint): fc.Arbitrary<FuzzBody> {
  const valid = VALID_BODIES[endpoint.operationId] ?? {}
  const json = (value: unknown): string => JSON.stringify(value)
  const contentType = fc.oneof({ weight: 5, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) })
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 6, arbitrary: fc.tuple(mutate(valid), contentType).map(([value, type]) => ({ payload: json(value), contentType: type })) },
    { weight: 2, arbitrary: fc.tuple(fc.jsonValue({ maxDepth: 4 }), contentType).map(([value, type]) => ({ payload: json(value), contentType: type })) },
    { weight: 2, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ maxLength: 50 })), contentType).map(([payload, type]) => ({ payload, contentType: type })) },
    { weight: 1, arbitrary: fc.constantFrom(
      { payload: json({ pad: 'x'.repeat(70 * 1024) }), contentType: 'application/json' },
      { payload: '', contentType: 'application/json' },
      { payload: 'x'.repeat(70 * 1024), contentType: 'text/plain' }
    ) }
  )
}

export interface FuzzRequest {
  endpoint: Endpoint
  url: string
  headers: FuzzHeaders
  body: FuzzBody
}

export function request (endpoints: Endpoint[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...endpoints).chain(endpoint => fc.record({
    endpoint: fc.constant(endpoint),
    url: fc.tuple(fc.array(pathSegment, { minLength: endpoint.params.length, maxLength: endpoint.params.length }), queryString, fc.constantFrom('', '', '', '/'))
      .map(([segments, query, slash]) => {
        let i = 0
        return endpoint.template.replace(/\{[^}]+\}/g, () => segments[i++] ?? 'x') + slash + query
      }),
    headers,
    body: body(endpoint)
  }))
}

export function toInject (req: FuzzRequest): InjectOptions {
  const headers: Record<string, string> = { ...req.headers }
  if (req.body.contentType !== undefined && req.body.contentType !== '') headers['content-type'] = req.body.contentType
  return { method: req.endpoint.method as 'GET', url: req.url, headers, ...(req.body.payload === undefined ? {} : { payload: req.body.payload }) }
}

/** Entities only: the journal records every request and `now` moves with the clock. */
export async function entities (app: FastifyInstance, session: string): Promise<unknown> {
  const res = await app.inject({ method: 'GET', url: '/__mock/state', headers: { 'x-mock-session': session } })
  const { now: _now, ...rest } = JSON.parse(res.body) as Record<string, unknown>
  return rest
}
