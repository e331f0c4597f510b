import type { DialectFile } from '../../src/dialect/schema.js'

/**
 * The suite's team backend as a DialectFile literal: a JSON:API-like envelope, snake_case fields,
 * lower-case states, errors as a list.
 */
export const SUITE_DIALECT: DialectFile = {
  shapes: {
    DebitCard: {
      envelope: '/data',
      fields: {
        '/id': '/id',
        '/type': { const: 'card' },
        '/attributes/card_state': { from: '/status', values: { ACTIVE: 'active', LOCKED: 'frozen', CLOSED: 'closed', PENDING_ACTIVATION: 'pending' } },
        '/attributes/last_4': '/last4',
        '/attributes/kind': { from: '/form', values: { VIRTUAL: 'virtual', PHYSICAL: 'plastic' } },
        '/attributes/nickname': { default: null },
        '/attributes/updated_at': '/updatedAt'
      }
    },
    Customer: {
      envelope: '/data',
      fields: {
        '/id': '/id',
        '/type': { const: 'customer' },
        '/attributes/email_address': '/email',
        '/attributes/phone_number': '/phone',
        '/attributes/given_name': '/firstName',
        '/attributes/home_address': '/address',
        '/attributes/greeting': { template: 'Hi {{value.firstName}}' }
      }
    },
    ScheduledTransfer: {
      fields: {
        '/id': '/id',
        '/amount_cents': '/amount',
        '/state': { from: '/status', values: { ACTIVE: 'active', COMPLETED: 'done', CANCELLED: 'cancelled', FAILED: 'failed' } },
        '/runs': { from: '/executions', shape: 'Run' }
      }
    },
    Run: { fields: { '/on': '/executionDate', '/result': { from: '/status', values: { SUCCEEDED: 'ok', FAILED: 'failed', PENDING: 'pending', SETTLED: 'settled', RETURNED: 'returned' } } } },
    ScheduledTransferList: { fields: { '/items': { from: '/data', shape: 'ScheduledTransfer' }, '/next': '/nextCursor' } },
    Problem: {
      fields: {
        '/errors/0/status': '/status',
        '/errors/0/code': { from: '/code', values: { card_not_found: 'NOT_FOUND', invalid_card_state: 'CONFLICT' } },
        '/errors/0/detail': '/detail',
        '/errors/0/source/pointer': '/errors/0/pointer'
      }
    }
  },
  requests: {
    reissueCard: { fields: { '/data/attributes/reason': { to: '/reason', values: { DAMAGED: 'damaged', LOST: 'lost', STOLEN: 'stolen', EXPIRED: 'expired' } } } }
  },
  entities: { DebitCard: { card_maya_virtual: { '/attributes/nickname': 'Groceries' } } }
}
