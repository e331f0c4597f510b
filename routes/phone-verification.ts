import type { Static } from 'typebox'
import { sendVerificationCode, verifyCode } from '../src/domain/phone-verification.js'
import type { MockContext } from '../src/core/pipeline.js'
import type { SendCodeRequest, VerifyCodeRequest } from '../src/http/schemas/phone-verification.js'

export const phoneVerificationHandlers = {
  sendPhoneVerificationCode: ({ ctx, customerId, body }: MockContext<unknown, unknown, Static<typeof SendCodeRequest>>) => sendVerificationCode(ctx, customerId, body),
  verifyPhoneVerificationCode: ({ ctx, customerId, body }: MockContext<unknown, unknown, Static<typeof VerifyCodeRequest>>) => verifyCode(ctx, customerId, body)
}
