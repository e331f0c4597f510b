import { sendVerificationCode, verifyCode, type SendCodeInput, type VerifyCodeInput } from '../src/domain/phone-verification.js'
import type { OperationHandler } from '../src/http/request-context.js'

export const phoneVerificationHandlers: Record<string, OperationHandler> = {
  sendPhoneVerificationCode: ({ ctx, customerId }, request) => sendVerificationCode(ctx, customerId, request.body as SendCodeInput),
  verifyPhoneVerificationCode: ({ ctx, customerId }, request) => verifyCode(ctx, customerId, request.body as VerifyCodeInput)
}
