import { Type } from 'typebox'
import { activateCard, deliverCard, shipCard } from '../domain/debit-card.js'
import { RETURN_CODES } from '../domain/ach-return-codes.js'
import { failNextExecution, returnLatestExecution, runTransferNow } from '../domain/scheduled-transfer.js'
import { firedEvent } from '../domain/timeline.js'
import { controlRoute, type ControlRoute } from './route.js'
import { EmptyBody, IdParam, StrictObject } from '../core/schemas/common.js'
import { CONTROL_TAGS, responses } from './schemas.js'

const TimelineEvent = Type.Object({ at: Type.String(), kind: Type.String(), entityId: Type.String(), detail: Type.String() })

const FailNextBody = StrictObject({
  reason: Type.Optional(Type.String({ pattern: '^[A-Z][A-Z0-9_]{0,63}$', description: 'failureReason of the failed execution (default INSUFFICIENT_FUNDS)', examples: ['ACCOUNT_CLOSED'] }))
})

const ReturnBody = StrictObject({
  returnCode: Type.String({
    minLength: 1,
    maxLength: 8,
    description: `The NACHA return reason code: ${RETURN_CODES.join(', ')} (another is 422 unknown_return_code)`,
    examples: ['R01', 'R02']
  })
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
  }),
  controlRoute({
    method: 'POST',
    url: '/__mock/simulations/transfers/:transferId/return',
    schema: {
      operationId: 'mockSimulateTransferReturn',
      tags: CONTROL_TAGS,
      summary: 'Have the receiving bank return an ACH transfer\'s latest execution now',
      description: 'The latest PENDING or SETTLED execution of an ACH transfer (of any customer, in any status) becomes RETURNED with the NACHA `returnCode` and its `returnReason`, and the money goes back. ' +
        'A code that ends the transfer (R02, R03, R04, R07, R10, R16, R20, R29), or any return of a ONCE transfer, makes an ACTIVE or COMPLETED transfer FAILED with no further runs; ' +
        'R01 and R08 leave it running. A SETTLED execution comes back only within its return window (2 banking days after settlement; 60 calendar days for R07 and R10). ' +
        'Answers the transfer and what fired (a scheduled_transfer.execution_returned event). Unknown transfer 404 transfer_not_found; unknown code 422 unknown_return_code; ' +
        'an INTERNAL transfer 409 not_an_ach_transfer; no PENDING or SETTLED execution, or its window closed, 409 nothing_to_return.',
      params: TransferParams,
      body: ReturnBody,
      response: responses({
        200: Type.Object({ transfer: Type.Ref('ScheduledTransfer'), fired: Type.Array(TimelineEvent) }, { description: 'The transfer after the return' })
      }, 404, 409, 413, 415, 422)
    },
    handle: ({ world, params, body }) => {
      const { transfer, events } = returnLatestExecution(world().ctx, params.transferId, body.returnCode)
      return { transfer, fired: events.map(firedEvent) }
    }
  })
]
