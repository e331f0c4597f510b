import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: Record<string, string>
  body: string
}

/** What the receiver does with the n-th request (from 0), sent to `path`: answer a status, or never answer. */
export type Behaviour = (n: number, path: string) => number | 'hang'

/**
 * A webhook receiver on loopback, as a team's backend would run one: it records every request
 * and answers as told. `next(n)` resolves once it has received n requests.
 */
export class Receiver {
  readonly received: Received[] = []
  /** Requests being held open now, and the most ever held at once. */
  open = 0
  maxOpen = 0
  private readonly waiters: Array<{ count: number; resolve: () => void }> = []
  private readonly hung = new Set<ServerResponse>()
  private readonly server = createServer((req, res) => { void this.handle(req, res) })

  private constructor (public behaviour: Behaviour) {}

  static async start (behaviour: Behaviour = () => 200): Promise<Receiver> {
    const receiver = new Receiver(behaviour)
    await new Promise<void>(resolve => receiver.server.listen(0, '127.0.0.1', resolve))
    return receiver
  }

  get url (): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }

  /** Resolves once `count` requests have arrived. */
  async next (count = this.received.length + 1): Promise<Received[]> {
    if (this.received.length < count) await new Promise<void>(resolve => this.waiters.push({ count, resolve }))
    return this.received.slice(0, count)
  }

  async close (): Promise<void> {
    for (const res of this.hung) res.destroy()
    this.server.closeAllConnections()
    await new Promise(resolve => this.server.close(resolve))
  }

  private async handle (req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = ''
    for await (const chunk of req) body += String(chunk)
    const n = this.received.length
    this.received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body })
    const action = this.behaviour(n, req.url ?? '')
    if (action === 'hang') {
      this.open++
      this.maxOpen = Math.max(this.maxOpen, this.open)
      this.hung.add(res)
      res.on('close', () => { this.open--; this.hung.delete(res) })
    } else {
      res.writeHead(action, { 'content-type': 'text/plain' }).end('ok')
    }
    for (const waiter of [...this.waiters]) {
      if (this.received.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  }
}

/** Polls `check` until it holds (a delivery settles off the request path); fails after `limitMs`, naming `what`. */
export async function until<T> (check: () => Promise<T | undefined | false>, what: string, limitMs = 10_000, describe: () => unknown = () => ''): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} ${JSON.stringify(await describe())}`)
    await new Promise(resolve => setTimeout(resolve, 5))
  }
}
