import t from 'tap'
import { isCardNumber, redactExchange, redactText, REDACTED } from '../../src/record/redact.js'
import { CorpusError, bodyOf, parseJsonl, toJsonl, type Exchange } from '../../src/record/exchange.js'

t.test('card numbers (13-19 digits passing Luhn) are redacted, other digit runs kept', async t => {
  t.ok(isCardNumber('4111111111111111'))
  t.notOk(isCardNumber('4111111111111112'), 'fails Luhn')
  t.notOk(isCardNumber('123456789012'), 'too short')
  t.equal(redactText('pan 4111 1111 1111 1111 ok'), `pan ${REDACTED} ok`)
  t.equal(redactText('tracking 9400111899223344556677'), 'tracking 9400111899223344556677', '22 digits: not a card')
})

t.test('an exchange loses its credentials, secret fields and card numbers, and keeps the rest', async t => {
  const exchange: Exchange = {
    operation: 'verifyPhoneVerificationCode',
    params: {},
    request: {
      method: 'POST', path: '/mfa/verify', query: 'access_token=abc&page=2',
      headers: { authorization: 'Bearer tok_1', cookie: 'sid=1', 'x-api-key': 'k', accept: 'application/json' },
      json: { code: '123456', verificationId: 'ver_1', card: { number: 4111111111111111, cvv: '123' } }
    },
    response: {
      status: 200, headers: { 'set-cookie': 'sid=2', 'content-type': 'application/json' },
      json: { verified: true, errorCode: 'NONE', accessToken: 'jwt', note: 'card 4111111111111111', list: ['4111111111111111'] }
    }
  }
  const redacted = redactExchange(exchange)
  t.same(redacted.request.headers, { authorization: REDACTED, cookie: REDACTED, 'x-api-key': REDACTED, accept: 'application/json' })
  t.equal(redacted.request.query, `access_token=${encodeURIComponent(REDACTED)}&page=2`)
  t.same(redacted.request.json, { code: REDACTED, verificationId: 'ver_1', card: { number: REDACTED, cvv: REDACTED } })
  t.same(redacted.response.json, { verified: true, errorCode: 'NONE', accessToken: REDACTED, note: `card ${REDACTED}`, list: [REDACTED] })
  t.equal(redacted.response.headers['set-cookie'], REDACTED)
  const text = redactExchange({ ...exchange, request: { ...exchange.request, json: undefined, text: 'pan=4111111111111111' } })
  t.equal(text.request.text, `pan=${REDACTED}`)
})

t.test('exchanges.jsonl reads back what was written and names a bad line', async t => {
  const one: Exchange = { operation: 'getCustomer', params: {}, request: { method: 'GET', path: '/baas/customers', query: '', headers: {} }, response: { status: 200, headers: {}, text: 'x' } }
  t.same(parseJsonl(toJsonl([one, one]), 'x.jsonl'), [one, one])
  t.equal(toJsonl([]), '')
  t.throws(() => parseJsonl('{', 'x.jsonl'), new CorpusError('x.jsonl:1: not JSON'))
  t.throws(() => parseJsonl('\n{"a":1}', 'x.jsonl'), /x\.jsonl:2: not a recorded exchange/)
  t.same(bodyOf('application/json', Buffer.from('{')), { text: '{' }, 'broken JSON is kept as text')
  t.same(bodyOf('application/json', Buffer.alloc(0)), {})
})
