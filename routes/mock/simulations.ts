import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { DomainContext } from '../../src/domain/context.js'
import { activateCard, deliverCard, shipCard } from '../../src/domain/debit-card.js'
import { failNextExecution, runTransferNow } from '../../src/domain/scheduled-transfer.js'
import type { MockServices } from '../../src/http/services.js'
import { EmptyBody, IdParam, StrictObject } from '../../src/http/schemas/common.js'
import { CONTROL_TAGS, responses } from './control-schemas.js'

const TimelineEvent = Type.Object({ at: Type.String(), kind: Type.String(), entityId: Type.String(), detail: Type.String() })

const FailNextBody = StrictObject({
  reason: Type.Optional(Type.String({ pattern: '^[A-Z][A-Z0-9_]{0,63}$', description: 'failureReason of the failed execution (default INSUFFICIENT_FUNDS)', examples: ['ACCOUNT_CLOSED'] }))
})

const CARD_ACTIONS = {
  activate: { run: activateCard, summary: 'Activate a PENDING_ACTIVATION card, as the cardholder would' },
  ship: { run: shipCard, summary: 'Ship an ORDERED card now (a tracking number is assigned)' },
  deliver: { run: deliverCard, summary: 'Deliver a card now (shipping it first if needed); delivery activates it' }
} as const

/** Back-office actions on any customer's card or transfer, so a test need not wait for the clock. */
export async function simulationRoutes (app: FastifyInstance, { services }: { services: MockServices }): Promise<void> {
  const ctxOf = (request: FastifyRequest): DomainContext => {
    return services.worldOf(request).ctx
  }

  for (const [action, { run, summary }] of Object.entries(CARD_ACTIONS)) {
    app.post(`/simulations/cards/:cardId/${action}`, {
      schema: {
        operationId: `mockSimulateCard${action[0]?.toUpperCase()}${action.slice(1)}`,
        tags: CONTROL_TAGS,
        summary,
        description: 'Acts on any customer\'s card in the session. A closed card, or one not in the stage the action needs, is 409.',
        params: IdParam('cardId', 'card'),
        body: EmptyBody,
        response: responses({ 200: { ...Type.Ref('DebitCard'), description: 'The card' } }, 404, 409, 413, 415)
      }
    }, async (request) => run(ctxOf(request), (request.params as { cardId: string }).cardId))
  }

  app.post('/simulations/transfers/:transferId/run', {
    schema: {
      operationId: 'mockSimulateTransferRun',
      tags: CONTROL_TAGS,
      summary: 'Run a scheduled transfer\'s next occurrence now',
      description: 'Executes the next run now instead of on its date (balances move, or the run fails on insufficient funds) and answers the transfer with what fired. ' +
        'Its executionDate is today; for ACH, the first banking day from today after its last run (ACH settles on banking days, one run a day). Only an ACTIVE transfer runs (409).',
      params: IdParam('transferId', 'sxfer'),
      body: EmptyBody,
      response: responses({
        200: Type.Object({ transfer: Type.Ref('ScheduledTransfer'), fired: Type.Array(TimelineEvent) }, { description: 'The transfer after the run' })
      }, 404, 409, 413, 415)
    }
  }, async (request) => {
    const { transfer, events } = runTransferNow(ctxOf(request), (request.params as { transferId: string }).transferId)
    return { transfer, fired: events }
  })

  app.post('/simulations/transfers/:transferId/fail-next', {
    schema: {
      operationId: 'mockSimulateTransferFailNext',
      tags: CONTROL_TAGS,
      summary: 'Make a scheduled transfer\'s next execution fail',
      description: 'The next run (on its date, or with .../run) is a FAILED execution with the given reason and moves no money. Only an ACTIVE transfer (409).',
      params: IdParam('transferId', 'sxfer'),
      body: FailNextBody,
      response: responses({ 200: { ...Type.Ref('ScheduledTransfer'), description: 'The transfer' } }, 404, 409, 413, 415)
    }
  }, async (request) => {
    const { reason } = request.body as { reason?: string }
    return failNextExecution(ctxOf(request), (request.params as { transferId: string }).transferId, reason ?? 'INSUFFICIENT_FUNDS')
  })
}
