import type { TSchema } from 'typebox'
import { Problem } from './common.js'
import { Customer, CustomerUpdate } from './customer.js'
import { DebitCard, PhysicalCardRequest, ReissueRequest, SetPinUrl } from './debit-card.js'
import { SendStatementRequest, StatementEmailAck } from './statement.js'
import { ScheduledTransferSerialized, TRANSFER_SCHEMAS } from './scheduled-transfer.js'
import { SendCodeRequest, SendCodeResponse, VerifyCodeRequest, VerifyCodeResponse } from './phone-verification.js'

/** Schemas with an `$id`: registered once, referenced by name, shown as OpenAPI components. */
export const SHARED_SCHEMAS: TSchema[] = [
  Problem,
  Customer, CustomerUpdate,
  DebitCard, PhysicalCardRequest, ReissueRequest, SetPinUrl,
  StatementEmailAck, SendStatementRequest,
  SendCodeRequest, SendCodeResponse, VerifyCodeRequest, VerifyCodeResponse,
  ...TRANSFER_SCHEMAS
]

/** Shared schemas that answers are written with another schema for (see lazySerializerFactory). */
export const SERIALIZED_AS: Record<string, TSchema> = {
  ScheduledTransfer: ScheduledTransferSerialized
}
