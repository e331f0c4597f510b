import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runCli, startCli } from '../helpers/spawn.js'

const envFile = (text: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'baas-mock-frontend-')), '.env.local')
  writeFileSync(file, text)
  return file
}

t.test('a frontend\'s own .env line, unchanged, moves the route, and the path\'s :id is the card', async t => {
  // The line exactly as the issue gives it; the app's base is set in another of its files.
  const file = envFile('VITE_API_BAAS_CUSTOMER_CARD_LOCK=${VITE_API_BASE}/api/v2/cards/:id/freeze\n')
  const { child, baseUrl, output } = await startCli(['--env-file', file])
  t.teardown(() => { child.kill('SIGTERM') })
  const res = await fetch(`${baseUrl}/api/v2/cards/card_maya_virtual/freeze`, { method: 'POST', headers: { authorization: 'Bearer tok_maya' } })
  t.equal(res.status, 200)
  t.match(await res.json(), { id: 'card_maya_virtual', status: 'LOCKED' })
  const state = await (await fetch(`${baseUrl}/__mock/state`)).json() as { debitCards: { id: string; status: string }[] }
  t.equal(state.debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED', 'that card is locked')
  t.match(output(), 'VITE_API_BAAS_CUSTOMER_CARD_LOCK in', 'the unset base is warned about')
  t.match(output(), '${VITE_API_BASE} is set neither above it, nor in an env file read before it, nor in the environment')
})

t.test('with the base set above, the same line moves the route to its path', async t => {
  const file = envFile('VITE_API_BASE=http://localhost:5173\nVITE_API_BAAS_CUSTOMER_CARD_LOCK=${VITE_API_BASE}/api/v2/cards/:id/freeze\n')
  const res = await runCli(['env', '--env-file', file, '--base-url', 'http://mock'])
  t.equal(res.code, 0, res.stderr)
  t.equal(res.stderr, '', 'no warning')
  t.ok(res.stdout.split('\n').includes('API_BAAS_CUSTOMER_CARD_LOCK=http://mock/api/v2/cards/$ID/freeze'), 'the export keeps the team\'s parameter name')
})

t.test('every route problem of a start is reported in one run, one line each', async t => {
  const file = envFile([
    'VITE_API_BASE=http://localhost:5173',
    'VITE_API_BAAS_SCHEDULED_TRANSFER=${VITE_API_BASE}/api/v2/transfers/current',
    'VITE_API_BAAS_REISSUE=GET ${VITE_API_BASE}/api/v2/cards/:id/reissue'
  ].join('\n'))
  const res = await runCli(['--env-file', file, '--route', 'API_BAAS_REISUE=/x'])
  t.equal(res.code, 1)
  t.equal(res.stderr, [
    'baas-mock: Invalid routes, 3 problems:',
    '  --route API_BAAS_REISUE: not a configuration name; did you mean API_BAAS_REISSUE?',
    `  API_BAAS_REISSUE=GET http://localhost:5173/api/v2/cards/:id/reissue: reissueCard takes a JSON body, which a GET request cannot carry; use POST, PUT, PATCH or DELETE. (set by VITE_API_BAAS_REISSUE in ${file})`,
    `  API_BAAS_SCHEDULED_TRANSFER=http://localhost:5173/api/v2/transfers/current: getScheduledTransfer takes one parameter, $TRANSFER_ID (named as you like). (set by VITE_API_BAAS_SCHEDULED_TRANSFER in ${file})`,
    ''
  ].join('\n'))
})
