import type { Static } from 'typebox'
import { sendStatementByEmail } from '../../domain/statement.js'
import type { MockContext } from '../pipeline.js'
import type { StatementIdParams } from '../schemas/statement.js'

export const statementHandlers = {
  sendStatementByEmail: ({ ctx, customerId, params }: MockContext<Static<typeof StatementIdParams>>) => sendStatementByEmail(ctx, customerId, params.statementId)
}
