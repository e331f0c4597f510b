/**
 * A frontend's client of a team's backend, written against the types openapi-typescript generates
 * from the mock's /openapi.json with the suite's dialect in effect (schema.ts, made by
 * test/dialect/contract-flow.test.ts, which compiles this file with strict TypeScript and runs it
 * against the mock). If the served contract stops describing the team's shapes, it no longer compiles.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

type CardState = components['schemas']['DebitCard']['attributes']['card_state']

export function bank (baseUrl: string, session: string): { lock: (cardId: string) => Promise<string>, unlock: (cardId: string) => Promise<string> } {
  const client = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer tok_maya', 'x-mock-session': session } })
  /** The card's state as the team's backend says it, or the team's error code. */
  const state = (result: { data?: { data: { attributes: { card_state: CardState } } }, error?: { errors: Array<{ code: string }> } }): string => {
    if (result.error !== undefined) return result.error.errors[0]?.code ?? 'no code'
    return result.data?.data.attributes.card_state ?? 'no card'
  }
  return {
    lock: async cardId => {
      const result = await client.POST('/baas/debit-cards/{cardId}/lock', { params: { path: { cardId } } })
      // @ts-expect-error the team's card shows no `status`: its state is attributes.card_state
      void result.data?.data.status
      return state(result)
    },
    unlock: async cardId => state(await client.PUT('/baas/debit-cards/{cardId}/unlock', { params: { path: { cardId } } }))
  }
}

/** Only the team's states: the mock's LOCKED is not one of them. */
// @ts-expect-error LOCKED is the mock's word, frozen the team's
export const notTheTeams: CardState = 'LOCKED'
