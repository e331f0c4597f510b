import { getCustomer, updateCustomer, type CustomerUpdate } from '../src/domain/customer.js'
import type { OperationHandler } from '../src/http/request-context.js'

export const customerHandlers: Record<string, OperationHandler> = {
  getCustomer: ({ ctx, customerId }) => getCustomer(ctx, customerId),
  updateCustomer: ({ ctx, customerId }, request) => updateCustomer(ctx, customerId, request.body as CustomerUpdate)
}
