import { existsSync, readdirSync, readFileSync } from 'node:fs'
import t from 'tap'
import { applySections, GENERATED_FILES, readmeSections, sectionsFor } from '../scripts/readme-sections.js'

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')
const readme = read('README.md')

t.test('the generated tables are what the operation and settings tables generate (run `npm run docs`)', async t => {
  const sections = readmeSections()
  t.same(Object.values(GENERATED_FILES).flat().sort(), Object.keys(sections).sort(), 'every generated section has a file')
  for (const file of Object.keys(GENERATED_FILES)) {
    const text = read(file)
    t.equal(text, applySections(text, sectionsFor(file, sections), file), `${file} is up to date`)
  }
})

t.test('every relative link of the README and docs/ reaches a file', async t => {
  const documents = ['README.md', ...readdirSync(new URL('../docs', import.meta.url), { recursive: true, encoding: 'utf8' })
    .filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]
  let checked = 0
  for (const document of documents) {
    for (const [, target = ''] of read(document).matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
      if (/^[a-z]+:/.test(target)) continue
      checked++
      t.ok(existsSync(new URL(target, new URL(`../${document}`, import.meta.url))), `${document} → ${target}`)
    }
  }
  t.ok(checked >= 20, 'the README links the guides and the reference, and they link each other')
})

t.test('the README starts with the two commands that must work on a fresh machine', async t => {
  const head = readme.slice(0, 1500)
  t.match(head, 'npm install && npm start')
  t.match(head, 'npm test')
})

t.test('the Limits reference states the limits the server applies', async t => {
  const { SERVER_LIMITS } = await import('../src/config/limits.js')
  const { defaultConfig } = await import('../src/config/config.js')
  const { JOURNAL_BODY_LIMIT } = await import('../src/transports/fastify/journal-hook.js')
  const { MAX_FAULT_RULES } = await import('../src/control/faults.js')
  const { MAX_DELAY_MS } = await import('../src/core/prefer.js')
  const { MAX_FIRED_PER_ADVANCE } = await import('../src/domain/advance-budget.js')
  const { MAX_FIRED_LISTED } = await import('../src/control/clock.js')
  const { MAX_TRANSFERS_PER_CUSTOMER } = await import('../src/domain/scheduled-transfer.js')
  const { EXECUTIONS_KEPT } = await import('../src/domain/transfer-execution.js')
  const { STATEMENTS_KEPT } = await import('../src/domain/statement-cycle.js')
  const { JOURNAL_HEADER_LIMITS } = await import('../src/world/journal.js')
  const { MAX_PINNED_SESSIONS } = await import('../src/world/sessions.js')
  const { EVENT_FEED_DEFAULTS } = await import('../src/control/events.js')
  const { IDEMPOTENCY_LIMITS } = await import('../src/world/idempotency.js')
  const limits = read('docs/reference/limits.md')
  const config = defaultConfig()
  const kib = (bytes: number): string => `${bytes / 1024} KiB`
  const s = (ms: number): string => `${ms / 1000} s`
  for (const stated of [
    kib(config.bodyLimit), kib(SERVER_LIMITS.maxHeaderBytes), `${SERVER_LIMITS.maxParamLength} characters`,
    s(SERVER_LIMITS.headersTimeoutMs), s(SERVER_LIMITS.requestTimeoutMs), s(SERVER_LIMITS.connectionTimeoutMs), s(SERVER_LIMITS.keepAliveTimeoutMs), s(SERVER_LIMITS.shutdownGraceMs),
    config.maxSessions.toLocaleString('en-US'), `${config.sessionIdleSeconds.toLocaleString('en-US')} s`, `${config.journalCap} entries`,
    `over ${kib(JOURNAL_BODY_LIMIT)}`, `${config.outboxCap} messages`, `| ${MAX_FAULT_RULES} |`, s(MAX_DELAY_MS),
    `${MAX_FIRED_PER_ADVANCE.toLocaleString('en-US')} fired items`, `| ${MAX_FIRED_LISTED} |`, `the first ${MAX_FIRED_LISTED}`,
    `| ${MAX_TRANSFERS_PER_CUSTOMER}, cancelled`, `the last ${EXECUTIONS_KEPT} `, `| statements kept, per account | the last ${STATEMENTS_KEPT} `,
    `${config.journalMaxBytes / 1024 ** 2} MiB (\`--journal-max-bytes\`)`, `${JOURNAL_HEADER_LIMITS.count} headers, ${kib(JOURNAL_HEADER_LIMITS.bytes)}`,
    `| pinned sessions | ${MAX_PINNED_SESSIONS} |`, `${IDEMPOTENCY_LIMITS.keys} answers and ${kib(IDEMPOTENCY_LIMITS.bytes)}`, `${IDEMPOTENCY_LIMITS.ttlMs / 3_600_000} hours of the session clock`, `${EVENT_FEED_DEFAULTS.maxStreams} at once, ${EVENT_FEED_DEFAULTS.maxStreamsPerClient} from one address`,
    `| ${config.settings.maxCardsPerCustomer} (\`--max-cards\`)`, `| ${config.settings.maxPinLinks} (\`--max-pin-links\`)`, `| ${config.settings.verification.maxVerifications} (\`--max-verifications\`)`
  ]) t.ok(limits.includes(stated), `states ${stated}`)
  t.notOk(limits.includes('| `Prefer: delay` |'), 'the delay cap is stated for all of a request\'s waits, not Prefer alone')
})
