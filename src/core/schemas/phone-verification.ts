import { Type } from 'typebox'
import { VERIFICATION_CHANNELS } from '../../domain/model.js'
import { DateTimeString, E164, Enum, StrictObject } from './common.js'

const Channel = Enum(VERIFICATION_CHANNELS, { description: 'How the code is delivered' })

export const SendCodeRequest = StrictObject({
  phone: Type.Optional({ ...E164, description: 'E.164 number to verify; defaults to the customer\'s phone on file' }),
  channel: Type.Optional({ ...Channel, description: 'SMS (default) or a voice CALL' })
}, { $id: 'SendCodeRequest' })

export const SendCodeResponse = StrictObject({
  verificationId: Type.String({ examples: ['ver_3kTz9QmB2xLr8VwA'] }),
  to: Type.String({ description: 'The phone number, masked', examples: ['+1********23'] }),
  channel: Channel,
  expiresAt: { ...DateTimeString, description: 'When the code stops working (a resend keeps it)' },
  resendAvailableAt: { ...DateTimeString, description: 'Earliest instant of the next send to this number' },
  attemptsRemaining: Type.Integer({ minimum: 0, description: 'Checks left for this code' })
}, { $id: 'SendCodeResponse' })

export const VerifyCodeRequest = StrictObject({
  // writeOnly: a secret, which the journal shows as [REDACTED] (core/secret-fields.ts).
  code: Type.String({ pattern: '^\\d{4,10}$', writeOnly: true, description: 'The digits received', examples: ['123456'] }),
  phone: Type.Optional({ ...E164, description: 'The number the code was sent to; defaults to the customer\'s phone on file' })
}, { $id: 'VerifyCodeRequest' })

export const VerifyCodeResponse = StrictObject({
  status: Enum(['APPROVED'] as const),
  phone: Type.String({ description: 'The verified number, masked', examples: ['+1********23'] }),
  verifiedAt: DateTimeString
}, { $id: 'VerifyCodeResponse' })
