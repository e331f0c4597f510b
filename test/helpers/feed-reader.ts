import type { Replica } from './shared-store.js'

export interface ServerEvent { event: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

/** Reads a text/event-stream body as it comes; `next` waits for an event, failing after a bound rather than hanging. */
export class FeedReader {
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

export async function watch (t: Teardown, r: Replica, session: string): Promise<FeedReader> {
  const response = await r.fetch(`/__mock/events?session=${session}`)
  if (response.status !== 200 || response.body === null) throw new Error(`the feed answered ${response.status}`)
  const feed = new FeedReader(response.body)
  t.teardown(() => feed.close())
  await feed.next('hello')
  return feed
}
