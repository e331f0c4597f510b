/**
 * One corpus of requests for every way in: each runs, in order, against a fresh mock with the same
 * seed and clock, so ids, codes and balances come out the same whichever transport carried them.
 */
export interface CorpusRequest {
  name: string
  method: string
  path: string
  body?: unknown
  /** Sent as is (malformed JSON, another media type). */
  raw?: { text: string; contentType: string }
  headers?: Record<string, string>
}

const json = { 'content-type': 'application/json' }
const maya = { authorization: 'Bearer tok_maya' }
const session = (id: string): Record<string, string> => ({ 'x-mock-session': id })

export const CORPUS: CorpusRequest[] = [
  // Customers
  { name: 'get the customer', method: 'GET', path: '/baas/customers', headers: maya },
  { name: 'update the contact details', method: 'PUT', path: '/baas/customers', headers: maya, body: { email: 'maya@example.org', phone: '+14155550123', address: { line1: '1 Main St', city: 'Oakland', state: 'CA', postalCode: '94607', country: 'US' } } },
  { name: 'a changed name is not updatable', method: 'PUT', path: '/baas/customers', headers: maya, body: { firstName: 'May', email: 'maya@example.org', phone: '+14155550123', address: { line1: '1 Main St', city: 'Oakland', state: 'CA', postalCode: '94607', country: 'US' } } },
  { name: 'an unknown field is refused', method: 'PUT', path: '/baas/customers', headers: maya, body: { nickname: 'm' } },
  // Debit cards
  { name: 'lock a card', method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', headers: maya },
  { name: 'lock it again (no change)', method: 'POST', path: '/baas/debit-cards/card_maya_virtual/lock', headers: maya },
  { name: 'unlock it', method: 'PUT', path: '/baas/debit-cards/card_maya_virtual/unlock', headers: maya },
  { name: 'lock another customer\'s card', method: 'POST', path: '/baas/debit-cards/card_jordan_virtual/lock', headers: maya },
  { name: 'lock with the wrong method', method: 'GET', path: '/baas/debit-cards/card_maya_virtual/lock', headers: maya },
  { name: 'request a physical card (has one)', method: 'PUT', path: '/baas/debit-cards/physical', headers: { authorization: 'Bearer tok_maya' }, body: {} },
  { name: 'request a physical card (new)', method: 'PUT', path: '/baas/debit-cards/physical', headers: { authorization: 'Bearer tok_jordan' }, body: { shippingMethod: 'EXPRESS' } },
  { name: 'reissue a damaged card', method: 'POST', path: '/baas/debit-cards/card_maya_virtual/reissue', headers: maya, body: { reason: 'DAMAGED' } },
  { name: 'reissue with an unknown reason', method: 'POST', path: '/baas/debit-cards/card_maya_physical/reissue', headers: maya, body: { reason: 'BORED' } },
  { name: 'a set-PIN link', method: 'POST', path: '/baas/debit-cards/card_maya_physical/set-pin-url', headers: maya },
  { name: 'a set-PIN link for a closed card', method: 'POST', path: '/baas/debit-cards/card_maya_virtual/set-pin-url', headers: maya },
  // Statements
  { name: 'e-mail a statement', method: 'POST', path: '/baas/statements/stmt_maya_2026_10/send-by-email', headers: maya },
  { name: 'e-mail another customer\'s statement', method: 'POST', path: '/baas/statements/stmt_sam_2026_10/send-by-email', headers: maya },
  // Phone verification
  { name: 'send a code', method: 'POST', path: '/mfa/send-code', headers: maya, body: { channel: 'SMS' } },
  { name: 'send again too soon', method: 'POST', path: '/mfa/send-code', headers: maya, body: {} },
  { name: 'a wrong code', method: 'POST', path: '/mfa/verify', headers: maya, body: { code: '000000' } },
  { name: 'a code that is no code', method: 'POST', path: '/mfa/verify', headers: maya, body: { code: 'abc' } },
  // Scheduled transfers
  { name: 'list transfers', method: 'GET', path: '/baas/scheduled-transfers?status=ACTIVE', headers: maya },
  { name: 'list with a bad filter', method: 'GET', path: '/baas/scheduled-transfers?status=SLEEPING', headers: maya },
  { name: 'get a transfer', method: 'GET', path: '/baas/scheduled-transfers/sxfer_maya_rent', headers: maya },
  { name: 'get an unknown transfer', method: 'GET', path: '/baas/scheduled-transfers/sxfer_nope', headers: maya },
  { name: 'schedule an internal transfer', method: 'POST', path: '/baas/scheduled-transfers/internal', headers: maya, body: { amount: 5000, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'MONTHLY', startDate: '2027-01-15' } },
  { name: 'schedule between the same account', method: 'POST', path: '/baas/scheduled-transfers/internal', headers: maya, body: { amount: 5000, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_checking', frequency: 'MONTHLY', startDate: '2027-01-15' } },
  { name: 'schedule an ACH transfer', method: 'POST', path: '/baas/scheduled-transfers/ach', headers: maya, body: { amount: 12550, fromAccountId: 'acct_maya_checking', counterparty: { name: 'Landlord LLC', routingNumber: '021000021', accountNumber: '123456789', accountType: 'CHECKING' }, secCode: 'PPD', frequency: 'ONCE', startDate: '2027-01-12' } },
  { name: 'an ACH transfer with a bad routing number', method: 'POST', path: '/baas/scheduled-transfers/ach', headers: maya, body: { amount: 12550, fromAccountId: 'acct_maya_checking', counterparty: { name: 'Landlord LLC', routingNumber: '021000022', accountNumber: '123456789', accountType: 'CHECKING' }, secCode: 'PPD', frequency: 'ONCE', startDate: '2027-01-12' } },
  { name: 'update a transfer', method: 'POST', path: '/baas/scheduled-transfers/sxfer_maya_rent', headers: maya, body: { amount: 190000 } },
  { name: 'cancel a transfer', method: 'POST', path: '/baas/scheduled-transfers/sxfer_maya_savings/cancel', headers: maya },
  { name: 'cancel it again', method: 'POST', path: '/baas/scheduled-transfers/sxfer_maya_savings/cancel', headers: maya },
  { name: 'delete a transfer', method: 'PUT', path: '/baas/scheduled-transfers/sxfer_maya_allowance/delete', headers: maya },
  { name: 'delete it again', method: 'PUT', path: '/baas/scheduled-transfers/sxfer_maya_allowance/delete', headers: maya },
  // Idempotency keys: the replay is the first answer's bytes whichever way in carried either
  { name: 'schedule with an Idempotency-Key', method: 'POST', path: '/baas/scheduled-transfers/internal', headers: { ...maya, 'idempotency-key': 'corpus-1' }, body: { amount: 700, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'WEEKLY', startDate: '2027-01-20' } },
  { name: 'retry it with the same key (a replay)', method: 'POST', path: '/baas/scheduled-transfers/internal', headers: { ...maya, 'idempotency-key': 'corpus-1' }, body: { amount: 700, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'WEEKLY', startDate: '2027-01-20' } },
  { name: 'the same key with another body', method: 'POST', path: '/baas/scheduled-transfers/internal', headers: { ...maya, 'idempotency-key': 'corpus-1' }, body: { amount: 701, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'WEEKLY', startDate: '2027-01-20' } },
  { name: 'a domain refusal with a key, replayed', method: 'POST', path: '/baas/debit-cards/card_sam_lost/lock', headers: { authorization: 'Bearer tok_sam', 'idempotency-key': 'corpus-2' } },
  { name: 'the refusal again', method: 'POST', path: '/baas/debit-cards/card_sam_lost/lock', headers: { authorization: 'Bearer tok_sam', 'idempotency-key': 'corpus-2' } },
  { name: 'an Idempotency-Key too long', method: 'POST', path: '/baas/debit-cards/card_maya_physical/lock', headers: { ...maya, 'idempotency-key': 'k'.repeat(256) } },
  // Bodies the mock refuses
  { name: 'malformed JSON', method: 'POST', path: '/mfa/send-code', headers: maya, raw: { text: '{"channel":', contentType: 'application/json' } },
  { name: 'not JSON', method: 'POST', path: '/mfa/send-code', headers: maya, raw: { text: 'channel=SMS', contentType: 'application/x-www-form-urlencoded' } },
  { name: 'a prototype key', method: 'POST', path: '/mfa/send-code', headers: maya, raw: { text: '{"__proto__":{"x":1}}', contentType: 'application/json' } },
  { name: 'an unknown route', method: 'GET', path: '/baas/nothing-here', headers: maya },
  { name: 'a path whose %-escape does not decode', method: 'POST', path: '/baas/debit-cards/%zz/lock', headers: maya },
  // Prefer and response examples
  { name: 'Prefer: code=503', method: 'GET', path: '/baas/customers', headers: { ...maya, prefer: 'code=503' } },
  { name: 'Prefer: code=204', method: 'POST', path: '/baas/debit-cards/card_maya_physical/lock', headers: { ...maya, prefer: 'code=204' } },
  { name: 'Prefer: an unknown example', method: 'GET', path: '/baas/customers', headers: { ...maya, prefer: 'example=nope' } },
  { name: 'Prefer: a response example', method: 'POST', path: '/baas/debit-cards/card_maya_physical/lock', headers: { ...maya, prefer: 'example=processor-timeout, delay=0' } },
  { name: 'Prefer: a bad code', method: 'GET', path: '/baas/customers', headers: { ...maya, prefer: 'code=abc' } },
  // Sessions and the control plane
  { name: 'lock in session t1', method: 'POST', path: '/baas/debit-cards/card_maya_physical/lock', headers: { ...maya, ...session('t1') } },
  { name: 'a malformed session id', method: 'GET', path: '/baas/customers', headers: { ...maya, 'x-mock-session': 'bad id!' } },
  { name: 'the state of t1', method: 'GET', path: '/__mock/state', headers: session('t1') },
  { name: 'reset t1 to another scenario', method: 'POST', path: '/__mock/reset', headers: { ...json, ...session('t1') }, body: { scenario: 'new-customer' } },
  { name: 'reset to an unknown scenario', method: 'POST', path: '/__mock/reset', headers: session('t1'), body: { scenario: 'nope' } },
  { name: 'the scenarios', method: 'GET', path: '/__mock/scenarios' },
  { name: 'the .env export as JSON', method: 'GET', path: '/__mock/env?prefix=VITE_&format=json&baseUrl=http://mock.test' },
  { name: 'ship a card', method: 'POST', path: '/__mock/simulations/cards/card_jordan_virtual/ship' },
  { name: 'run a transfer now', method: 'POST', path: '/__mock/simulations/transfers/sxfer_maya_rent/run' },
  { name: 'return its latest ACH execution', method: 'POST', path: '/__mock/simulations/transfers/sxfer_maya_rent/return', body: { returnCode: 'R01' } },
  { name: 'return with an unknown code', method: 'POST', path: '/__mock/simulations/transfers/sxfer_maya_rent/return', body: { returnCode: 'R99' } },
  { name: 'return an internal transfer', method: 'POST', path: '/__mock/simulations/transfers/sxfer_maya_savings/return', body: { returnCode: 'R01' } },
  { name: 'fail the next run of an unknown transfer', method: 'POST', path: '/__mock/simulations/transfers/sxfer_nope/fail-next', body: {} },
  { name: 'an unknown PIN link', method: 'GET', path: '/__mock/pin/nope' },
  { name: 'the latest code sent', method: 'GET', path: '/__mock/outbox/latest-code?phone=%2B14155550123' },
  { name: 'no code sent to another number', method: 'GET', path: '/__mock/outbox/latest-code?phone=%2B14155550199' },
  { name: 'the outbox, SMS only', method: 'GET', path: '/__mock/outbox?channel=sms' },
  { name: 'a fault on lock', method: 'POST', path: '/__mock/faults', body: { operation: 'lockCard', status: 503, count: 1 } },
  { name: 'a fault without status, delay or reset', method: 'POST', path: '/__mock/faults', body: { operation: 'lockCard' } },
  { name: 'the lock the fault answers', method: 'POST', path: '/baas/debit-cards/card_maya_physical/lock', headers: maya },
  { name: 'the fault rules after it fired', method: 'GET', path: '/__mock/faults' },
  { name: 'the clock', method: 'GET', path: '/__mock/clock' },
  { name: 'a month on the clock', method: 'POST', path: '/__mock/clock/advance', body: { by: 'P1M' } },
  { name: 'the clock backwards', method: 'POST', path: '/__mock/clock/advance', body: { by: '-P1D' } },
  { name: 'an advance with neither by nor to', method: 'POST', path: '/__mock/clock/advance' },
  { name: 'the events of the session, oldest first', method: 'GET', path: '/__mock/webhooks/events?order=asc' },
  { name: 'the card events of t1', method: 'GET', path: '/__mock/webhooks/events?type=card.locked', headers: session('t1') },
  { name: 'events after an id no longer held', method: 'GET', path: '/__mock/webhooks/events?after=evt_gone' },
  { name: 'the first page of one event', method: 'GET', path: '/__mock/webhooks/events?limit=1' },
  { name: 'events with a cursor no list gave', method: 'GET', path: '/__mock/webhooks/events?cursor=bm9wZQ' },
  { name: 'a webhook endpoint that is no http URL', method: 'POST', path: '/__mock/webhooks/endpoints', headers: session('hooks'), body: { url: 'ftp://example.com/hooks' } },
  { name: 'a webhook endpoint', method: 'POST', path: '/__mock/webhooks/endpoints', headers: session('hooks'), body: { url: 'http://127.0.0.1:2/hooks', events: ['statement.sent'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
  { name: 'a webhook endpoint for an unknown event type', method: 'POST', path: '/__mock/webhooks/endpoints', headers: session('hooks'), body: { url: 'https://example.com/hooks', events: ['card.lockd'] } },
  { name: 'the webhook endpoints', method: 'GET', path: '/__mock/webhooks/endpoints', headers: session('hooks') },
  { name: 'an unknown webhook endpoint', method: 'GET', path: '/__mock/webhooks/endpoints/ep_nope', headers: session('hooks') },
  { name: 'the webhook deliveries (none: nothing it wants happened)', method: 'GET', path: '/__mock/webhooks/deliveries', headers: session('hooks') },
  { name: 'the webhook deliveries, oldest first, a page of one', method: 'GET', path: '/__mock/webhooks/deliveries?order=asc&limit=1', headers: session('hooks') },
  { name: 'deliveries with a cursor no list gave', method: 'GET', path: '/__mock/webhooks/deliveries?cursor=bm9wZQ', headers: session('hooks') },
  { name: 'retry an unknown delivery', method: 'POST', path: '/__mock/webhooks/deliveries/dlv_nope/retry', headers: session('hooks') },
  { name: 'delete an unknown session', method: 'DELETE', path: '/__mock/sessions/nope' },
  { name: 'an event stream for a malformed session', method: 'GET', path: '/__mock/events?session=no%20spaces' },
  // The dashboard
  { name: 'the dashboard redirects to its folder', method: 'GET', path: '/__mock/ui?session=demo' },
  { name: 'the dashboard page', method: 'GET', path: '/__mock/ui/?session=demo' },
  { name: 'the dashboard script', method: 'GET', path: '/__mock/ui/app.js' },
  { name: 'the dashboard icon', method: 'GET', path: '/__mock/ui/favicon.svg' },
  { name: 'no such dashboard file', method: 'GET', path: '/__mock/ui/secrets.json' },
  { name: 'the state after it all', method: 'GET', path: '/__mock/state' }
]
