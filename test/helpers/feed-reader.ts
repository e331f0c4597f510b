import type { Replica } from './shared-store.js'

export interface ServerEvent { event: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

/** Reads a text/event-stream body as it comes, as an EventSource would; `next` waits for an event, failing after a bound rather than hanging. */
export class FeedReader {
  readonly events: ServerEvent[] = []
  private buffer = ''
  /** Every `next` waiting: each is woken by a new event, the end, or its own deadline (one slot would wake only the last caller). */
  private readonly waiting = new Set<() => void>()
  private streamEnded = false
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly finished: Promise<void>

  constructor (body: ReadableStream<Uint8Array> | null) {
    if (body === null) throw new Error('the answer has no body')
    this.reader = body.getReader()
    this.finished = this.pump()
  }

  /** The server ended the stream. */
  get ended (): boolean {
    return this.streamEnded
  }

  /** The first event named `event` that `match` accepts, waiting for it; throws if the stream ends first or `limitMs` pass. */
  async next (event: string, match: (data: any) => boolean = () => true, limitMs = 10_000): Promise<ServerEvent> { // eslint-disable-line @typescript-eslint/no-explicit-any
    let late = false
    let wake = (): void => {}
    const deadline = setTimeout(() => { late = true; wake() }, limitMs)
    try {
      for (;;) {
        const found = this.events.find(e => e.event === event && match(e.data))
        if (found !== undefined) return found
        if (this.streamEnded || late) throw new Error(`no ${event} event came${this.streamEnded ? ' before the stream ended' : ''}; got ${this.events.map(e => e.event).join(', ')}`)
        await new Promise<void>(resolve => {
          wake = resolve
          this.waiting.add(resolve)
        })
        this.waiting.delete(wake)
      }
    } finally {
      this.waiting.delete(wake)
      clearTimeout(deadline)
    }
  }

  /** Resolves once the server ends the stream (it must, or the test times out). */
  async untilEnd (): Promise<void> {
    await this.finished
  }

  /** Stops reading. Waits for our side to end, not for the cancel to reach the server: through MSW the body is
   * one branch of a tee whose cancel settles only when every branch is cancelled, so on Node 24 it never does. */
  async close (): Promise<void> {
    await Promise.race([this.reader.cancel().catch(() => {}), this.finished])
  }

  private wakeAll (): void {
    for (const wake of [...this.waiting]) wake()
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
      this.wakeAll()
    }
    this.streamEnded = true
    this.wakeAll()
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
