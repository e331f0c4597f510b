import { DomainError, type FieldError } from './errors.js'
import { nowIso, type DomainContext } from './context.js'
import { previousAttributes } from './events.js'
import type { Address, Customer } from './model.js'

export function getCustomer (ctx: DomainContext, customerId: string): Customer {
  const customer = ctx.state.customers.get(customerId)
  if (customer === undefined) throw new DomainError('customer_not_found', `Customer ${customerId} does not exist.`)
  return customer
}

/** A FROZEN or ARCHIVED customer can read but not write. */
export function getWritableCustomer (ctx: DomainContext, customerId: string): Customer {
  const customer = getCustomer(ctx, customerId)
  if (customer.status !== 'ACTIVE') {
    throw new DomainError('customer_not_writable', `Customer ${customer.id} is ${customer.status} and cannot make changes.`, {
      extensions: { customerStatus: customer.status }
    })
  }
  return customer
}

export interface CustomerUpdate {
  email: string
  phone: string
  address: Address
  /** Read-only fields may be echoed back, unchanged. */
  [readOnly: string]: unknown
}

const UPDATABLE = new Set(['email', 'phone', 'address'])
/** Managed by the server: echoed values (from an earlier read) are ignored, not compared. */
const SERVER_MANAGED = new Set(['id', 'status', 'phoneVerified', 'createdAt', 'updatedAt'])

/** PUT semantics: replaces e-mail, phone and address; name, date of birth and SSN must equal what is on file. */
export function updateCustomer (ctx: DomainContext, customerId: string, update: CustomerUpdate): Customer {
  const customer = getWritableCustomer(ctx, customerId)
  const errors: FieldError[] = []
  for (const [field, value] of Object.entries(update)) {
    if (UPDATABLE.has(field) || SERVER_MANAGED.has(field)) continue
    const current = (customer as unknown as Record<string, unknown>)[field]
    if (!sameValue(current, value)) {
      errors.push({ pointer: `/${field}`, message: `/${field} cannot be changed through the API; contact support.` })
    }
  }
  if (errors.length > 0) {
    throw new DomainError('field_not_updatable', `Only email, phone and address can be updated; ${errors.map(e => e.pointer).join(', ')} ${errors.length === 1 ? 'differs' : 'differ'} from the record.`, { errors })
  }
  const phoneChanged = update.phone !== customer.phone
  const updated: Customer = {
    ...customer,
    email: update.email,
    phone: update.phone,
    address: stripUndefined(update.address),
    phoneVerified: phoneChanged ? false : customer.phoneVerified,
    updatedAt: nowIso(ctx)
  }
  ctx.state.customers.set(customerId, updated)
  customerChanged(ctx, customer, updated, 'Contact details updated')
  return updated
}

/** The fields a customer event reports the earlier values of: those that can change. */
const CUSTOMER_FIELDS = ['email', 'phone', 'address', 'phoneVerified', 'status'] as const

/** Reports customer.updated when a field that can change did (a PUT of the same details changes nothing). */
export function customerChanged (ctx: DomainContext, before: Customer, after: Customer, detail: string): void {
  const previous = previousAttributes(before, after, CUSTOMER_FIELDS)
  if (previous !== undefined) ctx.events.emit({ type: 'customer.updated', at: after.updatedAt, entityId: after.id, data: after, previousAttributes: previous, detail })
}

function stripUndefined (address: Address): Address {
  const copy: Address = { line1: address.line1, city: address.city, state: address.state, postalCode: address.postalCode, country: address.country }
  if (address.line2 !== undefined) copy.line2 = address.line2
  return copy
}

function sameValue (a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
