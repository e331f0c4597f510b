// Pure helpers of the dashboard (no DOM), so Node tests can import them as they are.

/** Where the mock is mounted: the page's path minus `/__mock/ui…` ('' at the root, '/mock' behind a proxy). */
export function mockRoot (pathname) {
  const at = pathname.lastIndexOf('/__mock/ui')
  return at < 0 ? '' : pathname.slice(0, at)
}

/** `{method, url}` of an operation from the env export's JSON value (`[METHOD ]URL`), or the default method. */
export function routeOf (envValue, defaultMethod) {
  const match = /^(?:([A-Z]+) )?(\S+)$/.exec(envValue ?? '')
  return match === null ? null : { method: match[1] ?? defaultMethod, url: match[2] }
}

/** Puts an id in the route's placeholder ($CARD_ID, $STATEMENT_ID…). */
export function fillPath (url, id) {
  return url.replace(/\$[A-Z_]+/, encodeURIComponent(id))
}

const moneyFormats = new Map()

/** Minor units as money: 482519 USD → $4,825.19. */
export function money (minor, currency = 'USD') {
  let format = moneyFormats.get(currency)
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency })
    moneyFormats.set(currency, format)
  }
  return format.format(minor / 100)
}

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' })
const instantFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })

/** A calendar date 'YYYY-MM-DD' → 'Wed, Dec 2, 2026'; anything else as given. */
export function day (date) {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return date ?? '—'
  return dayFormat.format(new Date(`${date}T00:00:00Z`))
}

const shortDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' })

/** A period of two calendar dates, both inclusive: 'Oct 1 – Oct 31, 2026' (the year once when both share it). */
export function period (start, end) {
  if (start.slice(0, 4) !== end.slice(0, 4)) return `${day(start).replace(/^\w+, /, '')} – ${day(end).replace(/^\w+, /, '')}`
  return `${shortDay.format(new Date(`${start}T00:00:00Z`))} – ${shortDay.format(new Date(`${end}T00:00:00Z`))}, ${end.slice(0, 4)}`
}

/** An RFC 3339 instant in UTC, as the mock clock keeps it: 'Mon, Nov 23, 2026, 15:00:00 UTC'. */
export function instant (iso) {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? String(iso ?? '—') : `${instantFormat.format(new Date(ms))} UTC`
}

/** The time of day of an instant, UTC: '15:00:01'. */
export function timeOfDay (iso) {
  return typeof iso === 'string' && iso.length >= 19 ? iso.slice(11, 19) : String(iso ?? '')
}

/** A fault rule in words: '503 (count 2) on lockCard'. */
export function describeFault (rule) {
  const effects = []
  if (rule.status !== null) effects.push(`answers ${rule.status}${rule.code === null ? '' : ` ${rule.code}`}`)
  if (rule.reset) effects.push('drops the connection')
  if (rule.delay !== null) effects.push(typeof rule.delay === 'number' ? `waits ${rule.delay} ms` : `waits ${rule.delay.min}–${rule.delay.max} ms`)
  const scope = rule.operation === null ? 'every operation' : rule.operation
  const odds = rule.probability < 1 ? `, ${Math.round(rule.probability * 100)}% of the time` : ''
  const left = rule.remaining === null ? '' : `, ${rule.remaining} left`
  return `${scope}: ${effects.join(' and ')}${odds}${left}`
}

/** The badge colour family of a status word. */
export function tone (status) {
  if (/^(ACTIVE|SUCCEEDED|SETTLED|DELIVERED|APPROVED|SET|VERIFIED|COMPLETED)$/.test(status)) return 'good'
  if (/^(LOCKED|PENDING_ACTIVATION|ORDERED|SHIPPED|NOT_SET|UNVERIFIED|PENDING)$/.test(status)) return 'warn'
  if (/^(CLOSED|FAILED|CANCELLED|FROZEN|ARCHIVED|RETURNED)$/.test(status)) return 'bad'
  return 'info'
}

/** HTTP status class of a journal entry, for its badge. */
export function statusTone (status) {
  if (status === 0 || status >= 500) return 'bad'
  if (status >= 400) return 'warn'
  return 'good'
}
