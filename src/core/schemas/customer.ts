import { Type } from 'typebox'
import { CUSTOMER_STATUSES } from '../../domain/model.js'
import { Address, DateString, DateTimeString, E164, Email, Enum, Last4, StrictObject } from './common.js'

export const CustomerStatus = Enum(CUSTOMER_STATUSES)

export const Customer = StrictObject({
  id: Type.String({ examples: ['cus_typical01'] }),
  firstName: Type.String(),
  lastName: Type.String(),
  dateOfBirth: DateString,
  email: Email,
  phone: E164,
  phoneVerified: Type.Boolean(),
  address: Address,
  ssnLast4: Last4,
  status: CustomerStatus,
  createdAt: DateTimeString,
  updatedAt: DateTimeString
}, { $id: 'Customer' })

/** PUT body: the updatable fields are required; read-only ones may be echoed back unchanged. */
export const CustomerUpdate = StrictObject({
  email: Email,
  phone: E164,
  address: Address,
  id: Type.Optional(Type.String()),
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  dateOfBirth: Type.Optional(DateString),
  ssnLast4: Type.Optional(Last4),
  status: Type.Optional(CustomerStatus),
  phoneVerified: Type.Optional(Type.Boolean()),
  createdAt: Type.Optional(DateTimeString),
  updatedAt: Type.Optional(Type.String())
}, { $id: 'CustomerUpdate' })

export { Address }
