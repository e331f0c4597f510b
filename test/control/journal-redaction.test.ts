import t from 'tap'
import { buildTestApp, TOKENS } from '../helpers/app.js'
import { createMock } from '../../src/index.js'
import { secretFields, redactFields } from '../../src/core/secret-fields.js'
import { redactUrlQuery } from '../../src/world/secret-names.js'
import { Type } from 'typebox'

t.test('the journal shows credentials by name as [REDACTED]: API keys, tokens in the query, the verification code', async t => {
  const { call } = await buildTestApp(t)
  await call('GET', '/baas/customers?access_token=s3cret-at&token=s3cret-t&api_key=s3cret-k&key=s3cret-key&limit=5', {
    token: TOKENS.maya,
    headers: { 'x-api-key': 's3cret-xak', 'api-key': 's3cret-ak', 'x-auth-token': 's3cret-xat', 'x-client-secret': 's3cret-cs', 'x-trace': 'keep-me' }
  })
  await call('POST', '/mfa/send-code', { token: TOKENS.maya, body: {} })
  const code = (await call('GET', '/__mock/outbox')).text.match(/\b\d{6}\b/)?.[0] ?? '000000'
  t.equal((await call('POST', '/mfa/verify', { token: TOKENS.maya, body: { code } })).status, 200)
  const journal = await call('GET', '/__mock/requests?order=asc')
  t.notMatch(journal.text, /s3cret/, 'no credential anywhere in the journal')
  t.notMatch(journal.text, new RegExp(`"code":"${code}"`), 'nor the code sent to /mfa/verify')
  const [get, , verify] = journal.body.data
  t.equal(get.url, '/baas/customers?access_token=[REDACTED]&token=[REDACTED]&api_key=[REDACTED]&key=[REDACTED]&limit=5')
  t.match(get.headers, { 'x-api-key': '[REDACTED]', 'api-key': '[REDACTED]', 'x-auth-token': '[REDACTED]', 'x-client-secret': '[REDACTED]', authorization: '[REDACTED]', 'x-trace': 'keep-me' })
  t.same(verify.body, { code: '[REDACTED]' })
  t.equal(verify.path, '/mfa/verify')
})

t.test('in process too, and a redacted field is only what the schema marks', async t => {
  const mock = await createMock({ seed: 7, now: '2026-11-23T15:00:00Z' })
  t.teardown(() => mock.close())
  const body = JSON.stringify({ code: '123456', phone: '+14155550123' })
  // With its length, as a browser's fetch sends it: the in-process journal keeps a body only then.
  await mock.fetch('/mfa/verify', { method: 'POST', headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json', 'content-length': String(body.length) }, body })
  const [entry] = await mock.session().journal.list()
  t.same(entry?.body, { code: '[REDACTED]', phone: '+14155550123' })
})

t.test('secret fields follow writeOnly through references, arrays and branches', async t => {
  t.same(secretFields(Type.Ref('VerifyCodeRequest')), [['code']])
  t.same(secretFields(undefined), [])
  const nested = Type.Object({
    list: Type.Array(Type.Object({ pin: Type.String({ writeOnly: true }), label: Type.String() })),
    either: Type.Union([Type.Object({ secret: Type.String({ writeOnly: true }) }), Type.Null()])
  })
  const fields = secretFields(nested)
  t.same(fields, [['list', '*', 'pin'], ['either', 'secret']])
  t.same(redactFields({ list: [{ pin: '1234', label: 'a' }, 'odd'], either: { secret: 'x' } }, fields), { list: [{ pin: '[REDACTED]', label: 'a' }, 'odd'], either: { secret: '[REDACTED]' } })
  t.same(redactFields({ list: 'not a list', either: null }, fields), { list: 'not a list', either: null }, 'a body of another shape is left as it is')
  t.same(redactFields(['a'], [['*']]), ['[REDACTED]'])
  t.same(redactFields({ list: { pin: 1 } }, [['list', '*', 'pin']]), { list: { pin: 1 } })
})

t.test('query redaction keeps the URL as sent otherwise', async t => {
  t.equal(redactUrlQuery('/a'), '/a')
  t.equal(redactUrlQuery('/a?x=1&refresh_token=abc&flag&%ZZ=1&client%5Fsecret=z'), '/a?x=1&refresh_token=[REDACTED]&flag&%ZZ=1&client%5Fsecret=[REDACTED]')
})
