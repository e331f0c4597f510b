import { Type } from 'typebox'
import { CARD_FORMS, CARD_NETWORKS, CARD_STATUSES, CLOSED_REASONS, PIN_STATUSES, SHIPMENT_STATUSES, SHIPPING_METHODS } from '../../domain/model.js'
import { REISSUE_REASONS } from '../../domain/debit-card.js'
import { Address, DateString, DateTimeString, Enum, Last4, StrictObject } from './common.js'

export const CardStatus = Enum(CARD_STATUSES)
export const ShippingMethod = Enum(SHIPPING_METHODS)
export const ShipmentStatus = Enum(SHIPMENT_STATUSES)
export const CardForm = Enum(CARD_FORMS)
export const CardNetwork = Enum(CARD_NETWORKS)
export const ClosedReason = Enum(CLOSED_REASONS)
export const PinStatus = Enum(PIN_STATUSES)

export const Shipment = StrictObject({
  status: ShipmentStatus,
  method: ShippingMethod,
  trackingNumber: Type.Union([Type.String(), Type.Null()]),
  eta: DateString,
  address: Address,
  orderedAt: DateTimeString,
  shippedAt: Type.Optional(DateTimeString),
  deliveredAt: Type.Optional(DateTimeString)
})

export const DebitCard = StrictObject({
  id: Type.String({ examples: ['card_typicalvirt'] }),
  customerId: Type.String(),
  accountId: Type.String(),
  form: CardForm,
  network: CardNetwork,
  last4: Last4,
  maskedPan: Type.String({ pattern: '^\\d{6}\\*{6}\\d{4}$', examples: ['411111******4242'] }),
  expirationMonth: Type.Integer({ minimum: 1, maximum: 12 }),
  expirationYear: Type.Integer({ minimum: 2000 }),
  status: CardStatus,
  closedReason: Type.Optional(ClosedReason),
  lockedAt: Type.Optional(DateTimeString),
  pinStatus: PinStatus,
  replacementFor: Type.Optional(Type.String()),
  replacedBy: Type.Optional(Type.String()),
  shipment: Type.Optional(Shipment),
  createdAt: DateTimeString,
  updatedAt: DateTimeString
}, { $id: 'DebitCard' })

export const PhysicalCardRequest = StrictObject({
  shippingAddress: Type.Optional(Address),
  shippingMethod: Type.Optional(ShippingMethod)
}, { $id: 'PhysicalCardRequest' })

export const ReissueRequest = StrictObject({
  reason: Enum(REISSUE_REASONS, { description: 'DAMAGED/EXPIRED keep the card number; LOST/STOLEN get a new one' }),
  shippingAddress: Type.Optional(Address),
  shippingMethod: Type.Optional(ShippingMethod)
}, { $id: 'ReissueRequest' })

export const SetPinUrl = StrictObject({
  url: Type.String({ format: 'uri' }),
  expiresAt: DateTimeString
}, { $id: 'SetPinUrl' })

export const CardIdParams = StrictObject({ cardId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) })

export { Last4 }

// The mock's own set-PIN page (control plane, not part of the bank's API): no `$id`, used inline.

export const PinPageParams = StrictObject({
  token: Type.String({ minLength: 1, maxLength: 128, description: 'The token of a set-PIN link' })
})

export const PinPageQuery = StrictObject({
  session: Type.Optional(Type.String({
    pattern: '^[A-Za-z0-9._:-]{1,128}$',
    description: 'The mock session the link belongs to (a browser does not send x-mock-session); omitted for the default session'
  }))
})

export const SetPinRequest = StrictObject({
  pin: Type.String({ pattern: '^\\d{4}$', writeOnly: true, description: '4 digits; one repeated digit (1111) or a straight run (1234, 4321) is refused', examples: ['2580'] })
})

export const SetPinResult = StrictObject({
  cardId: Type.String(),
  pinStatus: Enum(['SET'] as const)
})

export const HtmlPage = Type.String({ description: 'A self-contained HTML page' })
