import { Writable } from 'node:stream'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { loggerOptions, prettyStream, redactUrl } from '../../src/transports/fastify/logger.js'
import { TEST_NOW } from '../helpers/app.js'
import { adminCookieValue } from '../../src/core/admin-token.js'

/** The secrets a request can carry; none may reach a log line, wherever in the request it travels. */
const ADMIN_TOKEN = 'adm-Secret-7f3a9c'
const PERSONA_TOKEN = 'tok_maya'
const CODE = '424242'
const WRONG_CODE = '987654'
const PAN = '4111111111111111'
const SSN = '123-45-6789'
const SSN_DIGITS = '123456789'
const PIN = '2580'

/** A stream that keeps the lines written to it. */
function captured (): { lines: string[]; stream: Writable } {
  const lines: string[] = []
  return { lines, stream: new Writable({ write (chunk: Buffer, _encoding, done) { lines.push(...chunk.toString().split('\n').filter(Boolean)); done() } }) }
}

t.test('logs never carry tokens, verification codes, PINs, full PANs or SSNs', async t => {
  const { lines, stream } = captured()
  const config = defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'trace', adminToken: ADMIN_TOKEN, logRequests: 'all' })
  config.settings.verification.fixedCode = CODE
  const app = await buildApp(config, { logger: loggerOptions(config, stream) })
  t.teardown(() => app.close())
  const admin = { 'x-mock-admin-token': ADMIN_TOKEN }
  const persona = { authorization: `Bearer ${PERSONA_TOKEN}`, 'content-type': 'application/json' }
  const send = async (method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<number> =>
    (await app.inject({ method: method as 'GET', url, headers, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }) })).statusCode

  t.equal(await send('GET', '/baas/customers', persona), 200)
  t.equal(await send('GET', `/__mock/state?token=${ADMIN_TOKEN}`, {}), 200, 'admin token in the query (EventSource)')
  t.equal(await send('GET', '/__mock/state', { authorization: `Bearer ${ADMIN_TOKEN}` }), 200, 'admin token as a bearer')
  t.equal(await send('GET', '/__mock/state', { 'x-mock-admin-token': `${ADMIN_TOKEN}x` }), 401, 'a wrong admin token')
  t.equal(await send('POST', '/mfa/send-code', persona, {}), 202)
  t.equal(await send('POST', '/mfa/verify', persona, { code: WRONG_CODE }), 422)
  t.equal(await send('POST', '/mfa/verify', persona, { code: CODE }), 200)
  t.equal(await send('GET', `/mfa/verify?code=${CODE}`, persona), 405, 'a code in a query string')
  t.equal(await send('POST', `/mfa/verify/${WRONG_CODE}`, persona, {}), 404, 'a code in a path')
  t.equal(await send('POST', '/mfa/verify', persona, `{"code":"${CODE}", oops`), 400, 'a code in malformed JSON')
  t.equal(await send('GET', `/__mock/outbox/latest-code?token=${ADMIN_TOKEN}`, {}), 200, 'the code in a response')
  const dashboard = await app.inject(`/__mock/ui?session=demo&token=${ADMIN_TOKEN}`)
  t.equal(dashboard.statusCode, 303, 'the dashboard link exchanges the token for a cookie')
  const cookie = String(dashboard.headers['set-cookie']).split(';')[0] ?? ''
  t.equal(await send('GET', '/__mock/state', { cookie }), 200, 'the dashboard cookie')
  t.equal(await send('POST', '/__mock/ui', admin), 204, 'the token typed into the dashboard')
  t.equal(await send('PUT', '/baas/customers', persona, { email: 'a@example.com', phone: '+14155550123', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' }, ssn: SSN, pan: PAN }), 400, 'an SSN and a PAN in a body')
  t.equal(await send('POST', `/baas/debit-cards/${PAN}/lock`, persona, {}), 404, 'a PAN in a path')
  t.equal(await send('GET', `/__mock/outbox?pan=${PAN}&ssn=${SSN}`, admin), 400, 'a PAN and an SSN in a query string')
  t.equal(await send('GET', `/baas/scheduled-transfers?ssn=${SSN_DIGITS}`, persona), 400, 'SSN digits in a query string')
  const link = JSON.parse((await app.inject({ method: 'POST', url: '/baas/debit-cards/card_maya_virtual/set-pin-url', headers: { authorization: persona.authorization } })).body) as { url: string }
  const pinPath = new URL(link.url).pathname
  t.equal(await send('POST', pinPath, { 'content-type': 'application/json' }, { pin: PIN }), 200, 'a PIN through its link')

  // Timestamps and durations are digits that could match a short secret by chance: they are not what is checked.
  const log = lines.map(line => {
    const { time: _time, ms: _ms, responseTime: _rt, ...rest } = JSON.parse(line) as Record<string, unknown>
    return JSON.stringify(rest)
  }).join('\n')
  t.ok(lines.filter(l => l.includes('"url"')).length >= 15, `${lines.length} lines logged, one per request at least`)
  for (const [name, secret] of Object.entries({ ADMIN_TOKEN, adminCookie: adminCookieValue(ADMIN_TOKEN), PERSONA_TOKEN, CODE, WRONG_CODE, PAN, SSN, SSN_DIGITS, PIN, pinToken: pinPath.split('/').at(-1) ?? '' })) {
    t.notOk(log.includes(secret), `${name} is not in the log`)
  }
  t.ok(log.includes('/baas/debit-cards/************1111/lock'), 'a PAN-like path keeps its last 4 digits, enough to tell requests apart')
})

/** The request lines a mock logs for a few requests: two answered 4xx, a control-plane read and a control-plane write. */
async function requestLines (logRequests: 'all' | 'errors' | 'none'): Promise<{ url: string; status: number }[]> {
  const { lines, stream } = captured()
  const config = defaultConfig({ now: TEST_NOW, seed: 7, logRequests })
  const app = await buildApp(config, { logger: loggerOptions(config, stream) })
  try {
    const headers = { authorization: 'Bearer tok_maya' }
    for (const url of ['/baas/customers', '/baas/debit-cards/card_nope/lock', '/baas/debit-cards/card_maya_virtual/lock']) await app.inject({ method: url.endsWith('lock') ? 'POST' : 'GET', url, headers })
    await app.inject({ method: 'GET', url: '/no/such/route' })
    await app.inject({ method: 'GET', url: '/__mock/state' })
    await app.inject({ method: 'POST', url: '/__mock/clock/advance', payload: { by: 'P1D' } })
  } finally {
    await app.close()
  }
  return lines.map(line => JSON.parse(line) as { msg: string; url: string; status: number }).filter(l => l.msg === 'request').map(({ url, status }) => ({ url, status }))
}

t.test('request lines: all of them, the 4xx and 5xx and control-plane writes only, or none', async t => {
  t.same(await requestLines('all'), [
    { url: '/baas/customers', status: 200 },
    { url: '/baas/debit-cards/card_nope/lock', status: 404 },
    { url: '/baas/debit-cards/card_maya_virtual/lock', status: 200 },
    { url: '/no/such/route', status: 404 },
    { url: '/__mock/state', status: 200 },
    { url: '/__mock/clock/advance', status: 200 }
  ])
  t.same(await requestLines('errors'), [
    { url: '/baas/debit-cards/card_nope/lock', status: 404 },
    { url: '/no/such/route', status: 404 },
    { url: '/__mock/clock/advance', status: 200 }
  ], 'a clock advance explains what follows it')
  t.same(await requestLines('none'), [])
})

t.test('on a terminal: readable lines, written in-process, with the same request line and no secrets', async t => {
  const { lines, stream } = captured()
  const config = defaultConfig({ now: TEST_NOW, seed: 7, logRequests: 'all', prettyLogs: true })
  const app = await buildApp(config, { logger: loggerOptions(config, prettyStream(stream)) })
  try {
    await app.inject({ method: 'POST', url: '/baas/debit-cards/card_nope/lock', headers: { authorization: `Bearer ${PERSONA_TOKEN}` } })
  } finally {
    await app.close()
  }
  const text = lines.join('\n')
  t.match(text, /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] .*INFO.*: .*request/m, 'time, level and message, as pino-pretty prints them')
  t.match(text, /url: "\/baas\/debit-cards\/card_nope\/lock"/)
  t.match(text, /status: 404/)
  t.notOk(lines.some(line => line.startsWith('{')), 'no JSON line')
  t.notOk(text.includes(PERSONA_TOKEN), 'the token is not in the log')
})

t.test('redactUrl masks secrets in URLs and leaves ordinary ones alone', async t => {
  t.equal(redactUrl('/baas/debit-cards/card_maya_virtual/lock'), '/baas/debit-cards/card_maya_virtual/lock')
  t.equal(redactUrl('/__mock/requests?status=4xx&after=12&since=2026-11-23T15:00:00Z'), '/__mock/requests?status=4xx&after=12&since=2026-11-23T15:00:00Z')
  t.equal(redactUrl('/__mock/pin/abcDEF123?session=s1'), '/__mock/pin/[REDACTED]?session=s1')
  t.equal(redactUrl('/__mock/events?token=s3cret&session=a'), '/__mock/events?token=[REDACTED]&session=a')
  t.equal(redactUrl('/x?Code=123456&pin=1234&PAN=1&ssn=2&password=p&api_key=k'), '/x?Code=[REDACTED]&pin=[REDACTED]&PAN=[REDACTED]&ssn=[REDACTED]&password=[REDACTED]&api_key=[REDACTED]')
  t.equal(redactUrl('/cards/5555555555554444'), '/cards/************4444', 'PAN-like digit runs keep the last 4')
  t.equal(redactUrl('/x/123456789/y'), '/x/*****6789/y', 'an SSN without dashes')
  t.equal(redactUrl('/mfa/verify/123456'), '/mfa/verify/[REDACTED]', 'a code as a path segment')
  t.equal(redactUrl('/x/2580?y=1'), '/x/[REDACTED]?y=1', 'a PIN as a path segment')
  t.equal(redactUrl('/x?q=123-45-6789'), '/x?q=***-**-6789', 'an SSN with dashes')
  t.equal(redactUrl('/baas/scheduled-transfers?since=20261123'), '/baas/scheduled-transfers?since=20261123', 'eight digits (a date) stay')
})
