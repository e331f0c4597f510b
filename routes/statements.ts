import { sendStatementByEmail } from '../src/domain/statement.js'
import type { OperationHandler } from '../src/http/request-context.js'

export const statementHandlers: Record<string, OperationHandler> = {
  sendStatementByEmail: ({ ctx, customerId }, request) =>
    sendStatementByEmail(ctx, customerId, (request.params as { statementId: string }).statementId)
}
