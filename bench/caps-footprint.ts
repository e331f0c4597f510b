import { loadCore, OPERATION_HANDLERS } from '../src/core/build.js'
import { CoreServices } from '../src/core/services.js'
import { operationRoutes } from '../src/core/route-definition.js'
import { controlDefinitions } from '../src/control/route.js'
import { CONTROL_ROUTES } from '../src/control/routes.js'
import { createFetchHandler } from '../src/transports/fetch/handler.js'
import { defaultConfig } from '../src/config/config.js'
import { collectGarbage } from '../src/transports/fastify/memory.js'

/**
 * `node dist/bench/caps-footprint.js` (after `tsc -p tsconfig.bench.json`): what one session's
 * world holds once a client has driven it to every per-session cap (docs/reference/limits.md) on a
 * frozen clock: every customer's cards to --max-cards by chained reissues with a set-PIN link
 * before each (--max-pin-links), codes to --max-verifications numbers, 50 ACH transfers (not yet run) per writable customer.
 * Prints the heap per session (the journal and events kept to one entry, as they have bounds of
 * their own), the world's JSON (what --state-dir rewrites with each write) and a GET's time there.
 */
const SESSIONS = Number(process.env.CAPS_SESSIONS ?? 20)
const services = loadCore(defaultConfig({ now: new Date('2026-11-23T15:00:00.000Z'), seed: 1, logLevel: 'silent', journalCap: 1, eventCap: 1 }), CoreServices, {})
const handle = createFetchHandler(services, [...operationRoutes(services, OPERATION_HANDLERS), ...controlDefinitions(services, CONTROL_ROUTES)])
const PERSONAS = { tok_maya: 'card_maya_virtual', tok_jordan: 'card_jordan_virtual', tok_sam: 'card_sam_locked', tok_riley: 'card_riley_virtual' }
/** An ACH transfer from each writable persona's checking account (the largest kind: it has a counterparty). */
const ACH = (account: string): Record<string, unknown> => ({
  fromAccountId: account, amount: 100, frequency: 'WEEKLY', startDate: '2099-01-01', description: 'RENT', memo: 'x'.repeat(80),
  counterparty: { name: 'Bayview Properties', routingNumber: '021000021', accountNumber: '000123458841', accountType: 'CHECKING' }
})
const WRITABLE: Array<[string, string]> = [['tok_maya', 'acct_maya_checking'], ['tok_jordan', 'acct_jordan_checking'], ['tok_sam', 'acct_sam_checking']]

async function call (session: string, token: string, method: string, path: string, body: unknown = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await handle(new Request(`http://localhost${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-mock-session': session }, ...(method === 'GET' ? {} : { body: JSON.stringify(body) })
  }))
  return { status: response.status, json: await response.json() as Record<string, unknown> }
}

/** Every cap reached: what a client hammering one session for as long as it likes leaves behind. */
async function fill (session: string): Promise<Record<string, number>> {
  const refused: Record<string, number> = {}
  const count = (code: unknown): void => { if (typeof code === 'string') refused[code] = (refused[code] ?? 0) + 1 }
  for (const [token, first] of Object.entries(PERSONAS)) {
    let card = first
    for (let i = 0; i < 60; i++) {
      count((await call(session, token, 'POST', `/baas/debit-cards/${card}/set-pin-url`)).json.code)
      const reissued = await call(session, token, 'POST', `/baas/debit-cards/${card}/reissue`, { reason: 'LOST' })
      if (reissued.status !== 201) { count(reissued.json.code); break }
      card = String(reissued.json.id)
    }
  }
  for (let i = 0; i < 30; i++) count((await call(session, 'tok_maya', 'POST', '/mfa/send-code', { phone: `+1415555${1000 + i}` })).json.code)
  for (const [token, account] of WRITABLE) for (let i = 0; i < 60; i++) count((await call(session, token, 'POST', '/baas/scheduled-transfers/ach', ACH(account))).json.code)
  return refused
}

async function getMs (session: string, times = 2000): Promise<number> {
  const began = performance.now()
  for (let i = 0; i < times; i++) await call(session, 'tok_maya', 'GET', '/baas/customers')
  return (performance.now() - began) / times
}

if (!collectGarbage()) throw new Error('needs a runtime that allows gc')
for (let i = 0; i < SESSIONS; i++) await call(`fresh-${i}`, 'tok_maya', 'GET', '/baas/customers')
collectGarbage()
const before = process.memoryUsage().heapUsed
let refused: Record<string, number> = {}
for (let i = 0; i < SESSIONS; i++) refused = await fill(`fresh-${i}`)
collectGarbage()
const perSession = (process.memoryUsage().heapUsed - before) / SESSIONS
const world = services.sessions.peek('fresh-0')?.world
const state = world?.ctx.state
const figures = {
  sessions: SESSIONS,
  refusedInTheLastSession: refused,
  held: { cards: state?.debitCards.size, pinLinks: state?.pinLinks.size, phoneVerifications: state?.phoneVerifications.size, phoneNumbers: state?.phoneSendLog.size, scheduledTransfers: state?.scheduledTransfers.size },
  heapPerSessionKiB: Math.round(perSession / 1024),
  worldJsonKiB: Math.round(JSON.stringify(world?.toData()).length / 1024),
  // Both twice, in turn, so that warming up favours neither.
  getMsFresh: Number(((await getMs('untouched')) && (await getMs('untouched'))).toFixed(3)),
  getMsAtCaps: Number(((await getMs('fresh-0')) && (await getMs('fresh-0'))).toFixed(3))
}
console.log(JSON.stringify(figures, null, 2))
await services.sessions.webhooks.queue.close()
