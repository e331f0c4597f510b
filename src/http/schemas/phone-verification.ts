import { Type } from 'typebox'
import { DateTimeString, E164, Enum, StrictObject } from './common.js'

export const SendCodeRequest = StrictObject({
  phone: Type.Optional(E164),
  channel: Type.Optional(Enum(['SMS', 'CALL'] as const))
}, { $id: 'SendCodeRequest' })

export const SendCodeResponse = StrictObject({
  verificationId: Type.String(),
  to: Type.String({ description: 'The phone number, masked' }),
  channel: Enum(['SMS', 'CALL'] as const),
  expiresAt: DateTimeString,
  resendAvailableAt: DateTimeString,
  attemptsRemaining: Type.Integer({ minimum: 0 })
}, { $id: 'SendCodeResponse' })

export const VerifyCodeRequest = StrictObject({
  code: Type.String({ pattern: '^\\d{4,10}$', description: 'The digits received' }),
  phone: Type.Optional(E164)
}, { $id: 'VerifyCodeRequest' })

export const VerifyCodeResponse = StrictObject({
  status: Enum(['APPROVED'] as const),
  phone: Type.String({ description: 'The verified number, masked' }),
  verifiedAt: DateTimeString
}, { $id: 'VerifyCodeResponse' })
