import t from 'tap'
import { OPERATIONS, type Operation } from '../src/core/operations.js'
import { envParam, paramName, parseRouteValue, resolveRoutes, RouteConfigError, type ResolvedRoute } from '../src/config/route-config.js'
import { buildTestApp, TOKENS } from './helpers/app.js'

const route = (overrides: Record<string, string>, id: string) => {
  const found = resolveRoutes(OPERATIONS, overrides).find(r => r.operation.id === id)
  if (found === undefined) throw new Error(`no operation ${id}`)
  return found
}

t.test('parameter names: $CARD_ID, {cardId}, {card_id} and :cardId are the same parameter', async t => {
  for (const raw of ['CARD_ID', 'cardId', 'card_id']) t.equal(paramName(raw), 'cardId', raw)
  t.equal(paramName('TRANSFER_ID'), 'transferId')
  t.equal(envParam('transferId'), 'TRANSFER_ID')
  for (const value of ['/v2/cards/$CARD_ID/lock', '/v2/cards/{cardId}/lock', '/v2/cards/:cardId/lock', '/v2/cards/{card_id}/lock']) {
    t.same(parseRouteValue('API_BAAS_CUSTOMER_CARD_LOCK', value), { method: undefined, segments: '/v2/cards/:cardId/lock', params: ['cardId'] }, value)
  }
})

t.test('full URLs keep only their path; a method may lead; trailing slashes go', async t => {
  t.same(parseRouteValue('X', 'https://api.example.com/baas/debit-cards/{cardId}/lock'), { method: undefined, segments: '/baas/debit-cards/:cardId/lock', params: ['cardId'] })
  t.same(parseRouteValue('X', 'http://localhost:8080/v1/transfers/$TRANSFER_ID/'), { method: undefined, segments: '/v1/transfers/:transferId', params: ['transferId'] })
  t.same(parseRouteValue('X', 'delete  https://api.example.com/x/:transferId'), { method: 'DELETE', segments: '/x/:transferId', params: ['transferId'] })
  t.same(parseRouteValue('X', '  PATCH /x  '), { method: 'PATCH', segments: '/x', params: [] })
  t.same(parseRouteValue('X', '/'), { method: undefined, segments: '/', params: [] })
  t.same(parseRouteValue('X', '//'), { method: undefined, segments: '/', params: [] }, 'slashes alone are the root, not an empty route')
})

t.test('a method a route cannot take is named as such', async t => {
  t.throws(() => parseRouteValue('API_X', 'HEAD /x/$CARD_ID'), { name: 'RouteConfigError', message: 'API_X=HEAD /x/$CARD_ID: HEAD is not a method a route can take (GET, POST, PUT, PATCH or DELETE).' })
})

t.test('values that are not routes are refused with the configuration name', async t => {
  const bad: [string, RegExp][] = [
    ['', /API_X is empty/],
    ['baas/customers', /must be a path starting with \/ or a full URL/],
    ['/x?page=1', /cannot contain a query/],
    ['/x#top', /cannot contain a query, a fragment/],
    ['/x/$card-id', /write parameters as \$NAME, \{name\} or :name/],
    ['/x/$CARD_IDs/lock', /write parameters as/],
    ['/x/{cardId', /write parameters as/],
    ['https://', /not a valid URL/]
  ]
  for (const [value, message] of bad) t.throws(() => parseRouteValue('API_X', value), { name: 'RouteConfigError', message }, JSON.stringify(value))
})

t.test('resolveRoutes: defaults, and overrides that move an operation', async t => {
  const defaults = resolveRoutes(OPERATIONS, {})
  t.equal(defaults.length, OPERATIONS.length)
  const del = defaults.find(r => r.operation.id === 'deleteScheduledTransfer')
  t.match(del, { method: 'PUT', url: '/baas/scheduled-transfers/:transferId/delete', envPath: '/baas/scheduled-transfers/$TRANSFER_ID/delete', overridden: false })
  t.ok(defaults.every(r => r.overridden === false))

  const moved = route({ API_BAAS_SCHEDULED_TRANSFER_DELETE: 'DELETE https://bank.example/v2/transfers/{transferId}' }, 'deleteScheduledTransfer')
  t.match(moved, { method: 'DELETE', url: '/v2/transfers/:transferId', envPath: '/v2/transfers/$TRANSFER_ID', overridden: true })
  t.match(route({ API_BAAS_CUSTOMER_CARD_LOCK: '/cards/:cardId/freeze' }, 'lockCard'), { method: 'POST', url: '/cards/:cardId/freeze' }, 'without a method the default method stays')
  const shared = resolveRoutes(OPERATIONS, { API_BAAS_CUSTOMER: '/v2/me' }).filter(r => r.operation.configName === 'API_BAAS_CUSTOMER')
  t.same(shared.map(r => [r.method, r.url]), [['GET', '/v2/me'], ['PUT', '/v2/me']], 'a shared name moves both operations')
  const where = (routes: readonly ResolvedRoute[]) => routes.map(r => [r.operation.id, r.method, r.url, r.overridden])
  t.same(where(resolveRoutes(OPERATIONS, { API_UNKNOWN_NAME: '/x', API_BAAS_SCHEDULED_TRANSFERS: undefined } as Record<string, string | undefined>)), where(defaults),
    'unknown names and undefined values are ignored: every route stays at its default')
})

t.test('resolveRoutes refuses a method on a shared configuration name', async t => {
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_CUSTOMER: 'GET /v2/me' }), {
    name: 'RouteConfigError', message: /API_BAAS_CUSTOMER names 2 operations \(GET getCustomer, PUT updateCustomer\); give it a path without a method/
  })
})

t.test('an operation\'s one path parameter may have any name: the router gives it to the operation under its own', async t => {
  for (const value of ['/api/v2/cards/:id/freeze', '/api/v2/cards/{id}/freeze', '/api/v2/cards/$ID/freeze', 'https://bank.example/api/v2/cards/:id/freeze']) {
    t.match(route({ API_BAAS_CUSTOMER_CARD_LOCK: value }, 'lockCard'), { method: 'POST', url: '/api/v2/cards/:cardId/freeze', envPath: '/api/v2/cards/$ID/freeze' }, value)
  }
  t.match(route({ API_BAAS_SCHEDULED_TRANSFER: 'GET /t/{cardId}' }, 'getScheduledTransfer'), { url: '/t/:transferId' }, 'whatever the name says')
  t.match(route({ API_BAAS_STATEMENT_BY_EMAIL: '/statements/{statement}/email' }, 'sendStatementByEmail'), { url: '/statements/:statementId/email' })
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_CUSTOMER_CARD_LOCK: '/cards/:id/freeze', API_BAAS_CUSTOMER_CARD_UNLOCK: 'POST /cards/{cardId}/freeze' }), {
    message: /API_BAAS_CUSTOMER_CARD_UNLOCK \(unlockCard\) and API_BAAS_CUSTOMER_CARD_LOCK \(lockCard\) both answer POST \/cards\/:cardId\/freeze/
  }, 'differently named, the same route')
})

t.test('resolveRoutes refuses missing or extra path parameters', async t => {
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFER: '/transfers/current' }), {
    message: 'API_BAAS_SCHEDULED_TRANSFER=/transfers/current: getScheduledTransfer takes one parameter, $TRANSFER_ID (named as you like).'
  })
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFER: '/transfers/{year}/{id}' }), { message: /takes one parameter, \$TRANSFER_ID \(named as you like\), not \$YEAR, \$ID\.$/ })
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFERS: '/transfers/{transferId}' }), { message: /listScheduledTransfers takes no parameters, not \$TRANSFER_ID/ })
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFER_CANCEL: '/t/{transferId}/{transferId}/cancel' }), { name: 'RouteConfigError', message: /more than once/ },
    'a parameter written twice is refused')
})

t.test('conflicting routes are an error naming both configuration names', async t => {
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFER_DELETE: 'GET /baas/scheduled-transfers/{transferId}' }), {
    name: 'RouteConfigError',
    message: /API_BAAS_SCHEDULED_TRANSFER \(getScheduledTransfer\) and API_BAAS_SCHEDULED_TRANSFER_DELETE \(deleteScheduledTransfer\) both answer GET/
  })
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFER_UPDATE: '/baas/scheduled-transfers/$TRANSFER_ID/cancel' }), {
    message: /API_BAAS_SCHEDULED_TRANSFER_UPDATE \(updateScheduledTransfer\) and API_BAAS_SCHEDULED_TRANSFER_CANCEL \(cancelScheduledTransfer\)/
  }, 'parameter names do not tell routes apart')
  t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFERS: 'POST https://bank.example/mfa/verify/' }), {
    message: /API_PHONE_VERIFICATION_VERIFY_CODE \(verifyPhoneVerificationCode\) and API_BAAS_SCHEDULED_TRANSFERS \(listScheduledTransfers\) both answer POST \/mfa\/verify/
  }, 'a full URL with a trailing slash still collides')
})

t.test('an operation cannot move onto the mock\'s own routes', async t => {
  for (const path of ['/healthz', '/docs/json', '/openapi.json', '/__mock/state', '/__mock']) {
    t.throws(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFERS: path }), { name: 'RouteConfigError', message: /^API_BAAS_SCHEDULED_TRANSFERS=\S+: \S+ is the mock's own/ }, path)
  }
  t.doesNotThrow(() => resolveRoutes(OPERATIONS, { API_BAAS_SCHEDULED_TRANSFERS: '/documents/transfers' }), 'a path that only starts alike is fine')
})

t.test('every route problem is reported at once, one line each', async t => {
  const error = t.throws(() => resolveRoutes(OPERATIONS, {
    API_BAAS_CUSTOMER: 'GET /v2/me',
    API_BAAS_SCHEDULED_TRANSFER: '/transfers/current',
    API_BAAS_REISSUE: 'GET /cards/$CARD_ID/reissue',
    API_BAAS_SCHEDULED_TRANSFERS: '/healthz',
    API_BAAS_SET_PIN: 'POST /baas/debit-cards/{id}/lock'
  })) as RouteConfigError
  t.equal(error.name, 'RouteConfigError')
  t.same(error.problems, [
    'API_BAAS_CUSTOMER names 2 operations (GET getCustomer, PUT updateCustomer); give it a path without a method.',
    'API_BAAS_REISSUE=GET /cards/$CARD_ID/reissue: reissueCard takes a JSON body, which a GET request cannot carry; use POST, PUT, PATCH or DELETE.',
    'API_BAAS_SCHEDULED_TRANSFER=/transfers/current: getScheduledTransfer takes one parameter, $TRANSFER_ID (named as you like).',
    'API_BAAS_CUSTOMER_CARD_LOCK (lockCard) and API_BAAS_SET_PIN (createSetPinUrl) both answer POST /baas/debit-cards/:cardId/lock; move one of them.',
    'API_BAAS_SCHEDULED_TRANSFERS=/healthz: /healthz is the mock\'s own (control plane, docs, contract or health); choose another path.'
  ], 'the shared name once, though it names two operations')
  t.equal(error.message, ['Invalid routes, 5 problems:', ...error.problems.map(p => `  ${p}`)].join('\n'))
  t.equal(new RouteConfigError(Array.from({ length: 23 }, (_, i) => `problem ${i}`)).message.split('\n').slice(-2).join('\n'), '  problem 19\n  and 3 more', 'twenty listed, the rest counted')
})

t.test('the error type is exported for callers to tell configuration errors apart', async t => {
  const op: Operation = { id: 'x', method: 'GET', path: '/x', configName: 'API_X', tag: 'Customers', summary: '', description: '', success: { status: 200, schema: 'Problem', description: '' }, errors: [] }
  t.throws(() => resolveRoutes([op, { ...op, id: 'y', configName: 'API_Y' }], {}), RouteConfigError, 'two defaults on one route')
})

t.test('the app serves a moved route there, not at its default, and documents it', async t => {
  const { call } = await buildTestApp(t, { routes: { API_BAAS_SCHEDULED_TRANSFER_DELETE: 'DELETE /v2/transfers/{transferId}' } })
  const old = await call('PUT', '/baas/scheduled-transfers/sxfer_maya_dentist/delete', { token: TOKENS.maya })
  t.equal(old.status, 404)
  t.equal(old.body.code, 'route_not_found')
  const res = await call('DELETE', '/v2/transfers/sxfer_maya_dentist', { token: TOKENS.maya })
  t.equal(res.status, 200)
  t.same(res.body, { id: 'sxfer_maya_dentist', deleted: true })
  t.equal((await call('GET', '/baas/scheduled-transfers/sxfer_maya_dentist', { token: TOKENS.maya })).status, 404, 'it is gone')

  const doc = (await call('GET', '/openapi.json')).body
  t.equal(doc.paths['/v2/transfers/{transferId}']?.delete?.operationId, 'deleteScheduledTransfer')
  t.notOk(doc.paths['/baas/scheduled-transfers/{transferId}/delete'], 'the default path is no longer documented')
  t.equal(doc.paths['/baas/scheduled-transfers/{transferId}/cancel']?.post?.operationId, 'cancelScheduledTransfer', 'the others stay')
})

t.test('a route whose one parameter the team named :id locks the card the path names', async t => {
  const { call } = await buildTestApp(t, { routes: { API_BAAS_CUSTOMER_CARD_LOCK: '/api/v2/cards/:id/freeze' } })
  const res = await call('POST', '/api/v2/cards/card_maya_virtual/freeze', { token: TOKENS.maya })
  t.equal(res.status, 200)
  t.match(res.body, { id: 'card_maya_virtual', status: 'LOCKED' })
  const state = (await call('GET', '/__mock/state')).body as { debitCards: { id: string; status: string }[] }
  t.equal(state.debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED', 'the card is locked')
  t.equal((await call('POST', '/api/v2/cards/card_nope/freeze', { token: TOKENS.maya })).body.code, 'card_not_found', 'the id reaches the operation')
  const doc = (await call('GET', '/openapi.json')).body
  t.same(doc.paths['/api/v2/cards/{cardId}/freeze']?.post?.parameters?.map((p: { name: string; in: string }) => [p.in, p.name]).filter(([where]: string[]) => where === 'path'), [['path', 'cardId']],
    'documented under the operation\'s parameter name')
})
