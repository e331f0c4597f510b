import { DomainError } from './errors.js'
import { nowIso, type DomainContext } from './context.js'
import { getCustomer } from './customer.js'
import { maskEmail } from './masking.js'
import type { Statement } from './model.js'
import { composeStatementEmail } from './statement-email.js'

export interface StatementEmailAck {
  statementId: string
  status: 'QUEUED'
  /** The address on file, masked. */
  sentTo: string
  requestedAt: string
}

/** The customer's own statement; another customer's answers exactly like an unknown id, so existence does not leak. */
export function getStatement (ctx: DomainContext, customerId: string, statementId: string): Statement {
  const statement = ctx.state.statements.get(statementId)
  if (statement === undefined || statement.customerId !== customerId) {
    throw new DomainError('statement_not_found', `No statement ${statementId} for customer ${customerId}.`)
  }
  return statement
}

/**
 * Queues the statement e-mail to the address on file (never an arbitrary recipient). Allowed for
 * FROZEN and ARCHIVED customers too: it reads their own data and changes nothing, and a frozen
 * customer still needs statements (disputes, compliance), so only a missing address blocks it.
 */
export function sendStatementByEmail (ctx: DomainContext, customerId: string, statementId: string): StatementEmailAck {
  const customer = getCustomer(ctx, customerId)
  const statement = getStatement(ctx, customerId, statementId)
  if (customer.email === '') throw new DomainError('no_email_on_file', 'There is no e-mail address on file; add one with PUT /baas/customers first.')
  const { subject, body } = composeStatementEmail(customer, statement, ctx.state.accounts.get(statement.accountId))
  ctx.outbox.deliver({
    channel: 'email',
    to: customer.email,
    subject,
    body,
    kind: 'sendStatementByEmail',
    data: { statementId: statement.id, periodStart: statement.periodStart, periodEnd: statement.periodEnd },
    customerId
  })
  const ack: StatementEmailAck = { statementId: statement.id, status: 'QUEUED', sentTo: maskEmail(customer.email), requestedAt: nowIso(ctx) }
  ctx.events.emit({ type: 'statement.sent', at: ack.requestedAt, entityId: statement.id, data: ack, detail: `E-mailed to ${ack.sentTo}` })
  return ack
}
