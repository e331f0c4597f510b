/**
 * A frontend's client of baas-mock, written against the types openapi-typescript generates from
 * openapi.yaml (schema.ts, made by test/contract/generated-client.test.ts, which compiles this
 * file with strict TypeScript). If the contract stops letting a client call an action without a
 * body, or stops telling the two kinds of scheduled transfer apart, this file no longer compiles.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

type ScheduledTransfer = components['schemas']['ScheduledTransfer']

const client = createClient<paths>({ baseUrl: 'http://localhost:4010', headers: { authorization: 'Bearer tok_maya' } })

/** An action takes no body: the card id is all there is to send. */
export async function lockCard (cardId: string): Promise<string> {
  const { data, error } = await client.POST('/baas/debit-cards/{cardId}/lock', { params: { path: { cardId } } })
  if (error !== undefined) return `${error.status} ${error.code}: ${error.detail}`
  return data.status
}

export async function emailStatement (statementId: string): Promise<string | undefined> {
  const { data } = await client.POST('/baas/statements/{statementId}/send-by-email', { params: { path: { statementId } } })
  return data?.sentTo
}

/** The kind of transfer narrows its type: only INTERNAL has toAccountId, only ACH a counterparty. */
export function destination (transfer: ScheduledTransfer): string {
  switch (transfer.type) {
    case 'INTERNAL':
      // @ts-expect-error an INTERNAL transfer has no counterparty
      void transfer.counterparty
      return transfer.toAccountId
    case 'ACH':
      return `${transfer.counterparty.name} ····${transfer.counterparty.accountNumberLast4} (${transfer.direction})`
  }
}

/** Headers a test sends are typed parameters: the session to act in, and what to prefer. */
export async function destinations (session: string): Promise<string[]> {
  const { data, error, response } = await client.GET('/baas/scheduled-transfers', {
    params: { query: { status: 'ACTIVE' }, header: { 'x-mock-session': session, Prefer: 'delay=100' } }
  })
  if (error !== undefined) throw new Error(`${response.status} ${error.code}, retry after ${response.headers.get('retry-after') ?? '-'}`)
  return data.data.map(destination)
}

/** Every page of the list: `limit` and `cursor` are typed query parameters, `nextCursor` is optional. */
export async function allTransfers (): Promise<ScheduledTransfer[]> {
  const all: ScheduledTransfer[] = []
  let cursor: string | undefined
  do {
    const { data, error } = await client.GET('/baas/scheduled-transfers', { params: { query: { limit: 100, ...(cursor === undefined ? {} : { cursor }) } } })
    if (error !== undefined) throw new Error(`${error.code}: ${error.detail}`)
    all.push(...data.data)
    cursor = data.nextCursor
  } while (cursor !== undefined)
  // @ts-expect-error a page is at most 100: the limit is a number, not any string
  await client.GET('/baas/scheduled-transfers', { params: { query: { limit: 'all' } } })
  return all
}

/** A retry that cannot make a second transfer: the key is a typed header of every write. */
export async function scheduleOnce (key: string): Promise<string | null> {
  const body = { amount: 2500, fromAccountId: 'acct_maya_checking', toAccountId: 'acct_maya_savings', frequency: 'ONCE' as const, startDate: '2027-01-31' }
  const { data, response } = await client.POST('/baas/scheduled-transfers/internal', { body, params: { header: { 'Idempotency-Key': key } } })
  return data === undefined ? null : `${data.id}${response.headers.get('idempotent-replayed') === 'true' ? ' (replayed)' : ''}`
}

export async function changeEmail (email: string): Promise<void> {
  // @ts-expect-error a replacement of the contact details needs its body: the types are not `any`
  await client.PUT('/baas/customers', {})
  const { data: customer } = await client.GET('/baas/customers')
  if (customer === undefined) return
  await client.PUT('/baas/customers', { body: { email, phone: customer.phone, address: customer.address } })
}
