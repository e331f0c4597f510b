import { get, type IncomingMessage } from 'node:http'

export interface ServerEvent { event: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON

/** A minimal EventSource for tests: connects, parses `event:`/`data:` blocks, waits for the one wanted. */
export class EventStreamClient {
  readonly events: ServerEvent[] = []
  readonly comments: string[] = []
  private buffer = ''
  private waiters: (() => void)[] = []
  ended = false

  private constructor (readonly response: IncomingMessage) {
    response.setEncoding('utf8')
    response.on('data', (chunk: string) => {
      this.buffer += chunk
      let end: number
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        this.parse(this.buffer.slice(0, end))
        this.buffer = this.buffer.slice(end + 2)
      }
      this.wake()
    })
    response.on('close', () => { this.ended = true; this.wake() })
  }

  /** `localAddress` connects from another loopback address (127.0.0.2), as a second client would. */
  static open (url: string, headers: Record<string, string> = {}, localAddress?: string): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      get(url, { headers: { accept: 'text/event-stream', ...headers }, ...(localAddress === undefined ? {} : { localAddress }) }, response => resolve(new EventStreamClient(response))).on('error', reject)
    })
  }

  get status (): number {
    return this.response.statusCode ?? 0
  }

  /** Resolves with the first event (in arrival order) that `match` accepts; rejects if the stream ends first. */
  async next (event: string, match: (data: any) => boolean = () => true, from = 0): Promise<ServerEvent> { // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      const found = this.events.slice(from).find(e => e.event === event && match(e.data))
      if (found !== undefined) return found
      if (this.ended) throw new Error(`the stream ended before a ${event} event; got ${this.events.map(e => e.event).join(', ')}`)
      await new Promise<void>(resolve => this.waiters.push(resolve))
    }
  }

  /** Resolves once the stream has ended. */
  async closed (): Promise<void> {
    while (!this.ended) await new Promise<void>(resolve => this.waiters.push(resolve))
  }

  close (): void {
    this.response.destroy()
  }

  /** The body, for a stream that answered with an error. */
  async text (): Promise<string> {
    await this.closed()
    return this.buffer
  }

  private parse (block: string): void {
    let event = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim())
      else if (line.startsWith('event: ')) event = line.slice(7)
      else if (line.startsWith('data: ')) data.push(line.slice(6))
    }
    if (data.length > 0) this.events.push({ event, data: JSON.parse(data.join('\n')) })
  }

  private wake (): void {
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }
}
