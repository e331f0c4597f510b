import { collectGarbage } from '../src/transports/fastify/memory.js'
import { Journal, JournalBudget, type JournalRecord } from '../src/world/journal.js'

/**
 * `npm run journal-footprint`: how much heap journal entries really take, next to what
 * the journal's budget accounts for them (JOURNAL_ACCOUNTING). The accounting should not be below
 * the heap for any shape of request, or `--journal-max-bytes` would not bound memory.
 */
const ENTRIES = 20_000

/** A string of its own, as Node's HTTP parser makes one per header, value and URL (literals would be shared). */
function fresh (text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1')
}

function typicalHeaders (i: number): Record<string, string> {
  const headers: Record<string, string> = {
    host: 'localhost:4010', 'user-agent': 'node', accept: 'application/json', authorization: 'Bearer tok_maya',
    'x-mock-session': `ci-${i % 50}`, 'content-type': 'application/json', connection: 'keep-alive'
  }
  for (const name in headers) headers[name] = fresh(headers[name] as string)
  return headers
}

function floodHeaders (i: number): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let h = 0; h < 900; h++) headers[fresh(`h${h}`)] = fresh(String((h + i) % 10))
  return headers
}

const nested = JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as unknown

const shapes: Record<string, (i: number) => JournalRecord> = {
  'GET, typical headers': i => record(`/baas/customers?page=${i}`, typicalHeaders(i), null),
  'POST with a body': i => record(`/baas/scheduled-transfers/${i}`, typicalHeaders(i), { type: 'ACH', amount: i, counterparty: { accountNumber: '000123456789', routingNumber: '011000015', name: `Name ${i}` } }),
  '900 tiny headers': i => record(`/baas/customers/${i}`, floodHeaders(i), null),
  '4 KiB nested body': i => record(`/baas/customers/${i}`, typicalHeaders(i), nested),
  'long URL': i => record(`/baas/customers/${i}?q=${'x'.repeat(8000)}`, typicalHeaders(i), null)
}

function record (url: string, headers: Record<string, string>, body: unknown): JournalRecord {
  return { timeMs: Date.now(), method: 'GET', url: fresh(url), operationId: 'getCustomer', status: 200, durationMs: 1.25, headers, body, faults: ['fault_1'] }
}

if (!collectGarbage()) throw new Error('needs a runtime that allows gc')
for (const [name, make] of Object.entries(shapes)) {
  collectGarbage()
  const before = process.memoryUsage().heapUsed
  const budget = new JournalBudget(Number.POSITIVE_INFINITY)
  const journals = Array.from({ length: 50 }, () => new Journal(ENTRIES, budget))
  // What a request leaves behind once it is gone: only what its entry retains counts.
  for (let i = 0; i < ENTRIES; i++) journals[i % 50]?.record(make(i))
  collectGarbage()
  const heap = process.memoryUsage().heapUsed - before
  console.log(`${name.padEnd(22)} heap ${(heap / ENTRIES).toFixed(0).padStart(6)} B/entry, accounted ${(budget.bytes / ENTRIES).toFixed(0).padStart(6)} B/entry, ratio ${(heap / budget.bytes).toFixed(2)}`)
  if (heap > budget.bytes) {
    console.error(`  the heap exceeds the accounting: raise JOURNAL_ACCOUNTING, or --journal-max-bytes does not bound memory`)
    process.exitCode = 1
  }
  journals.forEach(j => j.clear())
}
