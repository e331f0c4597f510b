import type { Static } from 'typebox'
import { sendVerificationCode, verifyCode } from '../../domain/phone-verification.js'
import type { MockContext } from '../pipeline.js'
import type { SendCodeRequest, VerifyCodeRequest } from '../schemas/phone-verification.js'

export const phoneVerificationHandlers = {
  sendPhoneVerificationCode: ({ ctx, customerId, body }: MockContext<unknown, unknown, Static<typeof SendCodeRequest>>) => sendVerificationCode(ctx, customerId, body),
  verifyPhoneVerificationCode: ({ ctx, customerId, body }: MockContext<unknown, unknown, Static<typeof VerifyCodeRequest>>) => verifyCode(ctx, customerId, body)
}
