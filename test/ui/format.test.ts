import t from 'tap'

// The dashboard's pure helpers are plain browser JavaScript (no build step); Node imports them as they are.
interface Format {
  mockRoot: (pathname: string) => string
  routeOf: (value: string | undefined, defaultMethod: string) => { method: string; url: string } | null
  fillPath: (url: string, id: string) => string
  money: (minor: number, currency?: string) => string
  day: (date: unknown) => string
  period: (start: string, end: string) => string
  instant: (iso: unknown) => string
  timeOfDay: (iso: unknown) => string
  describeFault: (rule: Record<string, unknown>) => string
  tone: (status: string) => string
  statusTone: (status: number) => string
}
const format = await import(new URL('../../src/ui/format.js', import.meta.url).href) as Format

t.test('the mock root is the page path minus /__mock/ui, so the page works behind a path prefix', async t => {
  t.equal(format.mockRoot('/__mock/ui/'), '')
  t.equal(format.mockRoot('/__mock/ui'), '')
  t.equal(format.mockRoot('/mock/__mock/ui/'), '/mock')
  t.equal(format.mockRoot('/teams/a/baas/__mock/ui/index.html'), '/teams/a/baas')
  t.equal(format.mockRoot('/elsewhere/'), '', 'not under /__mock/ui: the origin root')
})

t.test('operation routes come from the env export, a moved method included', async t => {
  t.same(format.routeOf('http://127.0.0.1:4010/mock/baas/debit-cards/$CARD_ID/lock', 'POST'), { method: 'POST', url: 'http://127.0.0.1:4010/mock/baas/debit-cards/$CARD_ID/lock' })
  t.same(format.routeOf('DELETE http://h/x/$CARD_ID', 'POST'), { method: 'DELETE', url: 'http://h/x/$CARD_ID' })
  t.equal(format.routeOf(undefined, 'POST'), null)
  t.equal(format.routeOf('two words here', 'POST'), null)
  t.equal(format.fillPath('http://h/baas/debit-cards/$CARD_ID/lock', 'card_a b'), 'http://h/baas/debit-cards/card_a%20b/lock')
})

t.test('money, dates and instants read as a person would, in the mock clock\'s UTC', async t => {
  t.equal(format.money(482519), '$4,825.19')
  t.equal(format.money(-1250, 'USD'), '-$12.50')
  t.equal(format.money(100, 'EUR'), '€1.00')
  t.equal(format.day('2026-12-02'), 'Wed, Dec 2, 2026')
  t.equal(format.day('soon'), 'soon')
  t.equal(format.day(undefined), '—')
  t.equal(format.period('2026-10-01', '2026-10-31'), 'Oct 1 – Oct 31, 2026', 'periodEnd is the last day of the period')
  t.equal(format.period('2025-12-01', '2025-12-31'), 'Dec 1 – Dec 31, 2025')
  t.equal(format.period('2025-12-15', '2026-01-14'), 'Dec 15, 2025 – Jan 14, 2026')
  t.equal(format.instant('2026-11-23T15:00:00.000Z'), 'Mon, Nov 23, 2026, 15:00:00 UTC')
  t.equal(format.instant('later'), 'later')
  t.equal(format.timeOfDay('2026-11-23T15:04:05.000Z'), '15:04:05')
  t.equal(format.timeOfDay(undefined), '')
})

t.test('a fault rule in words', async t => {
  const rule = { operation: null, status: null, code: null, reset: false, delay: null, probability: 1, remaining: null }
  t.equal(format.describeFault({ ...rule, operation: 'lockCard', status: 503, code: 'fault_injected' }), 'lockCard: answers 503 fault_injected')
  t.equal(format.describeFault({ ...rule, reset: true, delay: 800, remaining: 2 }), 'every operation: drops the connection and waits 800 ms, 2 left')
  t.equal(format.describeFault({ ...rule, delay: { min: 100, max: 900 }, probability: 0.25 }), 'every operation: waits 100–900 ms, 25% of the time')
})

t.test('status words and HTTP statuses get a colour family', async t => {
  t.same(['ACTIVE', 'LOCKED', 'CLOSED', 'QUEUED'].map(format.tone), ['good', 'warn', 'bad', 'info'])
  t.same([200, 404, 503, 0].map(format.statusTone), ['good', 'warn', 'bad', 'bad'])
})
