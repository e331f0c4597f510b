import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A team's backend, written here: another envelope (`{result: {card}}`), other field names,
 * other state values (lockState on/off) and another error format ({message, errorCode, httpStatus}).
 */
export interface Backend {
  url: string
  /** What it answered, in order: the recorder's client must see exactly these. */
  sent: Array<{ status: number; body: string }>
  /** From now on, cards show `last4Digits` instead of `lastFour` (drift). */
  renameCardField (): void
  close (): Promise<void>
}

interface Card { cardId: string; lockState: 'on' | 'off'; lastFour: string; cardKind: string; nickname: string; modifiedAt: string }

export async function startBackend (): Promise<Backend> {
  let tick = 0
  const stamp = (): string => new Date(Date.UTC(2026, 10, 1, 9, 0, tick++)).toISOString()
  const customer = { customerId: 'cu_ada1', fullName: 'Ada Lovelace', contact: { emailAddress: 'ada@example.com', mobile: '+14155550123' },
    address: { street: '12 Analytical Row', city: 'San Francisco', region: 'CA', zip: '94105', country: 'US' }, tier: 'gold', modifiedAt: stamp() }
  const cards = new Map<string, Card>([
    ['crd_A', { cardId: 'crd_A', lockState: 'off', lastFour: '4242', cardKind: 'virtual', nickname: 'Groceries', modifiedAt: stamp() }],
    ['crd_B', { cardId: 'crd_B', lockState: 'off', lastFour: '1881', cardKind: 'virtual', nickname: 'Travel', modifiedAt: stamp() }]
  ])
  let renamed = false
  const sent: Backend['sent'] = []
  const cardView = (card: Card): Record<string, unknown> => {
    if (!renamed) return { ...card }
    const { lastFour, ...rest } = card
    return { ...rest, last4Digits: lastFour }
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const answer = (status: number, body: unknown): void => {
        const text = typeof body === 'string' ? body : JSON.stringify(body)
        sent.push({ status, body: text })
        res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8', 'x-backend': 'team' }).end(text)
      }
      const path = new URL(req.url ?? '/', 'http://backend').pathname
      const card = /^\/baas\/debit-cards\/([^/]+)\/(lock|unlock)$/.exec(path)
      if (path === '/health') return answer(200, 'ok')
      if (path === '/baas/customers' && req.method === 'GET') return answer(200, { result: { customer } })
      if (path === '/baas/customers' && req.method === 'PUT') {
        // A PUT of the contact details, as the mock's own: e-mail, mobile and address.
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { customer?: { contact?: typeof customer.contact; address?: typeof customer.address } }
        const { contact, address } = body.customer ?? {}
        if (contact === undefined || address === undefined) return answer(422, { message: 'Give the contact details', errorCode: 'BAD_INPUT', httpStatus: 422 })
        customer.contact = { ...contact }
        customer.address = { ...address }
        customer.modifiedAt = stamp()
        return answer(200, { result: { customer } })
      }
      if (card !== null) {
        const found = cards.get(card[1] as string)
        if (found === undefined) return answer(404, { message: 'No such card exists', errorCode: 'CARD_MISSING', httpStatus: 404 })
        found.lockState = card[2] === 'lock' ? 'on' : 'off'
        found.modifiedAt = stamp()
        return answer(200, { result: { card: cardView(found) } })
      }
      answer(404, { message: 'No route here', errorCode: 'NO_ROUTE', httpStatus: 404 })
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    renameCardField: () => { renamed = true },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

/** The flow the issue lists, as the team's frontend sends it (unlock is PUT, lock POST). */
export const FLOW: Array<{ method: string; path: string; body?: unknown }> = [
  { method: 'GET', path: '/baas/customers' },
  { method: 'POST', path: '/baas/debit-cards/crd_A/lock' },
  { method: 'POST', path: '/baas/debit-cards/crd_A/lock' },
  { method: 'PUT', path: '/baas/debit-cards/crd_A/unlock' },
  { method: 'POST', path: '/baas/debit-cards/crd_B/lock' },
  { method: 'POST', path: '/baas/debit-cards/crd_nope/lock' },
  { method: 'PUT', path: '/baas/customers', body: { customer: { contact: { emailAddress: 'ada.l@example.com', mobile: '+14155550123' }, address: { street: '12 Analytical Row', city: 'San Francisco', region: 'CA', zip: '94105', country: 'US' } } } },
  { method: 'GET', path: '/baas/customers' },
  { method: 'GET', path: '/health' }
]

export const TOKEN = 'tok_ada_live_0123456789'

/** Sends the flow through `base`; returns what the client saw. */
export async function runFlow (base: string): Promise<Array<{ status: number; body: string }>> {
  const seen: Array<{ status: number; body: string }> = []
  for (const step of FLOW) {
    const res = await fetch(base + step.path, {
      method: step.method,
      headers: { authorization: `Bearer ${TOKEN}`, ...step.body !== undefined ? { 'content-type': 'application/json' } : {} },
      ...step.body !== undefined ? { body: JSON.stringify(step.body) } : {}
    })
    seen.push({ status: res.status, body: await res.text() })
  }
  return seen
}
