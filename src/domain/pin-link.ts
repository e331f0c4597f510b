import { cardWith } from './card-record.js'
import { nowIso, type DomainContext } from './context.js'
import { getWritableCustomer } from './customer.js'
import { changed } from './card-events.js'
import { capReached, DomainError, fieldError } from './errors.js'
import type { DebitCard, PinLink } from './model.js'
import type { DueProcessor } from './timeline.js'

// Single-use links to the mock's own set-PIN page (providers host such a page behind a
// short-lived token). The PIN itself is never stored: only the card's pinStatus changes.

const TOKEN_LENGTH = 32

/**
 * Expired and used links are kept this long past their expiry so the page can still say "expired"
 * or "already used" (410) instead of "not found" (404); then the due processor purges them.
 */
export const PIN_LINK_RETENTION_MS = 24 * 60 * 60 * 1000

/**
 * Issues a link for a card the caller has already been checked against. Only a card's newest link
 * is valid, as a provider's fresh token revokes the one before: the card's earlier links are
 * forgotten (they answer 404). The world keeps at most `maxPinLinks`: past it, the oldest link that
 * can no longer be used (used, expired, or its card closed) makes room; when every one is live, the
 * request is refused (409 too_many_pin_links) and nothing changes.
 */
export function issuePinLink (ctx: DomainContext, card: DebitCard): PinLink {
  const links = ctx.state.pinLinks
  const max = ctx.settings.maxPinLinks
  const now = nowIso(ctx)
  const superseded: string[] = []
  const spent: string[] = []
  // Bounded by the cap (a write walks it, never a read).
  for (const [token, link] of links) {
    if (link.cardId === card.id) superseded.push(token)
    else if (isSpent(ctx, link, now)) spent.push(token)
  }
  const over = links.size - superseded.length + 1 - max
  if (over > spent.length) {
    throw capReached('too_many_pin_links',
      `This session keeps at most ${max} set-PIN links (maxPinLinks, --max-pin-links) and ${links.size - superseded.length - spent.length} of them can still be used; use one, or let one expire, first.`,
      'maxPinLinks', max)
  }
  for (const token of superseded) links.delete(token)
  for (const token of spent.slice(0, Math.max(0, over))) links.delete(token)
  const expiresAt = new Date(ctx.clock.nowMs() + ctx.settings.pinLinkTtlSeconds * 1000).toISOString()
  const link: PinLink = { token: ctx.ids.token(TOKEN_LENGTH), cardId: card.id, customerId: card.customerId, expiresAt }
  links.set(link.token, link)
  return link
}

/** A link that can no longer set a PIN: kept only so its page says why (410, 409) rather than 404. */
function isSpent (ctx: DomainContext, link: PinLink, now: string): boolean {
  const card = ctx.state.debitCards.get(link.cardId)
  return link.usedAt !== undefined || link.expiresAt <= now || card === undefined || card.status === 'CLOSED'
}

/** The link behind `token` and its card, if the link can still be used. */
export function openPinLink (ctx: DomainContext, token: string): { link: PinLink; card: DebitCard } {
  const link = ctx.state.pinLinks.get(token)
  const card = link === undefined ? undefined : ctx.state.debitCards.get(link.cardId)
  if (link === undefined || card === undefined) throw new DomainError('pin_link_not_found', 'This set-PIN link does not exist (a newer link for its card replaces it); request a new one.')
  if (link.usedAt !== undefined) throw new DomainError('pin_link_used', 'This set-PIN link has already been used; request a new one.')
  if (link.expiresAt <= nowIso(ctx)) throw new DomainError('pin_link_expired', `This set-PIN link expired at ${link.expiresAt}; request a new one.`)
  if (card.status === 'CLOSED') throw new DomainError('card_closed', `Card ${card.id} is closed; its PIN cannot be set.`)
  getWritableCustomer(ctx, card.customerId)
  return { link, card }
}

const DIGITS = '0123456789'

/** Four digits, not a guessable pattern (one repeated digit, or a straight run up or down). */
export function pinProblem (pin: string): string | undefined {
  if (!/^\d{4}$/.test(pin)) return 'must be exactly 4 digits'
  if (/^(\d)\1{3}$/.test(pin)) return 'must not repeat one digit'
  if (DIGITS.includes(pin) || [...DIGITS].reverse().join('').includes(pin)) return 'must not be a sequence such as 1234 or 4321'
  return undefined
}

/** Sets the card's PIN through a link and spends the link. A rejected PIN leaves the link usable. */
export function setPinWithLink (ctx: DomainContext, token: string, pin: string): DebitCard {
  const { link, card } = openPinLink(ctx, token)
  const problem = pinProblem(pin)
  if (problem !== undefined) throw fieldError('invalid_pin', '/pin', `The PIN ${problem}.`)
  const at = nowIso(ctx)
  const updated = cardWith(card, { pinStatus: 'SET', updatedAt: at })
  ctx.state.debitCards.set(card.id, updated)
  ctx.state.pinLinks.set(token, { ...link, usedAt: at })
  return changed(ctx, 'card.pin_set', card, updated, 'PIN set through a set-PIN link')
}

/**
 * Forgets links that are past expiry plus the retention window: housekeeping, which no one is told
 * of. Runs before every request, so it costs what is due, not what is kept: links are kept in the
 * order issued (a new one for a card replaces the old, at the end) with one validity, hence in
 * expiry order, and the scan stops at the first one not due. A world restored under another
 * --pin-link-ttl-seconds may hold a later expiry first; that only delays the purge of the links
 * behind it, and maxPinLinks bounds them.
 */
export const purgePinLinks: DueProcessor = (ctx, until) => {
  for (const [token, link] of ctx.state.pinLinks) {
    if (Date.parse(link.expiresAt) + PIN_LINK_RETENTION_MS > until.ms) break
    ctx.state.pinLinks.delete(token)
  }
  return []
}
