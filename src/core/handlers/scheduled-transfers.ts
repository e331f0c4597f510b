import type { Static } from 'typebox'
import {
  cancelTransfer, createAchTransfer, createInternalTransfer, deleteTransfer, getTransfer, listTransfers, updateTransfer
} from '../../domain/scheduled-transfer.js'
import type { MockContext } from '../pipeline.js'
import { paginate, queryKey } from '../paging.js'
import { TRANSFER_PAGES } from '../schemas/scheduled-transfer.js'
import type {
  AchScheduledTransferRequest, InternalScheduledTransferRequest, ScheduledTransferListQuery, ScheduledTransferUpdate, TransferIdParams
} from '../schemas/scheduled-transfer.js'

type Body<Schema> = MockContext<unknown, unknown, Schema>
type OnTransfer<B = unknown> = MockContext<Static<typeof TransferIdParams>, unknown, B>

export const scheduledTransferHandlers = {
  createInternalScheduledTransfer: ({ ctx, customerId, body }: Body<Static<typeof InternalScheduledTransferRequest>>) => createInternalTransfer(ctx, customerId, body),
  createAchScheduledTransfer: ({ ctx, customerId, body }: Body<Static<typeof AchScheduledTransferRequest>>) => createAchTransfer(ctx, customerId, body),
  listScheduledTransfers: ({ ctx, customerId, query }: MockContext<unknown, Static<typeof ScheduledTransferListQuery>>) => {
    const { limit, cursor, ...filter } = query
    return paginate(listTransfers(ctx, customerId, filter), { limit, cursor }, TRANSFER_PAGES, 'desc', queryKey(customerId, filter))
  },
  getScheduledTransfer: ({ ctx, customerId, params }: OnTransfer) => getTransfer(ctx, customerId, params.transferId),
  updateScheduledTransfer: ({ ctx, customerId, params, body }: OnTransfer<Static<typeof ScheduledTransferUpdate>>) => updateTransfer(ctx, customerId, params.transferId, body),
  deleteScheduledTransfer: ({ ctx, customerId, params }: OnTransfer) => deleteTransfer(ctx, customerId, params.transferId),
  cancelScheduledTransfer: ({ ctx, customerId, params }: OnTransfer) => cancelTransfer(ctx, customerId, params.transferId)
}
