import type { Static } from 'typebox'
import { createSetPinLink, lockCard, reissueCard, requestPhysicalCard, unlockCard } from '../../domain/debit-card.js'
import type { MockContext } from '../pipeline.js'
import type { CardIdParams, PhysicalCardRequest, ReissueRequest } from '../schemas/debit-card.js'
import { pinPageUrl } from '../pin-page-url.js'

type OnCard<Body = unknown> = MockContext<Static<typeof CardIdParams>, unknown, Body>

export const debitCardHandlers = {
  requestPhysicalCard: (mock: MockContext<unknown, unknown, Static<typeof PhysicalCardRequest>>) => {
    const { card, created } = requestPhysicalCard(mock.ctx, mock.customerId, mock.body)
    if (!created) mock.status = 200
    return card
  },
  unlockCard: ({ ctx, customerId, params }: OnCard) => unlockCard(ctx, customerId, params.cardId),
  lockCard: ({ ctx, customerId, params }: OnCard) => lockCard(ctx, customerId, params.cardId),
  reissueCard: ({ ctx, customerId, params, body }: OnCard<Static<typeof ReissueRequest>>) => reissueCard(ctx, customerId, params.cardId, body),
  createSetPinUrl: ({ ctx, customerId, params, session, request }: OnCard) => {
    const link = createSetPinLink(ctx, customerId, params.cardId)
    return { url: pinPageUrl(request.baseUrl(), link.token, session.id), expiresAt: link.expiresAt }
  }
}
