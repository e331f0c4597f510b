import t from 'tap'
import { replica, SharedStore, type Replica } from '../helpers/shared-store.js'

/**
 * The dashboard's live feed when replicas share the sessions (issue 20): a stream open on one
 * replica shows what the session's requests did on every replica, each once.
 */

interface ServerEvent { event: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

/** Reads a text/event-stream body as it comes; `next` waits for an event, failing after a bound rather than hanging. */
class FeedReader {
  readonly events: ServerEvent[] = []
  private buffer = ''
  private wake: (() => void) | undefined
  private ended = false
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>

  constructor (body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader()
    void this.pump()
  }

  async next (event: string, match: (data: any) => boolean = () => true, limitMs = 10_000): Promise<ServerEvent> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const deadline = setTimeout(() => { this.ended = true; this.wake?.() }, limitMs)
    try {
      for (;;) {
        const found = this.events.find(e => e.event === event && match(e.data))
        if (found !== undefined) return found
        if (this.ended) throw new Error(`no ${event} event came; got ${this.events.map(e => e.event).join(', ')}`)
        await new Promise<void>(resolve => { this.wake = resolve })
      }
    } finally {
      clearTimeout(deadline)
    }
  }

  async close (): Promise<void> {
    await this.reader.cancel()
  }

  private async pump (): Promise<void> {
    const decoder = new TextDecoder()
    for (;;) {
      const { done, value } = await this.reader.read().catch(() => ({ done: true, value: undefined }))
      if (done === true || value === undefined) break
      this.buffer += decoder.decode(value, { stream: true })
      let end: number
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, end)
        this.buffer = this.buffer.slice(end + 2)
        const name = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (name !== undefined && data !== undefined) this.events.push({ event: name, data: JSON.parse(data) })
      }
      this.wake?.()
    }
    this.ended = true
    this.wake?.()
  }
}

interface Teardown { teardown: (fn: () => unknown) => void }

async function watch (t: Teardown, r: Replica, session: string): Promise<FeedReader> {
  const response = await r.fetch(`/__mock/events?session=${session}`)
  if (response.status !== 200 || response.body === null) throw new Error(`the feed answered ${response.status}`)
  const feed = new FeedReader(response.body)
  t.teardown(() => feed.close())
  await feed.next('hello')
  return feed
}

const as = (token: string, session: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-mock-session': session })

t.test('a feed open on replica B shows the journal entry and the message of a request served by replica A', async t => {
  const store = new SharedStore()
  const a = replica(store, {}, t)
  const b = replica(store, {}, t)
  const feed = await watch(t, b, 'watched')
  const sent = await a.fetch('/mfa/send-code', { method: 'POST', headers: { ...as('tok_jordan', 'watched'), 'content-type': 'application/json' }, body: '{}' })
  t.equal(sent.status, 202)
  const entry = await feed.next('request', e => e.operationId === 'sendPhoneVerificationCode')
  const sms = await feed.next('outbox')
  const journal = await (await b.fetch('/__mock/requests?order=asc', { headers: { 'x-mock-session': 'watched' } })).json() as { data: unknown[] }
  t.same(journal.data, [entry.data], 'the entry as the journal lists it')
  const latest = await (await b.fetch('/__mock/outbox/latest-code', { headers: { 'x-mock-session': 'watched' } })).json() as { code: string }
  t.match(sms.data, { channel: 'sms', to: '+12125550187', data: { code: latest.code } })
})

t.test('the card A locked shows as its event; B\'s own requests show once; other sessions stay out', async t => {
  const store = new SharedStore()
  const a = replica(store, {}, t)
  const b = replica(store, {}, t)
  const feed = await watch(t, b, 'watched')
  t.equal((await a.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: as('tok_maya', 'elsewhere') })).status, 200)
  t.equal((await b.fetch('/baas/customers', { headers: as('tok_maya', 'watched') })).status, 200)
  await feed.next('request', e => e.operationId === 'getCustomer')
  t.equal((await a.fetch('/baas/debit-cards/card_maya_virtual/lock', { method: 'POST', headers: as('tok_maya', 'watched') })).status, 200)
  const event = await feed.next('event')
  t.match(event.data, { type: 'card.locked', data: { id: 'card_maya_virtual', status: 'LOCKED' } })
  await feed.next('request', e => e.operationId === 'lockCard')
  // The feed is in order: B's own entry, had it come back from the store's feed, would have been before A's.
  t.same(feed.events.filter(e => e.event === 'request').map(e => e.data.operationId), ['getCustomer', 'lockCard'], 'each entry once; nothing from the other session')
  t.equal(feed.events.filter(e => e.event === 'event').length, 1)
})
