import type { Static } from 'typebox'
import { sendStatementByEmail } from '../src/domain/statement.js'
import type { MockContext } from '../src/core/pipeline.js'
import type { StatementIdParams } from '../src/http/schemas/statement.js'

export const statementHandlers = {
  sendStatementByEmail: ({ ctx, customerId, params }: MockContext<Static<typeof StatementIdParams>>) => sendStatementByEmail(ctx, customerId, params.statementId)
}
