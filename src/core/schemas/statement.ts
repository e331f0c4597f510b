import { Type } from 'typebox'
import { DateTimeString, Enum, StrictObject } from './common.js'

export const StatementEmailAck = StrictObject({
  statementId: Type.String({ examples: ['stmt_maya_2026_10'] }),
  status: Enum(['QUEUED'] as const),
  sentTo: Type.String({ description: 'The address on file, masked', examples: ['m********@example.com'] }),
  requestedAt: DateTimeString
}, { $id: 'StatementEmailAck' })

/** The send-by-email body is empty: statements go to the address on file, never to an arbitrary one. */
export const SendStatementRequest = StrictObject({}, { $id: 'SendStatementRequest' })

export const StatementIdParams = StrictObject({ statementId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) })
