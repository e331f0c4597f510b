import t from 'tap'
import { renderEnv } from '../../src/config/env-export.js'
import { OPERATIONS, configurationNames } from '../../src/core/operations.js'
import { resolveRoutes } from '../../src/config/route-config.js'
import { buildTestApp } from '../helpers/app.js'

const routes = resolveRoutes(OPERATIONS, {})

function parseEnv (text: string): Map<string, string> {
  const lines = text.split('\n').filter(l => l !== '' && !l.startsWith('#'))
  return new Map(lines.map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
}

t.test('every configuration name appears once, pointing at the base URL, with $PARAM placeholders', async t => {
  const env = parseEnv(renderEnv(routes, 'http://127.0.0.1:4010/'))
  t.same([...env.keys()], configurationNames(), 'shared names (API_BAAS_CUSTOMER) once, in table order')
  t.equal(env.get('API_BAAS_CUSTOMER'), 'http://127.0.0.1:4010/baas/customers')
  t.equal(env.get('API_BAAS_CUSTOMER_CARD_LOCK'), 'http://127.0.0.1:4010/baas/debit-cards/$CARD_ID/lock')
  t.equal(env.get('API_PHONE_VERFICATION_SEND_CODE'), 'http://127.0.0.1:4010/mfa/send-code', 'the original spelling is kept')
})

t.test('framework prefixes escape $ for dotenv-expand; json is plain', async t => {
  const vite = parseEnv(renderEnv(routes, 'http://localhost:4010', { prefix: 'VITE_' }))
  t.equal(vite.get('VITE_API_BAAS_CUSTOMER_CARD_LOCK'), 'http://localhost:4010/baas/debit-cards/\\$CARD_ID/lock')
  const custom = parseEnv(renderEnv(routes, 'http://localhost:4010', { prefix: 'MY_' }))
  t.equal(custom.get('MY_API_BAAS_REISSUE'), 'http://localhost:4010/baas/debit-cards/$CARD_ID/reissue', 'other prefixes keep $ as is')
  const forced = parseEnv(renderEnv(routes, 'http://localhost:4010', { prefix: 'NEXT_PUBLIC_', escapeDollar: false }))
  t.equal(forced.get('NEXT_PUBLIC_API_BAAS_REISSUE'), 'http://localhost:4010/baas/debit-cards/$CARD_ID/reissue')
  const json = JSON.parse(renderEnv(routes, 'http://localhost:4010', { prefix: 'REACT_APP_', format: 'json' })) as Record<string, string>
  t.equal(json.REACT_APP_API_BAAS_SET_PIN, 'http://localhost:4010/baas/debit-cards/$CARD_ID/set-pin-url')
})

t.test('moved routes are exported where they are; a moved method travels with the value', async t => {
  const moved = resolveRoutes(OPERATIONS, { API_BAAS_CUSTOMER_CARD_LOCK: 'PUT /v2/cards/{cardId}/freeze', API_BAAS_CUSTOMER: 'https://bank.example/api/me' })
  const env = parseEnv(renderEnv(moved, 'http://mock:4010'))
  t.equal(env.get('API_BAAS_CUSTOMER_CARD_LOCK'), '"PUT http://mock:4010/v2/cards/$CARD_ID/freeze"')
  t.equal(env.get('API_BAAS_CUSTOMER'), 'http://mock:4010/api/me')
})

t.test('GET /__mock/env answers text/plain for the URL the client used', async t => {
  const { call } = await buildTestApp(t)
  const res = await call('GET', '/__mock/env', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mock.dev.example', 'x-forwarded-prefix': '/bank' } })
  t.equal(res.status, 200)
  t.match(res.headers['content-type'], /^text\/plain/)
  t.equal(parseEnv(res.text).get('API_BAAS_REISSUE'), 'https://mock.dev.example/bank/baas/debit-cards/$CARD_ID/reissue')
  const vite = await call('GET', '/__mock/env?prefix=VITE_&baseUrl=http://localhost:5173/mock')
  t.equal(parseEnv(vite.text).get('VITE_API_BAAS_CUSTOMER'), 'http://localhost:5173/mock/baas/customers')
  const json = await call('GET', '/__mock/env?format=json&escape=true')
  t.match(json.headers['content-type'], /^application\/json/)
  t.equal(json.body.API_BAAS_CUSTOMER, 'http://localhost:80/baas/customers')
})

t.test('--public-url wins over the request; bad options are 400', async t => {
  const { call } = await buildTestApp(t, { publicUrl: 'https://public.example/' })
  t.equal(parseEnv((await call('GET', '/__mock/env')).text).get('API_BAAS_CUSTOMER'), 'https://public.example/baas/customers')
  for (const query of ['prefix=VITE-', 'format=yaml', 'baseUrl=ftp://x', 'nope=1']) {
    const res = await call('GET', `/__mock/env?${query}`)
    t.equal(res.status, 400, query)
    t.equal(res.body.code, 'validation_failed', query)
  }
})
