import type { Static } from 'typebox'
import { getCustomer, updateCustomer } from '../src/domain/customer.js'
import type { MockContext } from '../src/core/pipeline.js'
import type { CustomerUpdate } from '../src/http/schemas/customer.js'

export const customerHandlers = {
  getCustomer: ({ ctx, customerId }: MockContext) => getCustomer(ctx, customerId),
  updateCustomer: ({ ctx, customerId, body }: MockContext<unknown, unknown, Static<typeof CustomerUpdate>>) => updateCustomer(ctx, customerId, body)
}
