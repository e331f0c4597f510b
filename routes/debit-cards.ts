import {
  createSetPinLink, lockCard, reissueCard, requestPhysicalCard, unlockCard, type ReissueRequest, type ShippingChoice
} from '../src/domain/debit-card.js'
import { baseUrlOf, type OperationHandler } from '../src/http/request-context.js'
import { pinPageUrl } from './mock/pin.js'

interface CardParams { cardId: string }

const cardIdOf = (params: unknown): string => (params as CardParams).cardId

export const debitCardHandlers: Record<string, OperationHandler> = {
  requestPhysicalCard: ({ ctx, customerId }, request, reply) => {
    const { card, created } = requestPhysicalCard(ctx, customerId, request.body as ShippingChoice)
    if (!created) reply.code(200)
    return card
  },
  unlockCard: ({ ctx, customerId }, request) => unlockCard(ctx, customerId, cardIdOf(request.params)),
  lockCard: ({ ctx, customerId }, request) => lockCard(ctx, customerId, cardIdOf(request.params)),
  reissueCard: ({ ctx, customerId }, request) => reissueCard(ctx, customerId, cardIdOf(request.params), request.body as ReissueRequest),
  createSetPinUrl: ({ ctx, customerId, session, publicUrl }, request) => {
    const link = createSetPinLink(ctx, customerId, cardIdOf(request.params))
    return { url: pinPageUrl(baseUrlOf(request, publicUrl), link.token, session.id), expiresAt: link.expiresAt }
  }
}
