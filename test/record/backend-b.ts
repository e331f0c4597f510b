import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A second team's backend, as a new user had it: the customer under {result: {account_holder}}
 * with an id named holder_ref and short names (first, emailAddr, st, zip, ctry), cards under
 * {payload: {plastic}} with state blocked/open, errors {ok: false, err: {kind, text, http}}, and a
 * PUT of the customer that takes only what changes ({holder: {emailAddr}}).
 */
export interface BackendB {
  url: string
  /** Requests without this bearer token are answered 401 (a backend that wants credentials). */
  requireToken (token: string): void
  close (): Promise<void>
}

interface Plastic { ref: string; pan_tail: string; state: 'blocked' | 'open'; variant: string; modified: string }

export async function startBackendB (): Promise<BackendB> {
  let tick = 0
  const stamp = (): string => new Date(Date.UTC(2026, 10, 2, 10, 0, tick++)).toISOString()
  const holder = {
    holder_ref: 'AH-77310', first: 'Grace', last: 'Hopper', emailAddr: 'grace@example.org', mobileNo: '+12025550147',
    addr: { street1: '7 Compiler Way', city: 'Arlington', st: 'VA', zip: '22201', ctry: 'US' }, modified: stamp()
  }
  const cards = new Map<string, Plastic>([
    ['pl_A', { ref: 'pl_A', pan_tail: '5100', state: 'open', variant: 'virtual', modified: stamp() }],
    ['pl_B', { ref: 'pl_B', pan_tail: '7788', state: 'open', variant: 'physical', modified: stamp() }]
  ])
  let token: string | undefined
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const answer = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      }
      const fail = (http: number, kind: string, text: string): void => { answer(http, { ok: false, err: { kind, text, http } }) }
      if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) return fail(401, 'AUTH', 'Sign in first')
      const path = new URL(req.url ?? '/', 'http://backend').pathname
      const card = /^\/baas\/debit-cards\/([^/]+)\/(lock|unlock)$/.exec(path)
      if (path === '/baas/customers' && req.method === 'GET') return answer(200, { result: { account_holder: holder } })
      if (path === '/baas/customers' && req.method === 'PUT') {
        let body: { holder?: Partial<typeof holder> }
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body
        } catch {
          return fail(400, 'BAD_JSON', 'Not JSON')
        }
        // Partial: what is sent changes, the rest stays.
        const { emailAddr, mobileNo } = body.holder ?? {}
        if (emailAddr === undefined && mobileNo === undefined) return fail(422, 'NOTHING', 'Nothing to change')
        if (emailAddr !== undefined) holder.emailAddr = emailAddr
        if (mobileNo !== undefined) holder.mobileNo = mobileNo
        holder.modified = stamp()
        return answer(200, { result: { account_holder: holder } })
      }
      if (card !== null) {
        const found = cards.get(card[1] as string)
        if (found === undefined) return fail(404, 'NO_CARD', 'No such card')
        found.state = card[2] === 'lock' ? 'blocked' : 'open'
        found.modified = stamp()
        return answer(200, { payload: { plastic: found } })
      }
      fail(404, 'NO_ROUTE', 'No route here')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requireToken: (value) => { token = value },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

export const TOKEN_B = 'tok_grace_0123456789'

/** read customer → lock A → unlock A → lock B → lock unknown → update e-mail → read customer. */
export const FLOW_B: Array<{ method: string; path: string; body?: unknown }> = [
  { method: 'GET', path: '/baas/customers' },
  { method: 'POST', path: '/baas/debit-cards/pl_A/lock' },
  { method: 'PUT', path: '/baas/debit-cards/pl_A/unlock' },
  { method: 'POST', path: '/baas/debit-cards/pl_B/lock' },
  { method: 'POST', path: '/baas/debit-cards/pl_nope/lock' },
  { method: 'PUT', path: '/baas/customers', body: { holder: { emailAddr: 'grace.h@example.org' } } },
  { method: 'GET', path: '/baas/customers' }
]

export async function runFlowB (base: string): Promise<number[]> {
  const statuses: number[] = []
  for (const step of FLOW_B) {
    const res = await fetch(base + step.path, {
      method: step.method,
      headers: { authorization: `Bearer ${TOKEN_B}`, ...step.body !== undefined ? { 'content-type': 'application/json' } : {} },
      ...step.body !== undefined ? { body: JSON.stringify(step.body) } : {}
    })
    await res.arrayBuffer()
    statuses.push(res.status)
  }
  return statuses
}
