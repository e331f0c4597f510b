import type { OperationHandler } from '../src/http/request-context.js'

export const phoneVerificationHandlers: Record<string, OperationHandler> = {}
