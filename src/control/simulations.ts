import { Type } from 'typebox'
import { activateCard, deliverCard, shipCard } from '../domain/debit-card.js'
import { failNextExecution, runTransferNow } from '../domain/scheduled-transfer.js'
import { firedEvent } from '../domain/timeline.js'
import { controlRoute, type ControlRoute } from './route.js'
import { EmptyBody, IdParam, StrictObject } from '../core/schemas/common.js'
import { CONTROL_TAGS, responses } from './schemas.js'

const TimelineEvent = Type.Object({ at: Type.String(), kind: Type.String(), entityId: Type.String(), detail: Type.String() })

const FailNextBody = StrictObject({
  reason: Type.Optional(Type.String({ pattern: '^[A-Z][A-Z0-9_]{0,63}$', description: 'failureReason of the failed execution (default INSUFFICIENT_FUNDS)', examples: ['ACCOUNT_CLOSED'] }))
})

const CardParams = IdParam('cardId', 'card')
const TransferParams = IdParam('transferId', 'sxfer')

const CARD_ACTIONS = {
  activate: { run: activateCard, summary: 'Activate a PENDING_ACTIVATION card, as the cardholder would' },
  ship: { run: shipCard, summary: 'Ship an ORDERED card now (a tracking number is assigned)' },
  deliver: { run: deliverCard, summary: 'Deliver a card now (shipping it first if needed); delivery activates it' }
} as const


/** Back-office actions on any customer's card or transfer, so a test need not wait for the clock. */
export const simulationRoutes: ControlRoute[] = [
  ...Object.entries(CARD_ACTIONS).map(([action, { run, summary }]) => controlRoute({
    method: 'POST',
    url: `/__mock/simulations/cards/:cardId/${action}`,
    schema: {
      operationId: `mockSimulateCard${action[0]?.toUpperCase()}${action.slice(1)}`,
      tags: CONTROL_TAGS,
      summary,
      description: 'Acts on any customer\'s card in the session. A closed card, or one not in the stage the action needs, is 409.',
      params: CardParams,
      body: EmptyBody,
      response: responses({ 200: { ...Type.Ref('DebitCard'), description: 'The card' } }, 404, 409, 413, 415)
    },
    handle: ({ world, params }) => run(world().ctx, params.cardId)
  })),
  controlRoute({
    method: 'POST',
    url: '/__mock/simulations/transfers/:transferId/run',
    schema: {
      operationId: 'mockSimulateTransferRun',
      tags: CONTROL_TAGS,
      summary: 'Run a scheduled transfer\'s next occurrence now',
      description: 'Executes the next run now instead of on its date (balances move, or the run fails on insufficient funds) and answers the transfer with what fired. ' +
        'Its executionDate is today; for ACH, the first banking day from today after its last run (ACH settles on banking days, one run a day). Only an ACTIVE transfer runs (409).',
      params: TransferParams,
      body: EmptyBody,
      response: responses({
        200: Type.Object({ transfer: Type.Ref('ScheduledTransfer'), fired: Type.Array(TimelineEvent) }, { description: 'The transfer after the run' })
      }, 404, 409, 413, 415)
    },
    handle: ({ world, params }) => {
      const { transfer, events } = runTransferNow(world().ctx, params.transferId)
      return { transfer, fired: events.map(firedEvent) }
    }
  }),
  controlRoute({
    method: 'POST',
    url: '/__mock/simulations/transfers/:transferId/fail-next',
    schema: {
      operationId: 'mockSimulateTransferFailNext',
      tags: CONTROL_TAGS,
      summary: 'Make a scheduled transfer\'s next execution fail',
      description: 'The next run (on its date, or with .../run) is a FAILED execution with the given reason and moves no money. Only an ACTIVE transfer (409).',
      params: TransferParams,
      body: FailNextBody,
      response: responses({ 200: { ...Type.Ref('ScheduledTransfer'), description: 'The transfer' } }, 404, 409, 413, 415)
    },
    handle: ({ world, params, body }) => failNextExecution(world().ctx, params.transferId, body.reason ?? 'INSUFFICIENT_FUNDS')
  })
]
