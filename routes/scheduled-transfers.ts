import {
  cancelTransfer, createAchTransfer, createInternalTransfer, deleteTransfer, getTransfer, listTransfers, updateTransfer,
  type AchTransferRequest, type InternalTransferRequest, type TransferFilter, type TransferUpdate
} from '../src/domain/scheduled-transfer.js'
import type { OperationHandler } from '../src/http/request-context.js'

const transferIdOf = (params: unknown): string => (params as { transferId: string }).transferId

export const scheduledTransferHandlers: Record<string, OperationHandler> = {
  createInternalScheduledTransfer: ({ ctx, customerId }, request) => createInternalTransfer(ctx, customerId, request.body as InternalTransferRequest),
  createAchScheduledTransfer: ({ ctx, customerId }, request) => createAchTransfer(ctx, customerId, request.body as AchTransferRequest),
  listScheduledTransfers: ({ ctx, customerId }, request) => ({ data: listTransfers(ctx, customerId, request.query as TransferFilter) }),
  getScheduledTransfer: ({ ctx, customerId }, request) => getTransfer(ctx, customerId, transferIdOf(request.params)),
  updateScheduledTransfer: ({ ctx, customerId }, request) => updateTransfer(ctx, customerId, transferIdOf(request.params), request.body as TransferUpdate),
  deleteScheduledTransfer: ({ ctx, customerId }, request) => deleteTransfer(ctx, customerId, transferIdOf(request.params)),
  cancelScheduledTransfer: ({ ctx, customerId }, request) => cancelTransfer(ctx, customerId, transferIdOf(request.params))
}
