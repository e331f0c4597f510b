import type { OperationHandler } from '../src/http/request-context.js'

export const scheduledTransferHandlers: Record<string, OperationHandler> = {}
