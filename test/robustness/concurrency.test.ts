import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import t from 'tap'
import { buildApp } from '../../src/transports/fastify/app.js'
import { defaultConfig } from '../../src/config/config.js'
import type { DebitCard } from '../../src/domain/model.js'
import { TEST_NOW, TOKENS } from '../helpers/app.js'
import { SEED } from './arbitraries.js'

/**
 * Many clients at once on one card, over real HTTP: whatever the interleaving, the card ends in a
 * state some serial order explains, one reissue wins, and every request is answered and journaled once.
 */

type CardRequest = { kind: 'lock' } | { kind: 'unlock' } | { kind: 'reissue'; reason: 'DAMAGED' | 'EXPIRED' | 'LOST' | 'STOLEN' }

const CLOSED_REASON = { DAMAGED: 'REPLACED', EXPIRED: 'REPLACED', LOST: 'LOST', STOLEN: 'STOLEN' } as const

const cardRequest: fc.Arbitrary<CardRequest> = fc.oneof(
  fc.constant({ kind: 'lock' as const }),
  fc.constant({ kind: 'unlock' as const }),
  fc.record({ kind: fc.constant('reissue' as const), reason: fc.constantFrom('DAMAGED', 'EXPIRED', 'LOST', 'STOLEN') })
)

interface Answer { request: CardRequest; status: number; body: Record<string, unknown> }

t.test('concurrent lock, unlock and reissue of one card end consistent: one replacement, no lost or doubled update', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), { logger: false })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  let run = 0

  const storm = [fc.constantFrom('card_maya_virtual', 'card_maya_physical'), fc.array(cardRequest, { minLength: 20, maxLength: 80 }), fc.boolean()] as const
  await fc.assert(fc.asyncProperty(...storm, async (cardId, requests, jitter) => {
    const session = `storm-${run++}`
    const headers = { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': session, 'content-type': 'application/json' }
    // A random delay before each operation runs makes the requests overtake each other inside the server too.
    if (jitter) await fetch(`${base}/__mock/faults`, { method: 'POST', headers, body: JSON.stringify({ delay: { min: 0, max: 20 } }) })
    const cardsOf = async (): Promise<DebitCard[]> => (await (await fetch(`${base}/__mock/state`, { headers })).json() as { debitCards: DebitCard[] }).debitCards
    const before = await cardsOf()

    const answers: Answer[] = await Promise.all(requests.map(async request => {
      const [method, path, body] = request.kind === 'lock' ? ['POST', 'lock', {}] : request.kind === 'unlock' ? ['PUT', 'unlock', {}] : ['POST', 'reissue', { reason: request.reason }]
      const res = await fetch(`${base}/baas/debit-cards/${cardId}/${path as string}`, { method: method as string, headers, body: JSON.stringify(body) })
      return { request, status: res.status, body: await res.json() as Record<string, unknown> }
    }))

    const fail = (what: string): never => { throw new Error(`${what}\n${answers.map(a => `${a.request.kind} ${a.status} ${String(a.body.status ?? a.body.code)}`).join('; ')}`) }
    const wins = answers.filter(a => a.request.kind === 'reissue' && a.status === 201)
    const reissues = answers.filter(a => a.request.kind === 'reissue').length
    if (wins.length !== Math.min(1, reissues)) fail(`${wins.length} reissues won out of ${reissues}`)
    for (const a of answers) {
      if (a.status === 409 && a.body.code !== 'card_closed') fail(`409 ${String(a.body.code)}: only a closed card refuses these`)
      if (a.status === 200 && a.body.status !== (a.request.kind === 'lock' ? 'LOCKED' : 'ACTIVE') && a.body.status !== 'PENDING_ACTIVATION') fail(`${a.request.kind} answered a ${String(a.body.status)} card`)
      if (a.status === 200 && a.body.status === 'PENDING_ACTIVATION') fail('a pending card cannot be locked or unlocked')
      if (![200, 201, 409].includes(a.status)) fail(`status ${a.status}`)
    }

    const after = await cardsOf()
    const original = after.find(c => c.id === cardId) as DebitCard
    const win = wins[0]
    if (win === undefined) {
      if (after.length !== before.length) fail('a card appeared without a reissue')
      if (original.status === 'CLOSED') fail('closed without a reissue')
      // The last answer of each kind cannot be told from the interleaving, but lockedAt must agree with the status.
      if ((original.status === 'LOCKED') !== (original.lockedAt !== undefined)) fail('lockedAt disagrees with the status')
    } else {
      const replacement = after.find(c => c.id === win.body.id)
      const reason = (win.request as { reason: keyof typeof CLOSED_REASON }).reason
      if (after.length !== before.length + 1) fail(`${after.length - before.length} cards appeared for one reissue`)
      if (original.status !== 'CLOSED' || original.replacedBy !== win.body.id || original.closedReason !== CLOSED_REASON[reason] || original.lockedAt !== undefined) fail(`original card ${JSON.stringify(original)}`)
      if (replacement?.replacementFor !== cardId || after.filter(c => c.replacementFor === cardId).length !== 1) fail('not exactly one replacement')
      const openPhysical = after.filter(c => c.form === 'PHYSICAL' && c.status !== 'CLOSED' && c.customerId === 'cus_maya')
      if (openPhysical.length > 1) fail('two open physical cards')
    }

    // Nothing lost or doubled on the server side either: the journal holds each request once, with the status sent.
    const journal = await (await fetch(`${base}/__mock/requests?order=asc`, { headers })).json() as { data: { path: string; status: number }[] }
    const sent = answers.map(a => a.status).sort().join()
    const recorded = journal.data.filter(r => r.path.startsWith('/baas/debit-cards/')).map(r => r.status).sort().join()
    if (sent !== recorded) fail(`journal ${recorded} vs answers ${sent}`)
    await fetch(`${base}/__mock/sessions/${session}`, { method: 'DELETE', headers: { 'x-mock-session': session } })
  }), { seed: SEED, numRuns: 25, interruptAfterTimeLimit: 15_000, markInterruptAsFailure: false })
  t.ok(run > 5, `${run} storms of concurrent requests`)
})

t.test('concurrent creates in many sessions at once: every 201 is stored once, with its own id', async t => {
  const app = await buildApp(defaultConfig({ now: TEST_NOW, seed: 7, logLevel: 'silent' }), { logger: false })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const body = { fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', amount: 100, frequency: 'MONTHLY', startDate: '2026-12-01' }
  const sessions = ['a', 'b', 'c', 'd']
  const fixtureCount = async (session: string): Promise<{ id: string }[]> =>
    ((await (await fetch(`${base}/__mock/state`, { headers: { 'x-mock-session': session } })).json()) as { scheduledTransfers: { id: string }[] }).scheduledTransfers
  const baseline = (await fixtureCount('baseline')).length
  const created = await Promise.all(Array.from({ length: 120 }, async (_, i) => {
    const session = sessions[i % sessions.length] as string
    const res = await fetch(`${base}/baas/scheduled-transfers/internal`, {
      method: 'POST', headers: { authorization: `Bearer ${TOKENS.maya}`, 'x-mock-session': session, 'content-type': 'application/json' }, body: JSON.stringify(body)
    })
    return { session, status: res.status, id: ((await res.json()) as { id: string }).id }
  }))
  t.ok(created.every(c => c.status === 201), 'all 120 created')
  for (const session of sessions) {
    const transfers = await fixtureCount(session)
    const mine = created.filter(c => c.session === session).map(c => c.id)
    t.equal(new Set(mine).size, 30, `${session}: 30 distinct ids`)
    t.ok(mine.every(id => transfers.some(x => x.id === id)), `${session}: every created transfer is in its own world`)
    t.equal(transfers.length, baseline + 30, `${session}: and nothing else was added`)
  }
})
