import { Type } from 'typebox'
import { DateTimeString, Enum, MinorUnits, StrictObject } from './common.js'

/** A monthly statement as events carry it (statement.created); no API operation lists statements. */
export const Statement = StrictObject({
  id: Type.String({ examples: ['stmt_maya_2026_10'] }),
  accountId: Type.String(),
  customerId: Type.String(),
  periodStart: Type.String({ format: 'date', description: 'The first day of the period: of the month, or the day the owner signed up that month' }),
  periodEnd: Type.String({ format: 'date', description: 'The last day of the period, inclusive: the month\'s last day' }),
  openingBalance: MinorUnits({ description: 'Minor units: the previous statement\'s closing balance' }),
  closingBalance: MinorUnits({ description: 'Minor units: the balance at the end of the period\'s last day' }),
  currency: Type.String(),
  createdAt: DateTimeString
}, { $id: 'Statement' })

export const StatementEmailAck = StrictObject({
  statementId: Type.String({ examples: ['stmt_maya_2026_10'] }),
  status: Enum(['QUEUED'] as const),
  sentTo: Type.String({ description: 'The address on file, masked', examples: ['m********@example.com'] }),
  requestedAt: DateTimeString
}, { $id: 'StatementEmailAck' })

/** The send-by-email body is empty: statements go to the address on file, never to an arbitrary one. */
export const SendStatementRequest = StrictObject({}, { $id: 'SendStatementRequest' })

export const StatementIdParams = StrictObject({ statementId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) })
