import type { Static } from 'typebox'
import { getCustomer, updateCustomer } from '../../domain/customer.js'
import type { MockContext } from '../pipeline.js'
import type { CustomerUpdate } from '../schemas/customer.js'

export const customerHandlers = {
  getCustomer: ({ ctx, customerId }: MockContext) => getCustomer(ctx, customerId),
  updateCustomer: ({ ctx, customerId, body }: MockContext<unknown, unknown, Static<typeof CustomerUpdate>>) => updateCustomer(ctx, customerId, body)
}
