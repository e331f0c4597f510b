import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { createMock } from '../../src/index.js'
import { startRecorder } from '../../src/record/proxy.js'
import { operationMatcher } from '../../src/record/operations.js'
import { learn } from '../../src/record/learn.js'
import { writeRecording } from '../../src/record/write.js'
import { CannotVerifyError, verify } from '../../src/record/verify.js'

// A backend on its own paths (GET /v2/me): the recording keeps the routes it matched on, and a
// verify run on the mock's default routes says so instead of reporting every exchange as drift.

const ROUTES = { API_BAAS_CUSTOMER: '/v2/me' }
const TOKEN = 'tok_moved'
const customer = { data: { customer_id: 'usr_9', given_name: 'Alex', family_name: 'Moved', email: 'alex@example.org', updated_at: '2026-11-01T10:00:00.000Z' } }

t.test('a recording on moved routes keeps them in routes.env; verify on the defaults cannot run and says why, with them it agrees', async t => {
  const backend = createServer((req, res) => {
    if (req.url === '/v2/me' && req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(customer))
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { kind: 'no_route' } }))
  })
  await new Promise<void>(resolve => backend.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise(resolve => backend.close(resolve)))
  const target = new URL(`http://127.0.0.1:${(backend.address() as AddressInfo).port}`)
  const recorder = await startRecorder({ target, host: '127.0.0.1', port: 0, matcher: operationMatcher(ROUTES) })
  for (let i = 0; i < 2; i++) t.equal((await fetch(`${recorder.url}/v2/me`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200)
  await recorder.close()
  const dir = join(mkdtempSync(join(tmpdir(), 'recorded-moved-')), 'team')
  writeRecording(dir, learn(recorder.exchanges, { salt: 'saltsalt' }), recorder.exchanges, [], target.href, ROUTES)

  t.match(readFileSync(join(dir, 'routes.env'), 'utf8'), /^API_BAAS_CUSTOMER=\/v2\/me$/m, 'the routes it matched on are kept beside the fixtures')
  t.match(readFileSync(join(dir, 'REPORT.md'), 'utf8'), /## Routes\n.*--env-file .*routes\.env/, 'the report says to serve and verify with them')

  const corpus = readFileSync(join(dir, 'exchanges.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line) as never)
  const headers = { authorization: `Bearer ${TOKEN}` }
  const onDefaults = await createMock({ fixtures: dir })
  t.teardown(onDefaults.close)
  await t.rejects(verify({ corpus, target, mock: onDefaults.fetch, dialect: undefined, headers }), CannotVerifyError)
  await t.rejects(verify({ corpus, target, mock: onDefaults.fetch, dialect: undefined, headers }), /the mock has no route for 2 of 2 replayed request\(s\) \(GET \/v2\/me\): give it the routes they were recorded on, --env-file DIR\/routes\.env/)

  const onRecorded = await createMock({ fixtures: dir, envFile: join(dir, 'routes.env') })
  t.teardown(onRecorded.close)
  const cases = await verify({ corpus, target, mock: onRecorded.fetch, dialect: undefined, headers })
  t.equal(cases.length, 2)
  t.same(cases.flatMap(c => c.differences), [], 'on the recorded routes the mock and the backend agree')
})

t.test('a recording on the default routes writes no routes.env', async t => {
  const dir = join(mkdtempSync(join(tmpdir(), 'recorded-default-')), 'team')
  writeRecording(dir, learn([], { salt: 'saltsalt' }), [], [], 'http://127.0.0.1:1/')
  t.notOk(existsSync(join(dir, 'routes.env')))
  t.notMatch(readFileSync(join(dir, 'REPORT.md'), 'utf8'), /## Routes/)
})
