import type { OperationHandler } from '../src/http/request-context.js'

export const debitCardHandlers: Record<string, OperationHandler> = {}
