import { randomUUID } from 'node:crypto'
import t from 'tap'
import { setupServer } from 'msw/node'
import { createMock, startServer } from '../src/index.js'
import { createHandlers, createMock as createMockInBrowser } from '../src/msw.js'

// The calls the README and docs/guides/frontend.md show, run as written, with tap in Vitest's place.

t.test('the README\'s in-process example: a lock, then the journal of its session', async t => {
  const mock = await createMock({ seed: 42, fixedCode: '123456' })
  t.teardown(() => mock.close())
  const response = await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', {
    method: 'POST', headers: { authorization: 'Bearer tok_maya', 'x-mock-session': 'test-1' }
  })
  t.equal(response.status, 200)
  const journal = await mock.session('test-1').journal.list({ operation: 'lockCard' })
  t.same(journal.map(entry => entry.status), [200])
  t.same(await mock.session().journal.list({ operation: 'lockCard' }), [], 'the default session saw nothing')
})

t.test('the frontend guide\'s Vitest example: MSW in front, a fresh session per test', async t => {
  const mock = await createMock({ seed: 42, now: '2027-01-04T09:00:00Z', fixedCode: '123456' })
  const server = setupServer(...createHandlers({ baseUrl: 'https://bank.example', mock }))
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(async () => { server.close(); await mock.close() })

  const inSession = (id: string) => (path: string, init: RequestInit = {}): Promise<Response> => fetch(`https://bank.example${path}`, {
    ...init, headers: { authorization: 'Bearer tok_maya', 'x-mock-session': id, ...init.headers }
  })

  const first = mock.session(randomUUID())
  const bank = inSession(first.id)
  await first.faults.add({ operation: 'lockCard', status: 503, count: 1 })
  t.equal((await bank('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST' })).status, 503)
  t.equal((await bank('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST' })).status, 200)
  t.same((await first.journal.list({ operation: 'lockCard', order: 'asc' })).map(entry => entry.status), [503, 200])

  const second = mock.session(randomUUID())
  const jordan = { authorization: 'Bearer tok_jordan', 'content-type': 'application/json' }
  const bankAgain = inSession(second.id)
  t.equal((await bankAgain('/mfa/send-code', { method: 'POST', headers: jordan, body: '{}' })).status, 202)
  const { code } = await second.outbox.latestCode({ phone: '+12125550187' })
  t.equal((await bankAgain('/mfa/verify', { method: 'POST', headers: jordan, body: JSON.stringify({ code }) })).status, 200)
  t.same(await second.faults.list(), [], 'the first test\'s fault is not in the second test\'s world')
  t.match(await second.state(), { debitCards: [{ id: 'card_maya_virtual', status: 'ACTIVE' }] }, 'nor its locked card')
})

t.test('the Storybook loader (createMock from baas-mock/msw, as a browser imports it): a reset to a named scenario, or back to the default one', async t => {
  const mock = await createMockInBrowser({ now: '2027-01-04T09:00:00Z' })
  t.teardown(() => mock.close())
  t.equal((await mock.session().reset({ scenario: 'every-card-state' })).scenario, 'every-card-state')
  t.match(await mock.session().state(), { customers: [{ id: 'cus_casey' }] }, 'the scenario\'s world')
  t.equal((await mock.session().reset({ scenario: 'default' })).scenario, 'default', 'the next story, which names none, is back in the bundled world')
})

t.test('the CI guide\'s startServer: a free port, the same API, closed after', async t => {
  const server = await startServer({ port: 0, seed: 42, now: '2027-01-04T09:00:00Z', fixedCode: '123456' })
  const response = await fetch(`${server.url}/__mock/sessions/ci-job-1/pin`, { method: 'POST' })
  t.equal(response.status, 200)
  t.equal(response.headers.get('x-mock-session-created'), 'true')
  t.equal((await fetch(`${server.url}/__mock/sessions/ci-job-1`, { method: 'DELETE' })).status, 204)
  await server.close()
})

t.test('the frontend guide\'s rehearsal: a payment to 10001 comes back, then November\'s statement is e-mailed', async t => {
  const mock = await createMock({ seed: 42, now: '2026-11-23T15:00:00Z' })
  t.teardown(() => mock.close())
  const session = mock.session('returns')
  const bank = (path: string, init: RequestInit = {}): Promise<Response> => mock.fetch(path, {
    ...init, headers: { authorization: 'Bearer tok_maya', 'content-type': 'application/json', 'x-mock-session': session.id }
  })

  const gym = await (await bank('/baas/scheduled-transfers/ach', {
    method: 'POST',
    body: JSON.stringify({
      fromAccountId: 'acct_maya_checking', amount: 4200, frequency: 'MONTHLY', startDate: '2026-11-25',
      counterparty: { name: 'Mile High Fitness', routingNumber: '021000021', accountNumber: '10001', accountType: 'CHECKING' }
    })
  })).json() as { id: string }

  const week = await session.clock.advance({ to: '2026-11-30T12:00:00Z' })
  t.same(week.fired.filter(e => e.entityId === gym.id).map(e => e.kind), ['scheduled_transfer.execution_succeeded', 'scheduled_transfer.execution_settled', 'scheduled_transfer.execution_returned'])
  const { executions, status } = await (await bank(`/baas/scheduled-transfers/${gym.id}`)).json() as { executions: unknown[]; status: string }
  t.match(executions[0], { status: 'RETURNED', returnCode: 'R01', returnReason: 'Insufficient Funds' })
  t.equal(status, 'ACTIVE')

  const monthEnd = await session.clock.advance({ to: '2026-12-01T00:00:00Z' })
  const statementId = String(monthEnd.fired.find(e => e.kind === 'statement.created')?.entityId)
  t.equal((await bank(`/baas/statements/${statementId}/send-by-email`, { method: 'POST' })).status, 202)
  t.match((await session.outbox.list()).data[0], { subject: 'Your November 2026 statement is ready' })
})

t.test('the webhooks guide\'s receiver, run as written: it verifies the mock\'s deliveries and refuses a forged one', async t => {
  const { spawn } = await import('node:child_process')
  const { mkdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs')
  const { join } = await import('node:path')
  const { fileURLToPath } = await import('node:url')
  const repo = fileURLToPath(new URL('../', import.meta.url))
  const guide = readFileSync(join(repo, 'docs/guides/webhooks.md'), 'utf8')
  const code = /## A receiver[\s\S]*?```js\n([\s\S]*?)```/.exec(guide)?.[1]
  if (code === undefined) throw new Error('docs/guides/webhooks.md has no receiver code block')
  t.ok(code.split('\n').filter(line => line.trim() !== '').length <= 25, 'about twenty lines')
  // Inside the package, so that its imports resolve as they would in a project that installed them.
  mkdirSync(join(repo, 'test-output'), { recursive: true })
  const file = join(repo, 'test-output', `receiver-${randomUUID()}.mjs`)
  writeFileSync(file, code)
  t.teardown(() => rmSync(file, { force: true }))
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  const child = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
  t.teardown(() => { child.kill() })
  let output = ''
  const lines: Array<{ pattern: RegExp; resolve: (line: string) => void }> = []
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    for (const waiter of [...lines]) {
      const match = waiter.pattern.exec(output)
      if (match !== null) { lines.splice(lines.indexOf(waiter), 1); waiter.resolve(match[0]) }
    }
  })
  const line = (pattern: RegExp): Promise<string> => new Promise(resolve => {
    const match = pattern.exec(output)
    if (match !== null) resolve(match[0])
    else lines.push({ pattern, resolve })
  })
  const address = (await line(/receiver listening at (\S+)/)).split(' ').at(-1) ?? ''

  const forged = await fetch(`${address}/webhooks/bank`, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': 'evt_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' }, body: '{}' })
  t.equal(forged.status, 400, 'a forged delivery is refused')

  const mock = await createMock({ now: '2026-11-23T15:00:00Z', webhookUrl: `${address}/webhooks/bank`, webhookSecret: secret })
  t.teardown(() => mock.close())
  await mock.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  const [event] = await mock.session().webhooks.events()
  t.match(await line(/evt_\S+ card\.locked card_maya_virtual/), `${event?.id as string} card.locked card_maya_virtual`, 'the receiver verified the delivery and handled it')
  const { data: deliveries } = await (await mock.fetch('/__mock/webhooks/deliveries')).json() as { data: Array<{ status: string; attempts: Array<{ status?: number }> }> }
  t.ok(deliveries.every(d => d.status !== 'FAILED'), 'and answered 2xx')
})
