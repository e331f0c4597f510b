import type { Test } from 'tap'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import { OPERATIONS, type OperationId } from '../../src/core/operations.js'
import { TEST_NOW } from '../helpers/app.js'
import { binOf, OPENAPI, startTool, stopTool } from './tools.js'

/** Starts Prism's validating proxy in front of `upstream` on a loopback port of its choosing; resolves with its URL. */
function startPrism (t: Test, upstream: string): Promise<string> {
  const prism = startTool(binOf('@stoplight/prism-cli', 'prism'), ['proxy', OPENAPI, upstream, '--errors', 'false', '--host', '127.0.0.1', '--port', '0'])
  t.teardown(() => stopTool(prism))
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 60 s:\n${output}`)), 60_000)
    const read = (chunk: Buffer): void => {
      output += chunk.toString()
      const listening = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (listening?.[1] !== undefined) { clearTimeout(timer); resolve(listening[1]) }
    }
    prism.stdout?.on('data', read)
    prism.stderr?.on('data', read)
    prism.once('exit', code => { clearTimeout(timer); reject(new Error(`Prism exited with ${code}:\n${output}`)) })
  })
}

t.test('Prism\'s validating proxy finds no violation over all 17 operations, a success and an error each', async t => {
  // Strict auth, so that a missing token is a 401 every operation declares.
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent', auth: 'strict' }), { logger: false })
  t.teardown(() => app.close())
  const upstream = await app.listen({ host: '127.0.0.1', port: 0 })
  const proxy = await startPrism(t, upstream)

  const session = 'prism-flow'
  const violations: string[] = []
  const covered = { success: new Set<string>(), error: new Set<string>() }
  const call = async (op: OperationId, method: string, path: string, status: number, options: { token?: string | null; body?: unknown; key?: string; replayed?: boolean } = {}): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any -- answers read as JSON
    const { token = 'tok_maya', body } = options
    const headers: Record<string, string> = { 'x-mock-session': session }
    if (options.key !== undefined) headers['idempotency-key'] = options.key
    if (token !== null) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(proxy + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await res.text()
    const found = res.headers.get('sl-violations')
    if (found !== null) violations.push(`${op} ${method} ${path} → ${res.status}: ${found}`)
    t.equal(res.status, status, `${op} ${method} ${path} → ${status}`, { body: text })
    if (options.replayed !== undefined) t.equal(res.headers.get('idempotent-replayed'), options.replayed ? 'true' : null, `${op}: ${options.replayed ? 'a replay' : 'not a replay'}`)
    ;(res.status < 400 ? covered.success : covered.error).add(op)
    return text === '' ? undefined : JSON.parse(text)
  }

  await call('getCustomer', 'GET', '/baas/customers', 200)
  await call('getCustomer', 'GET', '/baas/customers', 401, { token: null })
  const address = { line1: '500 Howard St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }
  await call('updateCustomer', 'PUT', '/baas/customers', 200, { body: { email: 'maya@example.org', phone: '+14155550123', address } })
  await call('updateCustomer', 'PUT', '/baas/customers', 422, { body: { email: 'maya@example.org', phone: '+14155550123', address, firstName: 'Mia' } })
  await call('requestPhysicalCard', 'PUT', '/baas/debit-cards/physical', 201, { token: 'tok_jordan' })
  await call('requestPhysicalCard', 'PUT', '/baas/debit-cards/physical', 409, { token: 'tok_riley' })
  // Actions without a body: what Prism reported as "Body parameter is required".
  await call('lockCard', 'POST', '/baas/debit-cards/card_maya_virtual/lock', 200)
  await call('lockCard', 'POST', '/baas/debit-cards/card_sam_lost/lock', 409, { token: 'tok_sam', key: 'prism-closed' })
  await call('lockCard', 'POST', '/baas/debit-cards/card_sam_lost/lock', 409, { token: 'tok_sam', key: 'prism-closed', replayed: true })
  await call('unlockCard', 'PUT', '/baas/debit-cards/card_maya_virtual/unlock', 200)
  await call('unlockCard', 'PUT', '/baas/debit-cards/card_nope/unlock', 404)
  await call('createSetPinUrl', 'POST', '/baas/debit-cards/card_maya_physical/set-pin-url', 200)
  await call('createSetPinUrl', 'POST', '/baas/debit-cards/card_sam_lost/set-pin-url', 409, { token: 'tok_sam' })
  await call('reissueCard', 'POST', '/baas/debit-cards/card_maya_virtual/reissue', 201, { body: { reason: 'DAMAGED' } })
  await call('reissueCard', 'POST', '/baas/debit-cards/card_maya_virtual/reissue', 409, { body: { reason: 'DAMAGED' } })
  await call('sendStatementByEmail', 'POST', '/baas/statements/stmt_maya_2026_10/send-by-email', 202)
  await call('sendStatementByEmail', 'POST', '/baas/statements/stmt_sam_2026_10/send-by-email', 404)
  await call('sendPhoneVerificationCode', 'POST', '/mfa/send-code', 202)
  await call('sendPhoneVerificationCode', 'POST', '/mfa/send-code', 429)
  const sent = await (await fetch(`${upstream}/__mock/outbox/latest-code`, { headers: { 'x-mock-session': session } })).json() as { code: string }
  await call('verifyPhoneVerificationCode', 'POST', '/mfa/verify', 422, { body: { code: sent.code === '000000' ? '111111' : '000000' } })
  await call('verifyPhoneVerificationCode', 'POST', '/mfa/verify', 200, { body: { code: sent.code } })

  const schedule = { frequency: 'WEEKLY', startDate: '2026-11-30' }
  const internalBody = { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 1000, ...schedule }
  const internal = await call('createInternalScheduledTransfer', 'POST', '/baas/scheduled-transfers/internal', 201, { body: internalBody, key: 'prism-1', replayed: false })
  // A retry with the key: the replay, its Idempotent-Replayed header and the key's problems are in the contract too.
  t.same(await call('createInternalScheduledTransfer', 'POST', '/baas/scheduled-transfers/internal', 201, { body: internalBody, key: 'prism-1', replayed: true }), internal)
  t.equal((await call('createInternalScheduledTransfer', 'POST', '/baas/scheduled-transfers/internal', 422, { body: { ...internalBody, amount: 2000 }, key: 'prism-1' })).code, 'idempotency_key_reused')
  await call('createInternalScheduledTransfer', 'POST', '/baas/scheduled-transfers/internal', 422,
    { body: { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_checking', amount: 1000, ...schedule } })
  const counterparty = { name: 'Bayview Properties', routingNumber: '021000021', accountNumber: '000123458841', accountType: 'CHECKING' }
  const ach = await call('createAchScheduledTransfer', 'POST', '/baas/scheduled-transfers/ach', 201,
    { body: { fromAccountId: 'acct_maya_checking', counterparty, amount: 5000, ...schedule } })
  await call('createAchScheduledTransfer', 'POST', '/baas/scheduled-transfers/ach', 422,
    { body: { fromAccountId: 'acct_maya_checking', counterparty: { ...counterparty, routingNumber: '021000022' }, amount: 5000, ...schedule } })
  const list = await call('listScheduledTransfers', 'GET', '/baas/scheduled-transfers', 200)
  t.same(new Set(list.data.map((x: { type: string }) => x.type)), new Set(['INTERNAL', 'ACH']), 'the list holds both kinds, each checked against its branch of the oneOf')
  // Paged: a page with a nextCursor, and the page it leads to.
  const firstPage = await call('listScheduledTransfers', 'GET', '/baas/scheduled-transfers?limit=2', 200)
  t.type(firstPage.nextCursor, 'string', 'a first page of two says where the next starts')
  const secondPage = await call('listScheduledTransfers', 'GET', `/baas/scheduled-transfers?limit=2&cursor=${firstPage.nextCursor}`, 200)
  t.same([...firstPage.data, ...secondPage.data].map((x: { id: string }) => x.id), list.data.slice(0, 4).map((x: { id: string }) => x.id))
  t.equal((await call('listScheduledTransfers', 'GET', `/baas/scheduled-transfers?status=ACTIVE&cursor=${firstPage.nextCursor}`, 400)).code, 'invalid_cursor')
  await call('listScheduledTransfers', 'GET', '/baas/scheduled-transfers', 401, { token: null })
  await call('getScheduledTransfer', 'GET', `/baas/scheduled-transfers/${ach.id}`, 200)
  await call('getScheduledTransfer', 'GET', '/baas/scheduled-transfers/sxfer_nope', 404)
  await call('updateScheduledTransfer', 'POST', `/baas/scheduled-transfers/${ach.id}`, 200, { body: { amount: 6000 } })
  await call('updateScheduledTransfer', 'POST', '/baas/scheduled-transfers/sxfer_maya_allowance', 409, { body: { amount: 6000 } })
  await call('cancelScheduledTransfer', 'POST', `/baas/scheduled-transfers/${internal.id}/cancel`, 200)
  await call('cancelScheduledTransfer', 'POST', `/baas/scheduled-transfers/${internal.id}/cancel`, 409)
  await call('deleteScheduledTransfer', 'PUT', `/baas/scheduled-transfers/${internal.id}/delete`, 200)
  await call('deleteScheduledTransfer', 'PUT', `/baas/scheduled-transfers/${internal.id}/delete`, 404)

  t.same(violations, [], 'no sl-violations header')
  const all = OPERATIONS.map(op => op.id).sort()
  t.same([...covered.success].sort(), all, 'every operation answered a success')
  t.same([...covered.error].sort(), all, 'every operation answered an error')
})
