import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t, { type Test } from 'tap'
import { startServer } from '../../src/index.js'
import { binOf, ROOT, runTool, startTool, stopTool } from '../contract/tools.js'
import { SUITE_DIALECT } from './world.js'

// The contract the mock serves in the suite's dialect holds for the mock that speaks it: Prism's
// validating proxy sees no violation, and a client generated from it compiles and round-trips.

const ADDRESS = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }

/** Prism's validating proxy over `document`, in front of `upstream`; resolves with its URL. */
function startPrism (t: Test, document: string, upstream: string): Promise<string> {
  const prism = startTool(binOf('@stoplight/prism-cli', 'prism'), ['proxy', document, upstream, '--errors', 'false', '--host', '127.0.0.1', '--port', '0'])
  t.teardown(() => stopTool(prism))
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 90 s:\n${output}`)), 90_000)
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

t.test('the shaped contract: Prism finds no violation, and a generated client compiles and round-trips', async t => {
  // Inside the project (.tap/fixtures), so that openapi-fetch resolves from its node_modules.
  const dir = t.testdir({
    fixtures: { 'dialect.yaml': readFileSync(SUITE_DIALECT, 'utf8') },
    client: {
      'package.json': JSON.stringify({ type: 'module' }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true,
          target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out'
        },
        files: ['client.ts']
      }),
      'client.ts': readFileSync(join(ROOT, 'test', 'dialect', 'client', 'client.ts'), 'utf8')
    }
  })
  const server = await startServer({ fixtures: join(dir, 'fixtures'), logLevel: 'silent', seed: 7 })
  t.teardown(() => server.close())
  const document = join(dir, 'openapi.json')
  writeFileSync(document, await (await fetch(`${server.url}/openapi.json`)).text())

  const [proxy, generated] = await Promise.all([
    startPrism(t, document, server.url),
    runTool(binOf('openapi-typescript', 'openapi-typescript'), [document, '--output', join(dir, 'client', 'schema.ts')], { timeoutMs: 120_000 })
  ])

  const violations: string[] = []
  const call = async (what: string, method: string, path: string, status: number, body?: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any -- answers read as JSON
    const headers: Record<string, string> = { authorization: 'Bearer tok_maya', 'x-mock-session': 'prism-dialect' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(proxy + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await res.text()
    const found = res.headers.get('sl-violations')
    if (found !== null) violations.push(`${what} → ${res.status}: ${found}`)
    t.equal(res.status, status, `${what} → ${status}`, { body: text })
    return text === '' ? undefined : JSON.parse(text)
  }
  t.equal((await call('lock', 'POST', '/baas/debit-cards/card_maya_virtual/lock', 200)).data.attributes.card_state, 'frozen')
  t.equal((await call('unlock', 'PUT', '/baas/debit-cards/card_maya_virtual/unlock', 200)).data.attributes.card_state, 'active')
  t.equal((await call('unknown card', 'POST', '/baas/debit-cards/nope/lock', 404)).errors[0].code, 'NOT_FOUND')
  const update = { data: { type: 'customer', attributes: { email_address: 'maya@team.example', phone_number: '+14155550123', home_address: ADDRESS } } }
  t.equal((await call('update customer', 'PUT', '/baas/customers', 200, update)).data.attributes.email_address, 'maya@team.example')
  t.equal((await call('read customer', 'GET', '/baas/customers', 200)).data.attributes.email_address, 'maya@team.example')
  t.same(violations, [], 'no sl-violations header')

  t.equal(generated.code, 0, 'openapi-typescript generates the types from the served document', { stderr: generated.stderr })
  const compiled = await runTool(binOf('typescript', 'tsc'), ['-p', join(dir, 'client', 'tsconfig.json')], { timeoutMs: 120_000 })
  t.equal(compiled.stdout, '', 'tsc reports nothing')
  t.equal(compiled.code, 0, 'the client compiles')
  const { bank } = await import(pathToFileURL(join(dir, 'client', 'out', 'client.js')).href) as { bank: (baseUrl: string, session: string) => { lock: (cardId: string) => Promise<string>, unlock: (cardId: string) => Promise<string> } }
  const client = bank(server.url, 'generated-client')
  t.equal(await client.lock('card_maya_virtual'), 'frozen', 'lock, in the team\'s words')
  const state = await (await fetch(`${server.url}/__mock/state`, { headers: { 'x-mock-session': 'generated-client' } })).json() as { debitCards: { id: string; status: string }[] }
  t.equal(state.debitCards.find(card => card.id === 'card_maya_virtual')?.status, 'LOCKED', 'the state changed underneath')
  t.equal(await client.unlock('card_maya_virtual'), 'active')
  t.equal(await client.lock('nope'), 'NOT_FOUND', 'the team\'s error, typed')
})
