/* global document, location, history, fetch, EventSource, navigator, setTimeout, setInterval, URL, URLSearchParams, CSS, Node */
// The baas-mock dashboard. Plain DOM, no build step. Everything it shows or does goes through the
// mock's own HTTP surface: the control plane (/__mock/...) with the admin token, and the API
// operations with the persona's bearer token, exactly as a frontend would call them.
import { day, describeFault, fillPath, instant, mockRoot, money, period, routeOf, statusTone, timeOfDay, tone } from './format.js'

const ROOT = mockRoot(location.pathname)
const JOURNAL_SHOWN = 100
const MESSAGES_SHOWN = 50
const EVENTS_SHOWN = 50
const DELIVERIES_SHOWN = 50

/** The API operations the dashboard calls: configuration name and default method. */
const OPERATIONS = {
  lockCard: ['API_BAAS_CUSTOMER_CARD_LOCK', 'POST'],
  unlockCard: ['API_BAAS_CUSTOMER_CARD_UNLOCK', 'PUT'],
  reissueCard: ['API_BAAS_REISSUE', 'POST'],
  requestPhysicalCard: ['API_BAAS_PHYSICAL_CARD_REQUEST', 'PUT'],
  sendStatementByEmail: ['API_BAAS_STATEMENT_BY_EMAIL', 'POST'],
  sendPhoneVerificationCode: ['API_PHONE_VERFICATION_SEND_CODE', 'POST']
}

const params = new URLSearchParams(location.search)
const S = {
  session: params.get('session') || 'default',
  persona: params.get('persona') || '',
  world: null,
  scenarios: [],
  env: {},
  journal: [],
  recorded: 0,
  worldEvents: [],
  eventsRecorded: 0,
  endpoints: [],
  deliveries: [],
  messages: [],
  faults: [],
  clock: null,
  fired: [],
  freshId: 0,
  reasons: new Map(),
  shownScenario: null,
  events: null
}
const $ = id => document.getElementById(id)

// ---------------------------------------------------------------- DOM helpers

/** Creates an element: h('button', {class: 'x', onclick: f}, 'text', child). */
function h (tag, props, ...children) {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue
    if (key === 'class') el.className = value
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value)
    else el.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue
    el.append(child instanceof Node ? child : String(child))
  }
  return el
}

const badge = (word, family = tone(word)) => h('span', { class: `badge ${family}` }, word.replaceAll('_', ' ').toLowerCase())

/** Two-column facts: [['Label', value], ...], skipping empty values. */
const facts = rows => h('dl', { class: 'facts' }, rows.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [h('dt', null, k), h('dd', null, v)]))

/**
 * Replaces a region's content, keeping keyboard focus: the focused control is found again by its
 * data-key, or else the tile it belonged to (a Lock button becomes Unlock, focus stays on the card).
 */
function mount (id, ...children) {
  const host = $(id)
  const active = document.activeElement
  const had = host.contains(active) ? { key: active.dataset.key, fallback: active.dataset.fallback } : null
  host.replaceChildren(...children.flat(Infinity).filter(Boolean))
  if (had === null) return
  for (const key of [had.key, had.fallback]) {
    const el = key && host.querySelector(`[data-key="${CSS.escape(key)}"]`)
    if (el) { el.focus(); return }
  }
}

function notify (text, kind = 'ok') {
  const notice = $('notice')
  notice.textContent = text
  notice.dataset.kind = kind
}

// ---------------------------------------------------------------- HTTP

class Problem extends Error {
  constructor (status, body) {
    super(typeof body === 'object' && body !== null && body.detail ? `${status} ${body.code ?? ''}: ${body.detail}` : `HTTP ${status}`)
    this.status = status
  }
}

async function send (method, url, headers, body) {
  const init = { method, headers: { accept: 'application/json', 'x-mock-session': S.session, ...headers } }
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  const res = await fetch(url, init)
  const type = res.headers.get('content-type') ?? ''
  const data = res.status === 204 ? null : type.includes('json') ? await res.json() : await res.text()
  if (!res.ok) throw new Problem(res.status, data)
  return { status: res.status, data }
}

/** The control plane; the admin token, when there is one, goes as the HTTP-only cookie the mock gave for it. */
async function control (method, path, body) {
  try {
    return (await send(method, `${ROOT}/__mock${path}`, {}, body)).data
  } catch (error) {
    if (error.status === 401) askToken()
    throw error
  }
}

/** An API operation as the selected persona would call it. */
async function operation (id, pathId, body) {
  const [name, defaultMethod] = OPERATIONS[id]
  const route = routeOf(S.env[name], defaultMethod)
  if (route === null) throw new Error(`${name} is not in the env export`)
  const url = pathId === undefined ? route.url : fillPath(route.url, pathId)
  const result = await send(route.method, url, S.persona ? { authorization: `Bearer ${S.persona}` } : {}, body)
  return { ...result, line: `${route.method} ${new URL(url, location.href).pathname} → ${result.status}` }
}

/** Runs a user's action: says what happened, then re-reads what it may have changed. */
async function act (what, run) {
  try {
    const said = await run()
    notify(`${what}: done${typeof said === 'string' ? ` (${said})` : ''}.`)
  } catch (error) {
    notify(`${what} failed: ${error.message}`, 'error')
  }
  await refresh()
}

// ---------------------------------------------------------------- loading

async function loadStatic () {
  const [scenarios, env] = await Promise.all([
    control('GET', '/scenarios'),
    control('GET', `/env?format=json&baseUrl=${encodeURIComponent(location.origin + ROOT)}`)
  ])
  S.scenarios = scenarios.scenarios
  S.env = env
  const operationSelect = $('fault-operation')
  operationSelect.replaceChildren(h('option', { value: '' }, 'Every operation'), ...Object.keys(env).map(name => h('option', null, name)))
  await loadEnvText()
}

async function loadEnvText () {
  const prefix = $('env-prefix').value
  const query = new URLSearchParams({ baseUrl: location.origin + ROOT })
  if (prefix) query.set('prefix', prefix)
  $('env-text').value = await control('GET', `/env?${query}`)
}

/** Re-reads everything that may change (not the journal, which the event stream appends to). */
async function refresh () {
  try {
    const [world, outbox, faults, clock, sessions] = await Promise.all([
      control('GET', '/state'), control('GET', `/outbox?limit=${MESSAGES_SHOWN}`), control('GET', '/faults'), control('GET', '/clock'), control('GET', '/sessions')
    ])
    S.world = world
    S.messages = outbox.data
    S.faults = faults.faults
    S.clock = { ...clock, readAt: Date.now() }
    mount('known-sessions', sessions.sessions.map(s => h('option', { value: s.id }, `${s.scenario}, ${s.journalSize} requests`)))
    render()
  } catch (error) {
    if (error.status !== 401) notify(`Could not read the mock: ${error.message}`, 'error')
  }
}

/** The session's events, endpoints and deliveries; the event stream keeps them current afterwards. */
async function loadWebhooks () {
  const [events, endpoints, deliveries] = await Promise.all([
    control('GET', `/webhooks/events?limit=${EVENTS_SHOWN}`), control('GET', '/webhooks/endpoints'), control('GET', `/webhooks/deliveries?limit=${DELIVERIES_SHOWN}`)
  ])
  S.worldEvents = events.data
  S.eventsRecorded = events.recorded
  S.endpoints = endpoints.endpoints
  S.deliveries = deliveries.data
  renderEvents()
  renderDeliveries()
}

async function loadJournal () {
  const journal = await control('GET', `/requests?limit=${JOURNAL_SHOWN}`)
  S.journal = journal.data
  S.recorded = journal.recorded
  renderJournal()
}

const pending = new Set()
/** Runs `task` once within `ms` however often it is asked: a burst of events (a CI run against the watched session) costs one re-read. */
function soon (task, ms) {
  if (pending.has(task)) return
  pending.add(task)
  setTimeout(() => { pending.delete(task); task() }, ms)
}

// ---------------------------------------------------------------- live feed

function setLive (state, text) {
  const live = $('live')
  live.dataset.state = state
  live.textContent = text
}

function connect () {
  S.events?.close()
  const query = new URLSearchParams({ session: S.session })
  const events = new EventSource(`${ROOT}/__mock/events?${query}`)
  S.events = events
  events.addEventListener('hello', async () => {
    setLive('live', `Live: session ${S.session}`)
    await Promise.all([refresh(), loadJournal().catch(() => {}), loadWebhooks().catch(() => {})])
  })
  events.addEventListener('request', event => {
    const entry = JSON.parse(event.data)
    S.journal = [entry, ...S.journal.filter(e => e.id !== entry.id)].slice(0, JOURNAL_SHOWN)
    S.recorded++
    S.freshId = entry.id
    soon(renderJournal, 100)
    soon(refresh, 200)
  })
  events.addEventListener('outbox', event => {
    S.messages = [JSON.parse(event.data), ...S.messages].slice(0, MESSAGES_SHOWN)
    soon(renderOutbox, 100)
  })
  events.addEventListener('event', event => {
    S.worldEvents = [JSON.parse(event.data), ...S.worldEvents].slice(0, EVENTS_SHOWN)
    S.eventsRecorded++
    soon(renderEvents, 100)
  })
  events.addEventListener('delivery', event => {
    const delivery = JSON.parse(event.data)
    const known = S.deliveries.some(d => d.id === delivery.id)
    S.deliveries = known ? S.deliveries.map(d => d.id === delivery.id ? delivery : d) : [delivery, ...S.deliveries].slice(0, DELIVERIES_SHOWN)
    soon(renderDeliveries, 100)
  })
  events.addEventListener('change', () => soon(refresh, 200))
  events.onerror = () => {
    if (events.readyState !== EventSource.CLOSED) return setLive('connecting', 'Reconnecting…')
    // Closed for good (the server said no, or went away): find out why, and try again later.
    setLive('off', 'Not connected')
    control('GET', '/clock').then(() => setTimeout(() => { if (S.events === events) connect() }, 3000), () => {})
  }
}

function askToken () {
  setLive('off', 'Admin token needed')
  $('auth').hidden = false
  $('admin-token').focus()
}

// ---------------------------------------------------------------- rendering

function customer () {
  const world = S.world
  const customerId = world.personas.find(p => p.token === S.persona)?.customerId ?? world.defaultCustomerId
  return world.customers.find(c => c.id === customerId)
}

function render () {
  if (S.world === null) return
  renderPersonas()
  const me = customer()
  renderCustomer(me)
  renderAccounts(me)
  renderCards(me)
  renderTransfers(me)
  renderStatements(me)
  renderOutbox()
  renderClock()
  renderScenarios()
  renderFaults()
}

function scenarioPersona (customerId) {
  return S.scenarios.find(s => s.name === S.world.scenario)?.personas.find(p => p.customerId === customerId)
}

function renderPersonas () {
  const { personas, customers, defaultCustomerId } = S.world
  const byCustomer = new Map()
  for (const p of personas) if (!byCustomer.has(p.customerId)) byCustomer.set(p.customerId, p.token)
  if (!personas.some(p => p.token === S.persona)) S.persona = byCustomer.get(defaultCustomerId) ?? personas[0]?.token ?? ''
  const select = $('persona')
  const options = customers.filter(c => byCustomer.has(c.id)).map(c => {
    const label = scenarioPersona(c.id)?.persona
    return h('option', { value: byCustomer.get(c.id) }, `${c.firstName} ${c.lastName}${label ? ` (${label})` : ''}`)
  })
  if (select.options.length !== options.length || [...select.options].some((o, i) => o.textContent !== options[i].textContent)) select.replaceChildren(...options)
  select.value = S.persona
  rememberInUrl()
}

function renderCustomer (c) {
  if (c === undefined) return mount('customer', h('p', { class: 'hint' }, 'No customer in this world.'))
  const persona = scenarioPersona(c.id)
  const a = c.address
  mount('customer',
    h('div', { class: 'who' },
      h('h3', { id: 'customer-name' }, `${c.firstName} ${c.lastName}`), badge(c.status),
      persona?.persona ? h('span', { class: 'badge info' }, persona.persona) : null),
    persona?.description ? h('p', { class: 'hint' }, persona.description) : null,
    facts([
      ['Customer', h('code', null, c.id)],
      ['Token', h('code', null, S.persona)],
      ['E-mail', c.email],
      ['Phone', [c.phone, ' ', badge(c.phoneVerified ? 'VERIFIED' : 'UNVERIFIED')]],
      ['Address', a ? `${a.line1}${a.line2 ? `, ${a.line2}` : ''}, ${a.city}, ${a.state} ${a.postalCode}` : ''],
      ['Born', day(c.dateOfBirth)],
      ['SSN', `•••–••–${c.ssnLast4}`]
    ]),
    h('div', { class: 'row' },
      h('button', { type: 'button', 'data-key': 'send-code', onclick: () => act('Send a verification code', async () => (await operation('sendPhoneVerificationCode', undefined, { channel: 'SMS' })).line) }, 'Send code by SMS'),
      h('button', { type: 'button', 'data-key': 'physical', onclick: () => act('Request a physical card', async () => (await operation('requestPhysicalCard', undefined, {})).line) }, 'Request physical card'))
  )
}

function accountName (id) {
  const account = S.world.accounts.find(a => a.id === id)
  return account ? `${account.type === 'CHECKING' ? 'Checking' : 'Savings'} ••${account.last4}` : id
}

function renderAccounts (c) {
  const accounts = S.world.accounts.filter(a => a.customerId === c?.id)
  if (accounts.length === 0) return mount('accounts', h('p', { class: 'hint' }, 'No accounts.'))
  mount('accounts', h('table', null,
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Account'), h('th', { scope: 'col' }, 'Id'), h('th', { scope: 'col', class: 'num' }, 'Balance'))),
    h('tbody', null, accounts.map(a => h('tr', null,
      h('th', { scope: 'row' }, accountName(a.id)), h('td', null, h('code', null, a.id)), h('td', { class: `num${a.balance < 0 ? ' negative' : ''}` }, money(a.balance, a.currency)))))))
}

function renderCards (c) {
  const cards = S.world.debitCards.filter(card => card.customerId === c?.id)
  if (cards.length === 0) return mount('cards', h('p', { class: 'hint' }, 'No debit cards.'))
  mount('cards', cards.map(cardTile))
}

function cardTile (card) {
  const name = `card ending ${card.last4}`
  const key = `card:${card.id}`
  const button = (action, label, run) => h('button', { type: 'button', 'data-key': `${action}:${card.id}`, 'data-fallback': key, 'aria-label': `${label} ${name}`, onclick: () => act(`${label} ${name}`, run) }, label)
  const s = card.shipment
  const open = card.status !== 'CLOSED'
  // The chosen reason outlives the re-renders that live updates cause.
  const reason = h('select', { 'aria-label': `Reissue reason for ${name}`, 'data-key': `reason:${card.id}`, onchange: event => S.reasons.set(card.id, event.target.value) },
    ['DAMAGED', 'EXPIRED', 'LOST', 'STOLEN'].map(r => h('option', { value: r, selected: S.reasons.get(card.id) === r }, r.toLowerCase())))
  return h('article', { class: `tile card-tile status-${card.status.toLowerCase()}`, 'data-key': key, 'data-card': card.id, tabindex: '-1', 'aria-labelledby': `title-${card.id}` },
    h('header', null,
      h('h3', { id: `title-${card.id}` }, `${card.network === 'VISA' ? 'Visa' : 'Mastercard'} ${card.form.toLowerCase()} •• ${card.last4}`),
      h('span', { class: 'card-status' }, badge(card.status))),
    facts([
      ['Number', h('code', null, card.maskedPan)],
      ['Expires', `${String(card.expirationMonth).padStart(2, '0')}/${card.expirationYear}`],
      ['PIN', badge(card.pinStatus)],
      ['Closed', card.closedReason ? card.closedReason.toLowerCase() : ''],
      ['Locked', card.lockedAt ? instant(card.lockedAt) : ''],
      ['Replaces', card.replacementFor ? h('code', null, card.replacementFor) : ''],
      ['Replaced by', card.replacedBy ? h('code', null, card.replacedBy) : ''],
      ['Shipment', s ? [badge(s.status), ` ${s.method.toLowerCase()}`, s.eta ? `, ETA ${day(s.eta)}` : '', s.trackingNumber ? [', tracking ', h('code', null, s.trackingNumber)] : ''] : ''],
      ['Id', h('code', null, card.id)]
    ]),
    h('div', { class: 'row actions' },
      card.status === 'ACTIVE' ? button('lock', 'Lock', async () => (await operation('lockCard', card.id)).line) : null,
      card.status === 'LOCKED' ? button('unlock', 'Unlock', async () => (await operation('unlockCard', card.id)).line) : null,
      card.status === 'PENDING_ACTIVATION' ? button('activate', 'Activate', () => control('POST', `/simulations/cards/${card.id}/activate`).then(() => 'simulation')) : null,
      open && s && s.status !== 'DELIVERED' ? button('deliver', 'Deliver', () => control('POST', `/simulations/cards/${card.id}/deliver`).then(() => 'simulation')) : null),
    open
      ? h('div', { class: 'row actions' }, reason,
        button('reissue', 'Reissue', async () => (await operation('reissueCard', card.id, { reason: reason.value })).line))
      : null)
}

function renderTransfers (c) {
  const transfers = S.world.scheduledTransfers.filter(t => t.customerId === c?.id)
  if (transfers.length === 0) return mount('transfers', h('p', { class: 'hint' }, 'No scheduled transfers.'))
  mount('transfers', transfers.map(transferTile))
}

function transferTile (t) {
  const key = `transfer:${t.id}`
  const to = t.type === 'INTERNAL' ? accountName(t.toAccountId) : `${t.counterparty.name} ••${t.counterparty.accountNumberLast4} (ACH ${t.secCode ?? ''})`
  const runs = t.numberOfOccurrences ? `${t.occurrencesCompleted} of ${t.numberOfOccurrences}` : `${t.occurrencesCompleted}${t.endDate ? `, until ${day(t.endDate)}` : ''}`
  const button = (action, label, run) => h('button', { type: 'button', 'data-key': `${action}:${t.id}`, 'data-fallback': key, 'aria-label': `${label} for transfer ${t.id}`, onclick: () => act(`${label} for ${t.id}`, run) }, label)
  return h('article', { class: 'tile', 'data-key': key, tabindex: '-1', 'aria-labelledby': `title-${t.id}` },
    h('header', null, h('h3', { id: `title-${t.id}` }, `${money(t.amount, t.currency)} ${t.frequency.toLowerCase()}`), badge(t.status)),
    facts([
      ['From', accountName(t.fromAccountId)],
      ['To', to],
      ['Memo', t.memo],
      ['Next run', t.nextRunDate ? day(t.nextRunDate) : ''],
      ['Runs done', runs],
      ['Next fails', t.failNextWith ? badge(t.failNextWith, 'bad') : ''],
      ['Id', h('code', null, t.id)]
    ]),
    t.executions.length === 0
      ? null
      : h('details', null, h('summary', null, t.occurrencesCompleted > t.executions.length
        ? `Executions (the last ${t.executions.length} of ${t.occurrencesCompleted})`
        : `Executions (${t.executions.length})`),
        h('table', null,
          h('thead', null, h('tr', null, ['Scheduled', 'Executed', 'Amount', 'Result'].map(x => h('th', { scope: 'col' }, x)))),
          h('tbody', null, [...t.executions].reverse().map(e => h('tr', null,
            h('td', null, day(e.scheduledDate)), h('td', null, day(e.executionDate)), h('td', { class: 'num' }, money(e.amount, t.currency)),
            h('td', null, badge(e.status), e.failureReason ? ` ${e.failureReason}` : '', e.returnCode ? h('span', { title: e.returnReason }, ` ${e.returnCode}`) : '')))))),
    t.status === 'ACTIVE'
      ? h('div', { class: 'row actions' },
        button('run', 'Run now', async () => `${(await control('POST', `/simulations/transfers/${t.id}/run`)).fired.length} fired`),
        button('fail', 'Fail next run', () => control('POST', `/simulations/transfers/${t.id}/fail-next`, {}).then(() => 'simulation')))
      : null,
    returnControl(t, button))
}

/** The NACHA codes POST /__mock/simulations/transfers/{id}/return takes (src/domain/ach-return-codes.ts). */
const RETURN_CODES = ['R01', 'R02', 'R03', 'R04', 'R07', 'R08', 'R10', 'R16', 'R20', 'R29']

/** An ACH transfer whose latest payment is PENDING or SETTLED can have the receiving bank return it. */
function returnControl (t, button) {
  if (t.type !== 'ACH' || !t.executions.some(e => e.status === 'PENDING' || e.status === 'SETTLED')) return null
  // The chosen code outlives the re-renders that live updates cause.
  const code = S.reasons.get(t.id) ?? RETURN_CODES[0]
  return h('div', { class: 'row actions' },
    h('select', { 'aria-label': `Return code for transfer ${t.id}`, 'data-key': `return-code:${t.id}`, onchange: event => S.reasons.set(t.id, event.target.value) },
      RETURN_CODES.map(c => h('option', { value: c, selected: c === code }, c))),
    button('return', 'Return latest payment', async () => {
      const { transfer } = await control('POST', `/simulations/transfers/${t.id}/return`, { returnCode: S.reasons.get(t.id) ?? RETURN_CODES[0] })
      return `returned, transfer ${transfer.status.toLowerCase()}`
    }))
}

function renderStatements (c) {
  const statements = S.world.statements.filter(s => s.customerId === c?.id).sort((a, b) => b.periodStart.localeCompare(a.periodStart))
  if (statements.length === 0) return mount('statements', h('p', { class: 'hint' }, 'No statements.'))
  mount('statements', h('table', null,
    h('thead', null, h('tr', null, ['Period', 'Opening', 'Closing'].map((x, i) => h('th', { scope: 'col', class: i > 0 ? 'num' : null }, x)).concat(h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions'))))),
    h('tbody', null, statements.map(s => h('tr', null,
      h('th', { scope: 'row' }, h('span', { class: 'nowrap' }, period(s.periodStart, s.periodEnd)), h('br'), h('span', { class: 'muted small' }, accountName(s.accountId))),
      h('td', { class: 'num' }, money(s.openingBalance, s.currency)), h('td', { class: 'num' }, money(s.closingBalance, s.currency)),
      h('td', null, h('button', {
        type: 'button', 'data-key': `email:${s.id}`, 'aria-label': `E-mail statement ${s.id}`,
        onclick: () => act(`E-mail statement ${s.id}`, async () => (await operation('sendStatementByEmail', s.id)).line)
      }, 'E-mail')))))))
}

function renderOutbox () {
  const latest = S.messages.find(m => typeof m.data?.code === 'string')
  // A code stays in the outbox after it was used, expired or replaced: say so next to it.
  const pending = latest && (S.world?.phoneVerifications ?? []).find(v => v.id === latest.data.verificationId && v.code === latest.data.code &&
    v.expiredAt === undefined && Date.parse(v.expiresAt) > Date.parse(S.world.now) && v.checksMade < (S.world.settings?.maxChecks ?? Infinity))
  mount('latest-code', latest
    ? [h('p', { class: 'big-code', id: 'code-value', 'aria-label': `Code ${latest.data.code.split('').join(' ')}` }, latest.data.code),
        h('p', { class: 'hint' }, `${latest.channel.toUpperCase()} to ${latest.to}, ${instant(latest.sentAt)}`),
        pending ? null : h('p', { class: 'hint', 'data-key': 'code-stale' }, 'No longer valid (verified, expired or replaced): send a new code.'),
        h('button', { type: 'button', 'data-key': 'copy-code', onclick: () => copy(latest.data.code, 'Code') }, 'Copy code')]
    : h('p', { class: 'hint' }, 'No code sent yet in this session. “Send code by SMS” sends one.'))
  mount('messages', S.messages.length === 0
    ? h('li', { class: 'hint' }, 'Nothing sent yet.')
    : S.messages.map(m => h('li', { class: 'message' },
      h('details', null,
        h('summary', null, h('span', { class: 'badge info' }, m.channel === 'email' ? 'e-mail' : m.channel), ` ${m.subject ?? m.body} `, h('span', { class: 'muted' }, `to ${m.to}, ${timeOfDay(m.sentAt)}`)),
        h('pre', null, m.body)))))
}

function renderClock () {
  if (S.clock === null) return
  const now = S.clock.frozen ? Date.parse(S.clock.now) : Date.parse(S.clock.now) + (Date.now() - S.clock.readAt)
  const iso = new Date(now).toISOString()
  const el = $('clock-now')
  el.dateTime = iso
  el.textContent = instant(iso)
  const mode = $('clock-mode')
  mode.textContent = S.clock.frozen ? 'frozen' : 'running'
  mode.className = `badge ${S.clock.frozen ? 'info' : 'good'}`
  mount('fired', S.fired.map(e => h('li', null, h('code', null, e.kind), ` ${e.detail} `, h('span', { class: 'muted' }, timeOfDay(e.at)))))
}

function renderScenarios () {
  const select = $('scenario')
  if (select.options.length !== S.scenarios.length) select.replaceChildren(...S.scenarios.map(s => h('option', { value: s.name }, s.name)))
  // Follow the world's scenario when it changes, not on every refresh: a choice being made stays.
  if (S.shownScenario !== S.world.scenario) select.value = S.shownScenario = S.world.scenario
  $('scenario-description').textContent = S.scenarios.find(s => s.name === select.value)?.description ?? ''
}

function renderFaults () {
  mount('fault-list', S.faults.length === 0
    ? h('li', { class: 'hint' }, 'No faults: every operation answers normally.')
    : S.faults.map(f => h('li', { class: 'fault' },
      h('span', null, describeFault(f), h('span', { class: 'muted' }, ` (${f.hits} hit${f.hits === 1 ? '' : 's'})`)),
      h('button', { type: 'button', 'data-key': `remove:${f.id}`, 'aria-label': `Remove fault ${f.id}`, onclick: () => act(`Remove fault ${f.id}`, () => control('DELETE', `/faults/${f.id}`)) }, 'Remove'))))
}

function renderEvents () {
  $('events-count').textContent = S.eventsRecorded > S.worldEvents.length ? `(latest ${S.worldEvents.length} of ${S.eventsRecorded})` : `(${S.worldEvents.length})`
  mount('event-list', S.worldEvents.length === 0
    ? h('li', { class: 'hint' }, 'No events in this session yet: lock a card, or advance the clock.')
    : S.worldEvents.map(e => h('li', { class: 'entry', 'data-event': e.id },
      h('details', null,
        h('summary', null,
          h('span', { class: 'muted' }, instant(e.timestamp)), ' ', h('code', null, e.type), ' ',
          e.originalType ? h('span', { class: 'muted' }, `(${e.originalType}) `) : null, e.detail),
        h('pre', null, JSON.stringify(e.payload ?? { type: e.type, timestamp: e.timestamp, data: e.data, previousAttributes: e.previousAttributes }, null, 2))))))
}

function renderDeliveries () {
  mount('endpoint-list', S.endpoints.length === 0
    ? h('li', { class: 'hint' }, 'No webhook endpoint in this session: start the mock with --webhook-url, or POST /__mock/webhooks/endpoints.')
    : S.endpoints.map(e => h('li', null, h('code', null, e.url), h('span', { class: 'muted' }, ` ${e.events === null ? 'every event' : e.events.join(', ')}`))))
  mount('delivery-list', S.deliveries.length === 0
    ? h('li', { class: 'hint' }, 'Nothing delivered yet.')
    : S.deliveries.map(d => {
      const last = d.attempts.at(-1)
      const outcome = last === undefined ? 'waiting' : last.status !== undefined ? `HTTP ${last.status}` : last.error
      return h('li', { class: 'entry', 'data-delivery': d.id },
        h('details', null,
          h('summary', null,
            badge(d.status), ' ', h('code', null, d.eventType), ' ',
            h('span', { class: 'muted' }, `${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}, ${outcome}${d.failureReason ? `, ${d.failureReason}` : ''}`)),
          h('p', { class: 'hint' }, `To ${d.url}, webhook-id ${d.eventId}${d.nextAttemptAt ? `; next attempt ${instant(d.nextAttemptAt)}` : ''}`),
          d.attempts.length === 0
            ? null
            : h('table', null,
              h('thead', null, h('tr', null, ['Sent', 'Answer', 'Took'].map(x => h('th', { scope: 'col' }, x)))),
              h('tbody', null, d.attempts.map(a => h('tr', null,
                h('td', null, timeOfDay(a.at), a.manual ? ' (by hand)' : ''),
                h('td', null, a.status !== undefined ? h('span', { class: `badge ${statusTone(a.status)}` }, String(a.status)) : a.error),
                h('td', { class: 'num' }, `${a.durationMs} ms`)))))),
        d.status === 'PENDING' && last === undefined
          ? null
          : h('button', {
            type: 'button', 'data-key': `retry:${d.id}`, 'aria-label': `Retry delivery of ${d.eventType} to ${d.url}`,
            onclick: () => act(`Retry delivery ${d.id}`, async () => { await control('POST', `/webhooks/deliveries/${d.id}/retry`); return 'sent again' })
          }, 'Retry'))
    }))
}

function renderJournal () {
  const freshId = S.freshId
  $('journal-count').textContent = S.recorded > S.journal.length ? `(latest ${S.journal.length} of ${S.recorded})` : `(${S.journal.length})`
  mount('journal', S.journal.length === 0
    ? h('li', { class: 'hint' }, 'No API requests in this session yet.')
    : S.journal.map(e => h('li', { class: `entry${e.id === freshId ? ' fresh' : ''}`, 'data-entry': e.id },
      h('details', null,
        h('summary', null,
          h('span', { class: 'muted' }, timeOfDay(e.time)), ' ',
          h('strong', null, e.method), ' ', h('code', null, e.url), ' ',
          h('span', { class: `badge ${statusTone(e.status)}` }, e.status === 0 ? 'dropped' : String(e.status)), ' ',
          h('span', { class: 'muted' }, `${e.operationId ?? 'no operation'}, ${e.durationMs} ms${e.persona ? `, as ${e.persona.customerId}${e.persona.via === 'default' ? ' (default)' : ''}` : ''}${e.source ? `, ${e.source}` : ''}`)),
        h('pre', null, JSON.stringify({ headers: e.headers, body: e.body, faults: e.faults }, null, 2))))))
}

// ---------------------------------------------------------------- controls

async function copy (text, what) {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    // Plain http on another host is not a secure context: select the text and use the old command.
    const area = $('env-text')
    const before = area.value
    area.value = text
    area.select()
    document.execCommand('copy')
    area.value = before
  }
  notify(`${what} copied to the clipboard.`)
}

function rememberInUrl () {
  const query = new URLSearchParams({ session: S.session })
  if (S.persona) query.set('persona', S.persona)
  history.replaceState(null, '', `${location.pathname}?${query}`)
}

function watch (session) {
  S.session = session
  S.journal = []
  S.messages = []
  S.fired = []
  S.worldEvents = []
  S.deliveries = []
  $('session').value = session
  rememberInUrl()
  setLive('connecting', 'Connecting…')
  connect()
}

function wire () {
  $('session').value = S.session
  $('pick').addEventListener('submit', event => {
    event.preventDefault()
    const value = $('session').value.trim()
    if (value && value !== S.session) watch(value)
  })
  $('persona').addEventListener('change', event => {
    S.persona = event.target.value
    render()
  })
  $('auth').addEventListener('submit', async event => {
    event.preventDefault()
    // Sent once, in a header, for the cookie; the page keeps no copy (not in storage, not in a URL).
    const res = await fetch(`${ROOT}/__mock/ui`, { method: 'POST', headers: { 'x-mock-admin-token': $('admin-token').value } })
    $('admin-token').value = ''
    if (!res.ok) return askToken()
    $('auth').hidden = true
    start()
  })
  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => advance(button.dataset.advance))
  }
  $('advance').addEventListener('submit', event => {
    event.preventDefault()
    advance($('advance-by').value.trim())
  })
  $('scenario').addEventListener('change', () => {
    $('scenario-description').textContent = S.scenarios.find(s => s.name === $('scenario').value)?.description ?? ''
  })
  $('scenario-form').addEventListener('submit', event => {
    event.preventDefault()
    const scenario = $('scenario').value
    act(`Switch to ${scenario}`, () => control('POST', '/reset', { scenario }).then(() => 'session reset'))
  })
  $('reset').addEventListener('click', () => act('Reset the session', () => control('POST', '/reset', {})))
  $('fault-form').addEventListener('submit', event => {
    event.preventDefault()
    const rule = {}
    const operationName = $('fault-operation').value
    const number = id => $(id).value === '' ? undefined : Number($(id).value)
    if (operationName) rule.operation = operationName
    if (number('fault-status') !== undefined) rule.status = number('fault-status')
    if (number('fault-delay') !== undefined) rule.delay = number('fault-delay')
    if (number('fault-count') !== undefined) rule.count = number('fault-count')
    act('Add a fault', async () => (await control('POST', '/faults', rule)).id)
  })
  $('clear-faults').addEventListener('click', () => act('Clear the faults', () => control('DELETE', '/faults')))
  $('clear-outbox').addEventListener('click', () => act('Clear the outbox', () => control('DELETE', '/outbox')))
  $('clear-journal').addEventListener('click', () => act('Clear the journal', async () => {
    await control('DELETE', '/requests')
    await loadJournal()
  }))
  $('env-prefix').addEventListener('change', () => loadEnvText().catch(error => notify(error.message, 'error')))
  $('copy-env').addEventListener('click', () => copy($('env-text').value, '.env'))
  // A running clock ticks on screen between reads.
  setInterval(() => { if (S.clock !== null && !S.clock.frozen) renderClock() }, 1000)
}

function advance (by) {
  act(`Advance the clock by ${by}`, async () => {
    const result = await control('POST', '/clock/advance', { by })
    S.fired = result.fired
    const listed = result.truncated ? ` (the first ${result.fired.length} listed)` : ''
    return `${result.firedCount} event${result.firedCount === 1 ? '' : 's'} fired${listed}`
  })
}

async function start () {
  try {
    await loadStatic()
  } catch (error) {
    if (error.status !== 401) notify(`Could not read the mock: ${error.message}`, 'error')
    return
  }
  connect()
}

wire()
start()
