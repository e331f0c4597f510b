import type { OperationHandler } from '../src/http/request-context.js'

export const statementHandlers: Record<string, OperationHandler> = {}
