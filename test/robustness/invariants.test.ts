import fc from 'fast-check'
import t, { type Test } from 'tap'
import { isBankingDay } from '../../src/domain/banking-calendar.js'
import type { Account, Customer, DebitCard, OutboxMessage, PhoneVerification, ScheduledTransfer } from '../../src/domain/model.js'
import { buildTestApp, TOKENS, type TestApp } from '../helpers/app.js'
import { SEED } from './arbitraries.js'

/**
 * Domain invariants over random sequences of API calls, simulations and clock advances, checked
 * after every step against GET /__mock/state (every answer also goes through the contract check).
 */

const SESSION = 'invariants'
const CAPS = { journalCap: 15, outboxCap: 4, maxSessions: 4 }
const MAX_CHECKS = 5
const PERSONAS = ['maya', 'sam', 'jordan', 'riley'] as const
type Persona = typeof PERSONAS[number]
const CUSTOMER_OF: Record<Persona, string> = { maya: 'cus_maya', sam: 'cus_sam', jordan: 'cus_jordan', riley: 'cus_riley' }
const TOKEN_OF_CUSTOMER: Record<string, string> = Object.fromEntries(PERSONAS.map(p => [CUSTOMER_OF[p], TOKENS[p]]))

interface State {
  now: string
  customers: Customer[]
  accounts: Account[]
  debitCards: DebitCard[]
  scheduledTransfers: Omit<ScheduledTransfer, 'nextIndex'>[]
  phoneVerifications: PhoneVerification[]
  outbox: OutboxMessage[]
}

type Action =
  | { kind: 'lock' | 'unlock' | 'setPin' | 'activate' | 'ship' | 'deliver'; card: number; stranger: boolean }
  | { kind: 'reissue'; card: number; reason: 'DAMAGED' | 'EXPIRED' | 'LOST' | 'STOLEN' }
  | { kind: 'physical'; who: Persona }
  | { kind: 'internal'; who: Persona; amount: number; frequency: string; inDays: number; times: number | undefined; swap: boolean }
  | { kind: 'ach'; who: Persona; amount: number; frequency: string; inDays: number; times: number | undefined; direction: 'CREDIT' | 'DEBIT'; accountNumber: string }
  | { kind: 'update'; transfer: number; amount: number | undefined; frequency: string | undefined; inDays: number | undefined }
  | { kind: 'cancel' | 'delete' | 'runNow' | 'failNext'; transfer: number }
  | { kind: 'return'; transfer: number; code: string }
  | { kind: 'send'; who: Persona }
  | { kind: 'verify'; who: Persona; code: 'right' | 'wrong' | 'stale' }
  | { kind: 'phone'; who: Persona; phone: string }
  | { kind: 'advance'; by: string }
  | { kind: 'otherSession'; id: number }

const FREQUENCIES = ['ONCE', 'DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY']
const who = fc.constantFrom(...PERSONAS)
const index = fc.nat({ max: 40 })
const schedule = { amount: fc.integer({ min: 1, max: 400_000 }), frequency: fc.constantFrom(...FREQUENCIES), inDays: fc.nat({ max: 20 }), times: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }) }

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constantFrom('lock', 'unlock', 'setPin', 'activate', 'ship', 'deliver'), card: index, stranger: fc.boolean() }),
  fc.record({ kind: fc.constant('reissue'), card: index, reason: fc.constantFrom('DAMAGED', 'EXPIRED', 'LOST', 'STOLEN') }),
  fc.record({ kind: fc.constant('physical'), who }),
  fc.record({ kind: fc.constant('internal'), who, ...schedule, swap: fc.boolean() }),
  // Magic account numbers: 10001 comes back R01 (keeps running), 10002 R02 (ends the transfer).
  fc.record({ kind: fc.constant('ach'), who, ...schedule, direction: fc.constantFrom('CREDIT', 'DEBIT'), accountNumber: fc.constantFrom('1234567890', '1234567890', '10001', '10002') }),
  fc.record({ kind: fc.constant('update'), transfer: index, amount: fc.option(schedule.amount, { nil: undefined }), frequency: fc.option(schedule.frequency, { nil: undefined }), inDays: fc.option(schedule.inDays, { nil: undefined }) }),
  fc.record({ kind: fc.constantFrom('cancel', 'delete', 'runNow', 'failNext'), transfer: index }),
  fc.record({ kind: fc.constant('return'), transfer: index, code: fc.constantFrom('R01', 'R02', 'R10') }),
  fc.record({ kind: fc.constant('send'), who }),
  { arbitrary: fc.record({ kind: fc.constant('verify'), who, code: fc.constantFrom('right', 'wrong', 'stale') }), weight: 3 },
  fc.record({ kind: fc.constant('phone'), who, phone: fc.constantFrom('+14155550123', '+12125550187', '+13125550199') }),
  { arbitrary: fc.record({ kind: fc.constant('advance'), by: fc.constantFrom('PT10S', 'PT1M', 'PT9M', 'PT11M', 'PT1H', 'P1D', 'P3D', 'P8D', 'P35D') }), weight: 3 },
  fc.record({ kind: fc.constant('otherSession'), id: fc.nat({ max: 9 }) })
)

const pick = <T>(items: T[], i: number): T | undefined => (items.length === 0 ? undefined : items[i % items.length])
const addDays = (now: string, days: number): string => new Date(Date.parse(now) + days * 86_400_000).toISOString().slice(0, 10)

async function state ({ call }: TestApp): Promise<State> {
  return (await call('GET', '/__mock/state', { session: SESSION })).body as State
}

/** Runs one action; answers the status of its main request (undefined when it had nothing to act on). */
async function perform ({ call }: TestApp, a: Action, s: State): Promise<number | undefined> {
  const as = (customerId: string) => ({ session: SESSION, token: TOKEN_OF_CUSTOMER[customerId] ?? TOKENS.maya })
  switch (a.kind) {
    case 'lock': case 'unlock': case 'setPin': {
      const card = pick(s.debitCards, a.card)
      if (card === undefined) return undefined
      const owner = a.stranger ? (card.customerId === 'cus_maya' ? 'cus_sam' : 'cus_maya') : card.customerId
      const [method, path] = a.kind === 'lock' ? ['POST', 'lock'] : a.kind === 'unlock' ? ['PUT', 'unlock'] : ['POST', 'set-pin-url']
      return (await call(method as string, `/baas/debit-cards/${card.id}/${path as string}`, as(owner))).status
    }
    case 'activate': case 'ship': case 'deliver': {
      const card = pick(s.debitCards, a.card)
      return card === undefined ? undefined : (await call('POST', `/__mock/simulations/cards/${card.id}/${a.kind}`, { session: SESSION })).status
    }
    case 'reissue': {
      const card = pick(s.debitCards, a.card)
      return card === undefined ? undefined : (await call('POST', `/baas/debit-cards/${card.id}/reissue`, { ...as(card.customerId), body: { reason: a.reason } })).status
    }
    case 'physical':
      return (await call('PUT', '/baas/debit-cards/physical', { ...as(CUSTOMER_OF[a.who]), body: {} })).status
    case 'internal': case 'ach': {
      const accounts = s.accounts.filter(x => x.customerId === CUSTOMER_OF[a.who])
      const from = accounts[0]?.id ?? 'acct_none'
      const common = { amount: a.amount, frequency: a.frequency, startDate: addDays(s.now, a.inDays), ...(a.times === undefined || a.frequency === 'ONCE' ? {} : { numberOfOccurrences: a.times }) }
      if (a.kind === 'internal') {
        const to = accounts[1]?.id ?? 'acct_maya_savings'
        return (await call('POST', '/baas/scheduled-transfers/internal', { ...as(CUSTOMER_OF[a.who]), body: { ...common, fromAccountId: a.swap ? to : from, toAccountId: a.swap ? from : to } })).status
      }
      const counterparty = { name: 'Landlord', routingNumber: '021000021', accountNumber: a.accountNumber, accountType: 'CHECKING' }
      return (await call('POST', '/baas/scheduled-transfers/ach', { ...as(CUSTOMER_OF[a.who]), body: { ...common, fromAccountId: from, counterparty, direction: a.direction } })).status
    }
    case 'update': {
      const x = pick(s.scheduledTransfers, a.transfer)
      const body = {
        ...(a.amount === undefined ? {} : { amount: a.amount }),
        ...(a.frequency === undefined ? {} : { frequency: a.frequency }),
        ...(a.inDays === undefined ? {} : { startDate: addDays(s.now, a.inDays) })
      }
      if (x === undefined || Object.keys(body).length === 0) return undefined
      return (await call('POST', `/baas/scheduled-transfers/${x.id}`, { ...as(x.customerId), body })).status
    }
    case 'cancel': case 'delete': {
      const x = pick(s.scheduledTransfers, a.transfer)
      if (x === undefined) return undefined
      return (await call(a.kind === 'cancel' ? 'POST' : 'PUT', `/baas/scheduled-transfers/${x.id}/${a.kind}`, as(x.customerId))).status
    }
    case 'runNow': case 'failNext': {
      const x = pick(s.scheduledTransfers, a.transfer)
      if (x === undefined) return undefined
      return (await call('POST', `/__mock/simulations/transfers/${x.id}/${a.kind === 'runNow' ? 'run' : 'fail-next'}`, { session: SESSION })).status
    }
    case 'return': {
      const x = pick(s.scheduledTransfers, a.transfer)
      if (x === undefined) return undefined
      return (await call('POST', `/__mock/simulations/transfers/${x.id}/return`, { session: SESSION, body: { returnCode: a.code } })).status
    }
    case 'send':
      return (await call('POST', '/mfa/send-code', { ...as(CUSTOMER_OF[a.who]), body: {} })).status
    case 'verify': {
      const customer = s.customers.find(c => c.id === CUSTOMER_OF[a.who]) as Customer
      const pending = s.phoneVerifications.find(v => v.customerId === customer.id && v.phone === customer.phone)
      const sent = s.outbox.filter(m => m.to === customer.phone && typeof m.data.code === 'string').map(m => m.data.code as string)
      const code = a.code === 'right' ? pending?.code ?? '000000'
        : a.code === 'stale' ? sent.find(c => c !== pending?.code) ?? '111111'
          : String((Number(pending?.code ?? '0') + 1) % 1_000_000).padStart(6, '0')
      return (await call('POST', '/mfa/verify', { ...as(customer.id), body: { code } })).status
    }
    case 'phone': {
      const customer = s.customers.find(c => c.id === CUSTOMER_OF[a.who]) as Customer
      return (await call('PUT', '/baas/customers', { ...as(customer.id), body: { email: customer.email, phone: a.phone, address: customer.address } })).status
    }
    case 'advance':
      return (await call('POST', '/__mock/clock/advance', { session: SESSION, body: { by: a.by } })).status
    case 'otherSession':
      return (await call('GET', '/baas/customers', { session: `other-${a.id}` })).status
  }
}

const CARD_MOVES: Record<string, string[]> = {
  PENDING_ACTIVATION: ['PENDING_ACTIVATION', 'ACTIVE', 'CLOSED'],
  ACTIVE: ['ACTIVE', 'LOCKED', 'CLOSED'],
  LOCKED: ['LOCKED', 'ACTIVE', 'CLOSED'],
  CLOSED: ['CLOSED']
}
const TERMINAL_TRANSFER = new Set(['COMPLETED', 'CANCELLED', 'FAILED'])

/** Every invariant between two consecutive states; throws naming the first one broken. */
function checkInvariants (before: State, after: State, a: Action, status: number | undefined): void {
  const fail = (what: string): never => { throw new Error(`${what} after ${JSON.stringify(a)} → ${status}`) }

  // Cards: CLOSED is final; only the lifecycle's moves; one open physical card per customer; one replacement per reissue.
  for (const old of before.debitCards) {
    const now = after.debitCards.find(c => c.id === old.id)
    if (now === undefined) fail(`card ${old.id} disappeared`)
    if (old.status === 'CLOSED' && JSON.stringify(now) !== JSON.stringify(old)) fail(`closed card ${old.id} changed`)
    if (!(CARD_MOVES[old.status] ?? []).includes(now?.status ?? '')) fail(`card ${old.id} went ${old.status} → ${now?.status}`)
  }
  const openPhysical = new Map<string, number>()
  for (const card of after.debitCards) {
    if (card.form === 'PHYSICAL' && card.status !== 'CLOSED') openPhysical.set(card.customerId, (openPhysical.get(card.customerId) ?? 0) + 1)
    if (card.replacedBy !== undefined) {
      const replacements = after.debitCards.filter(c => c.replacementFor === card.id)
      if (replacements.length !== 1 || replacements[0]?.id !== card.replacedBy || card.status !== 'CLOSED') fail(`card ${card.id} has ${replacements.length} replacements`)
    }
  }
  for (const [customer, count] of openPhysical) if (count > 1) fail(`${customer} has ${count} open physical cards`)

  // Money: balances move only by the executions made in this step, each once, and back by those
  // returned in it; nothing goes negative but by a returned ACH DEBIT (the bank takes it back).
  const expected = new Map(before.accounts.map(x => [x.id, x.balance]))
  const move = (account: string | undefined, by: number): void => { if (account !== undefined) expected.set(account, (expected.get(account) ?? 0) + by) }
  const mayOverdraw = new Set<string>()
  for (const x of after.scheduledTransfers) {
    const old = before.scheduledTransfers.find(o => o.id === x.id)
    if (old !== undefined && TERMINAL_TRANSFER.has(old.status) && old.status !== x.status && !(old.status === 'COMPLETED' && x.status === 'FAILED')) fail(`transfer ${x.id} left ${old.status}`)
    if (x.occurrencesCompleted !== x.executions.length && old === undefined) fail(`transfer ${x.id} counts ${x.occurrencesCompleted} runs but lists ${x.executions.length}`)
    const runMoves = (amount: number, sign: number): void => {
      if (x.type === 'INTERNAL') { move(x.fromAccountId, -sign * amount); move(x.toAccountId, sign * amount) } else move(x.fromAccountId, sign * (x.direction === 'DEBIT' ? amount : -amount))
    }
    const made = x.executions.slice(old?.executions.length ?? 0)
    for (const e of made) if (e.status !== 'FAILED') runMoves(e.amount, 1)
    const wasReturned = new Set((old?.executions ?? []).filter(e => e.status === 'RETURNED').map(e => e.executionDate))
    for (const e of x.executions) {
      if (e.status !== 'RETURNED' || wasReturned.has(e.executionDate)) continue
      runMoves(e.amount, -1)
      if (x.direction === 'DEBIT') mayOverdraw.add(x.fromAccountId)
    }
    if (old?.status === 'COMPLETED' && x.status === 'FAILED' && !x.executions.some(e => e.status === 'RETURNED' && !wasReturned.has(e.executionDate))) fail(`transfer ${x.id} left COMPLETED without a return`)
    if (x.type === 'ACH') {
      const dates = x.executions.map(e => e.executionDate)
      dates.forEach((d, i) => {
        if (!isBankingDay(d)) fail(`ACH ${x.id} executed on ${d}, not a banking day`)
        if (i > 0 && d <= (dates[i - 1] ?? '')) fail(`ACH ${x.id} execution dates do not increase: ${dates.join(', ')}`)
      })
      if (x.nextRunDate !== null && (!isBankingDay(x.nextRunDate) || x.nextRunDate <= (dates.at(-1) ?? ''))) fail(`ACH ${x.id} next run ${x.nextRunDate} after ${dates.join(', ')}`)
    }
  }
  for (const account of after.accounts) {
    if (account.balance !== expected.get(account.id)) fail(`account ${account.id} holds ${account.balance}, expected ${expected.get(account.id)}`)
    if (account.balance < 0 && !mayOverdraw.has(account.id) && (before.accounts.find(b => b.id === account.id)?.balance ?? 0) >= 0) fail(`account ${account.id} is overdrawn`)
  }
  const total = (s: State): number => s.accounts.reduce((sum, x) => sum + x.balance, 0)
  if (a.kind === 'internal' && total(after) !== total(before)) fail('an internal transfer changed the total balance')

  // MFA: a code verifies only while valid and with checks left; a valid right code always verifies.
  if (a.kind === 'verify') {
    const customer = before.customers.find(c => c.id === CUSTOMER_OF[a.who]) as Customer
    const pending = before.phoneVerifications.find(v => v.customerId === customer.id && v.phone === customer.phone)
    const usable = pending !== undefined && Date.parse(before.now) < Date.parse(pending.expiresAt) && pending.checksMade < MAX_CHECKS
    if (status === 200 && (!usable || a.code !== 'right')) fail(`a code verified: pending ${JSON.stringify(pending)} at ${before.now}`)
    if (a.code === 'right' && usable && customer.status === 'ACTIVE' && status !== 200) fail('the right code did not verify')
  }
  for (const v of after.phoneVerifications) if (v.checksMade > MAX_CHECKS) fail(`verification ${v.id} took ${v.checksMade} checks`)
}

/** Runs sequences of `actions`, checking every invariant after each step; answers how often each `kind:status` came up. */
async function runSequences (t: Test, actions: fc.Arbitrary<Action>, numRuns: number): Promise<Map<string, number>> {
  const app = await buildTestApp(t, CAPS)
  const seen = new Map<string, number>()
  await fc.assert(fc.asyncProperty(fc.array(actions, { minLength: 5, maxLength: 40 }), async sequence => {
    await app.call('POST', '/__mock/reset', { session: SESSION })
    await app.call('POST', '/__mock/clock/advance', { session: SESSION, body: { by: 'PT0S' } })
    let before = await state(app)
    for (const a of sequence) {
      const status = await perform(app, a, before)
      const after = await state(app)
      checkInvariants(before, after, a, status)
      const key = `${a.kind}${a.kind === 'verify' ? `/${a.code}` : ''}:${status ?? '-'}`
      seen.set(key, (seen.get(key) ?? 0) + 1)
      const journal = (await app.call('GET', '/__mock/requests', { session: SESSION })).body
      if (journal.size > CAPS.journalCap || journal.data.length > CAPS.journalCap) throw new Error(`journal holds ${journal.size}`)
      if (after.outbox.length > CAPS.outboxCap) throw new Error(`outbox holds ${after.outbox.length}`)
      const sessions = (await app.call('GET', '/__mock/sessions')).body.sessions as { id: string }[]
      if (sessions.length > CAPS.maxSessions) throw new Error(`${sessions.length} sessions alive`)
      before = after
    }
  // A fixed number of seeded runs, not as many as fit in some seconds: what the reach checks below
  // see is then the same on a loaded CI machine as on a quiet laptop.
  }), { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? numRuns) })
  return seen
}

/** The property is only as good as the paths it reached: each of these must have come up. */
function reached (t: Test, seen: Map<string, number>, keys: string[]): void {
  const steps = [...seen.values()].reduce((a, b) => a + b, 0)
  if (process.env.FC_VERBOSE !== undefined) t.comment([...seen].sort().join(' '))
  for (const key of keys) t.ok((seen.get(key) ?? 0) > 0, `${key} reached (${seen.get(key) ?? 0} of ${steps} steps)`)
}

t.test('invariants hold over random sequences of operations, simulations and clock moves', async t => {
  const seen = await runSequences(t, action, 100)
  reached(t, seen, ['lock:200', 'lock:409', 'unlock:200', 'reissue:201', 'reissue:409', 'physical:201', 'physical:200', 'deliver:200',
    'internal:201', 'ach:201', 'internal:409', 'update:200', 'update:409', 'cancel:200', 'delete:200', 'runNow:200', 'failNext:200', 'return:200', 'return:409',
    'send:202', 'advance:200'])
})

t.test('MFA: a code verifies only while valid and with checks left, whatever the order of sends, checks and time', async t => {
  const mfa: fc.Arbitrary<Action> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('send' as const), who: fc.constantFrom<Persona>('maya', 'jordan') }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('verify' as const), who: fc.constantFrom<Persona>('maya', 'jordan'), code: fc.constantFrom<'right' | 'wrong' | 'stale'>('right', 'wrong', 'wrong', 'wrong', 'stale') }), weight: 8 },
    { arbitrary: fc.record({ kind: fc.constant('advance' as const), by: fc.constantFrom('PT10S', 'PT31S', 'PT2M', 'PT9M', 'PT11M') }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('phone' as const), who: fc.constantFrom<Persona>('maya', 'jordan'), phone: fc.constantFrom('+14155550123', '+12125550187') }), weight: 1 }
  )
  const seen = await runSequences(t, mfa, 150)
  reached(t, seen, ['verify/right:200', 'verify/wrong:422', 'verify/right:429', 'verify/right:410', 'verify/stale:422', 'send:202', 'send:429'])
})
