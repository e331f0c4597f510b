/** How the persona that answered a request was chosen; `default` when no token selected one (open auth). */
export const PERSONA_VIA = ['token', 'token-hash', 'jwt-sub', 'default'] as const
export type PersonaVia = typeof PERSONA_VIA[number]

/** The customer a request acts as, and what chose it: the response header and the journal say both. */
export interface Persona {
  readonly customerId: string
  readonly via: PersonaVia
}
