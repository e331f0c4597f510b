import t from 'tap'
import { buildTestApp, type TestApp } from './helpers/app.js'

/** A short but varied script: new ids, codes, tokens, timestamps, clock moves, a second session. */
async function script ({ call }: TestApp): Promise<string[]> {
  const maya = { token: 'tok_maya' }
  const bodies: string[] = []
  const record = async (...args: Parameters<TestApp['call']>): Promise<void> => { bodies.push((await call(...args)).text) }
  await record('POST', '/baas/debit-cards/card_maya_physical/reissue', { ...maya, body: { reason: 'LOST' } })
  await record('PUT', '/baas/debit-cards/physical', { token: 'tok_jordan', body: {} })
  await record('POST', '/baas/debit-cards/card_maya_virtual/set-pin-url', maya)
  await record('POST', '/mfa/send-code', { token: 'tok_jordan', body: {} })
  await record('POST', '/baas/statements/stmt_maya_2026_10/send-by-email', maya)
  await record('POST', '/baas/scheduled-transfers/internal', { ...maya, body: { amount: 1000, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'DAILY', startDate: '2026-11-24', numberOfOccurrences: 3 } })
  await record('POST', '/__mock/clock/advance', { body: { by: 'P1W' } })
  await record('POST', '/mfa/send-code', { token: 'tok_jordan', body: {}, session: 'other' })
  await record('GET', '/__mock/state')
  await record('GET', '/__mock/outbox')
  return bodies
}

t.test('with a seed and a start instant, the same requests answer byte-identical bodies', async t => {
  const first = await script(await buildTestApp(t, { seed: 42 }))
  const second = await script(await buildTestApp(t, { seed: 42 }))
  t.equal(first.length, 10)
  first.forEach((body, i) => t.equal(second[i], body, `response ${i} is identical`))
  const other = await script(await buildTestApp(t, { seed: 43 }))
  t.not(other[0], first[0], 'another seed gives other ids')
})
