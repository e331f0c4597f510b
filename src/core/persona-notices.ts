import type { Scenario } from '../fixtures/loader.js'
import { nearestName } from '../config/nearest-name.js'
import type { World } from '../world/world.js'
import type { Fallback } from './persona.js'
import { TOKEN_HASH } from './token-hash.js'

/** Distinct credentials warned about per process; past it a flood of random tokens costs nothing more. */
export const PERSONA_NOTICE_LIMIT = 1000

/** Longer values (a real JWT pasted in, an API key) are logged as a prefix only. */
const SHOWN_WHOLE = 24

/** A JWT's sub is an id, not a secret: shown whole unless it is long enough to be something else. */
const SUB_SHOWN_WHOLE = 64

/** How far a typed token may be from a persona's token to be named as the one meant. */
const TOKEN_REACH = 2

interface KnownElsewhere { name: string; customerId: string }

/**
 * One warning per distinct credential that open auth answered as the default persona: the token
 * that does not select anyone, which persona answered instead, and what was probably meant.
 */
export class PersonaNotices {
  private readonly seen = new Set<string>()
  private full = false
  private elsewhere: Map<string, KnownElsewhere> | undefined

  constructor (
    private readonly scenarios: ReadonlyMap<string, Scenario>,
    /** Where the lines go: the server's logger, stderr in process. */
    public warn: (line: string) => void,
    private readonly limit = PERSONA_NOTICE_LIMIT
  ) {}

  notice (world: World, fallback: Fallback): void {
    // Kept short, so that a thousand 16 KiB headers do not hold 16 MiB.
    const key = `${fallback.reason}:${fallback.token.length}:${fallback.token.slice(0, 128)}`
    if (this.seen.has(key) || this.full) return
    if (this.seen.size >= this.limit) {
      this.full = true
      this.warn(`${this.limit} distinct unknown Authorization values warned about; further ones are not`)
      return
    }
    this.seen.add(key)
    this.warn(this.line(world, fallback))
  }

  private line (world: World, fallback: Fallback): string {
    const answered = `answered as ${world.defaultCustomerId} (default persona)`
    const { token } = fallback
    const known = [...world.tokens.keys()].filter(t => !TOKEN_HASH.test(t))
    if (fallback.reason === 'no-scheme') {
      const hint = known.includes(token) ? `send "Bearer ${token}"` : 'send "Bearer <token>"'
      return `Authorization ${known.includes(token) ? shown(token) : schemeOnly(token)} has no "Bearer " scheme; ${answered}; ${hint}`
    }
    if (fallback.reason === 'malformed') return `Authorization ${schemeOnly(token)} is not "Bearer <token>"; ${answered}`
    const subject = fallback.sub ?? token
    const other = this.knownElsewhere(world, subject)
    if (other !== undefined) {
      return `${shown(subject)} is ${other.name}'s token, but scenario "${world.scenario}" has no ${other.customerId}; ${answered}`
    }
    if (fallback.reason === 'unknown-sub') {
      return `JWT ${shown(token)} has sub ${shown(subject, SUB_SHOWN_WHOLE)}, which is no persona's token or customer id; ${answered}`
    }
    const meant = nearestName(token, known, TOKEN_REACH)
    return `unknown token ${shown(token)} ${answered}${meant === undefined ? '' : `; did you mean ${meant}?`}`
  }

  /** A token (or customer id) of a persona that another scenario has and this world does not. */
  private knownElsewhere (world: World, subject: string): KnownElsewhere | undefined {
    if (this.elsewhere === undefined) {
      this.elsewhere = new Map()
      for (const scenario of this.scenarios.values()) {
        for (const customer of scenario.fixtures.customers) {
          const known = { name: customer.firstName, customerId: customer.id }
          for (const key of [...customer.tokens, customer.id]) if (!this.elsewhere.has(key)) this.elsewhere.set(key, known)
        }
      }
    }
    const found = this.elsewhere.get(subject)
    return found === undefined || world.ctx.state.customers.has(found.customerId) ? undefined : found
  }
}

/**
 * A header that is not `Bearer <token>` may carry a real credential (`Basic dXNlcjpwYXNz` is
 * user:pass): only its scheme word, or the first characters of a bare value, and its length.
 */
function schemeOnly (value: string): string {
  const scheme = /^(\S+)\s/.exec(value)?.[1]
  return `"${scheme === undefined ? value.slice(0, 4) : `${scheme} `}…" (${value.length} characters)`
}

/** A value as a log line may show it: whole when short, else a prefix and its length. */
function shown (value: string, whole = SHOWN_WHOLE): string {
  return value.length <= whole ? `"${value}"` : `"${value.slice(0, 8)}…" (${value.length} characters)`
}
