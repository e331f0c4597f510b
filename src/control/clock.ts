import { Temporal } from 'temporal-polyfill'
import { Type, type Static } from 'typebox'
import { firedItemsUntil, latestDateWithin, MAX_FIRED_PER_ADVANCE } from '../domain/advance-budget.js'
import type { DomainContext } from '../domain/context.js'
import { summariseTimeline } from '../domain/timeline.js'
import { BODY_OPTIONAL } from '../core/route-definition.js'
import { HttpProblem, problem } from '../core/problem.js'
import { DateTimeString, StrictObject } from '../core/schemas/common.js'
import { controlRoute, type ControlRoute } from './route.js'
import { CONTROL_TAGS, responses } from './schemas.js'

/** How far one advance may go: a DAILY transfer runs ~3650 times in ten years; more is a runaway. */
const MAX_ADVANCE = { years: 10 }

/** Events an advance lists; beyond them it answers counts by kind (a year of DAILY runs is 365). */
export const MAX_FIRED_LISTED = 500

export const ClockState = StrictObject({
  now: DateTimeString,
  frozen: Type.Boolean({ description: 'True when time moves only when advanced (--now); otherwise it follows real time plus the advances' }),
  startedAt: DateTimeString
})

const TimelineEvent = StrictObject({
  at: DateTimeString,
  kind: Type.String({ description: 'The event type, as GET /__mock/webhooks/events and webhooks name it', examples: ['scheduled_transfer.execution_succeeded'] }),
  entityId: Type.String(),
  detail: Type.String()
})

const AdvanceBody = StrictObject({
  by: Type.Optional(Type.String({ minLength: 2, maxLength: 64, description: 'ISO 8601 duration; months and years are calendar months and years in UTC', examples: ['P1M', 'P3D', 'PT2H'] })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'The instant to move to; not before now', examples: ['2026-12-24T09:00:00Z'] }))
}, { description: 'Exactly one of by and to' })

export const AdvanceResult = StrictObject({
  now: DateTimeString,
  fired: Type.Array(TimelineEvent, { maxItems: MAX_FIRED_LISTED, description: `What came due, in time order: transfer runs, ACH settlements and returns, statements, shipments, expiries; the first ${MAX_FIRED_LISTED} of them` }),
  firedCount: Type.Integer({ minimum: 0, description: 'How many events fired, listed or not' }),
  firedByKind: Type.Record(Type.String(), Type.Integer({ minimum: 1 }), { description: 'How many events of each kind fired', examples: [{ 'scheduled_transfer.execution_succeeded': 4 }] }),
  truncated: Type.Boolean({ description: `True when more than ${MAX_FIRED_LISTED} events fired and fired lists only the first` })
})


function badInput (pointer: string, message: string): HttpProblem {
  return new HttpProblem(problem(400, 'validation_failed', `The request body is invalid: ${pointer} ${message}.`, { errors: [{ pointer, message }] }))
}

function unprocessable (code: string, pointer: string, message: string): HttpProblem {
  return new HttpProblem(problem(422, code, `${pointer.slice(1)} ${message}.`, { errors: [{ pointer, message }] }))
}

/** Where `{by}` or `{to}` moves the clock from `now`; months are calendar months in UTC. */
export function advanceTarget (body: Static<typeof AdvanceBody>, now: Date): Date {
  if (body.by !== undefined && body.to !== undefined) throw badInput('/to', 'give either by or to, not both')
  const start = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO('UTC')
  const limit = start.add(MAX_ADVANCE).epochMilliseconds
  let target: number
  if (body.by !== undefined) {
    let duration: Temporal.Duration
    try {
      duration = Temporal.Duration.from(body.by)
    } catch {
      throw badInput('/by', 'must be an ISO 8601 duration such as P1M, P3D or PT2H')
    }
    if (duration.sign < 0) throw unprocessable('clock_backwards', '/by', 'must not be negative: the mock clock never goes backwards')
    try {
      target = start.add(duration).epochMilliseconds
    } catch {
      throw unprocessable('advance_too_far', '/by', 'moves the clock out of range')
    }
    if (target > limit) throw unprocessable('advance_too_far', '/by', 'must be at most 10 years')
  } else if (body.to !== undefined) {
    target = Date.parse(body.to)
    if (Number.isNaN(target)) throw badInput('/to', 'must be an RFC 3339 date-time')
    if (target < now.getTime()) throw unprocessable('clock_backwards', '/to', `must not be before now (${now.toISOString()}): the mock clock never goes backwards`)
    if (target > limit) throw unprocessable('advance_too_far', '/to', 'must be at most 10 years after now')
  } else {
    throw badInput('/by', 'or /to is required, not both (by: an ISO 8601 duration such as P1D, to: a date-time)')
  }
  return new Date(target)
}

/**
 * Refuses an advance that would fire more items (transfer runs, ACH settlements and returns,
 * statements) than one advance may, before anything runs, naming the limit and the farthest date
 * it could reach instead.
 */
function checkAdvanceWork (ctx: DomainContext, now: Date, target: Date, pointer: string): void {
  const today = now.toISOString().slice(0, 10)
  const untilDate = target.toISOString().slice(0, 10)
  const items = firedItemsUntil(ctx, untilDate)
  if (items <= MAX_FIRED_PER_ADVANCE) return
  const within = latestDateWithin(ctx, today, untilDate, MAX_FIRED_PER_ADVANCE)
  const latest = within === null || within === today ? null : within
  const instead = latest === null
    ? 'even the next day makes more: cancel or delete some transfers'
    : `advance in steps, e.g. to ${latest}T00:00:00Z first`
  const message = `would fire up to ${items.toLocaleString('en-US')} items (scheduled transfer runs, ACH settlements and returns, statements); one advance fires at most ${MAX_FIRED_PER_ADVANCE.toLocaleString('en-US')}: ${instead}`
  throw new HttpProblem(problem(422, 'advance_too_large', `${pointer.slice(1)} ${message}.`, {
    errors: [{ pointer, message }], maxFiredItems: MAX_FIRED_PER_ADVANCE, firedItems: items, ...(latest === null ? {} : { latestDate: latest })
  }))
}

/** The session's virtual clock: read it, and move it forward firing whatever comes due. */
export const clockRoutes: ControlRoute[] = [
  controlRoute({
    method: 'GET',
    url: '/__mock/clock',
    schema: {
      operationId: 'mockGetClock',
      tags: CONTROL_TAGS,
      summary: 'The session\'s virtual clock',
      description: 'The session\'s current time, whether it is frozen (started with --now: it moves only when advanced) or follows real time, and when the world was built.',
      response: responses({ 200: { ...ClockState, description: 'The clock' } })
    },
    handle: async call => {
      const world = call.world()
      return { now: world.clock.now().toISOString(), frozen: world.clock.frozen, startedAt: world.startedAt.toISOString() }
    }
  }),
  controlRoute({
    method: 'POST',
    url: '/__mock/clock/advance',
    schema: {
      operationId: 'mockAdvanceClock',
      tags: CONTROL_TAGS,
      summary: 'Move the session\'s clock forward and fire what comes due',
      description: 'Give `by` (ISO 8601 duration: P1M, P3D, PT2H) or `to` (a date-time). Due scheduled transfers run in date order ' +
        '(moving balances; insufficient funds fail the run), ACH executions settle on the next banking day or come back (magic 100NN account numbers), ' +
        'each month end passed makes every open account\'s statement, card shipments move along, codes and PIN links expire. ' +
        `Answers the new time and the events fired (the first ${MAX_FIRED_LISTED}, with counts by kind). Moving backwards is 422 clock_backwards; ` +
        `more than 10 years at once is 422 advance_too_far; an advance that would fire more than ${MAX_FIRED_PER_ADVANCE.toLocaleString('en-US')} items ` +
        '(transfer runs, ACH settlements and returns, statements) is 422 advance_too_large, naming the latest date one advance can reach (latestDate). A refused advance changes nothing.',
      body: AdvanceBody,
      [BODY_OPTIONAL]: false, // by or to is needed, which the schema alone does not say
      response: responses({ 200: { ...AdvanceResult, description: 'The new time and what fired' } }, 413, 415, 422)
    },
    handle: async call => {
      const { body } = call
      const world = call.session().world
      const now = world.clock.now()
      const target = advanceTarget(body, now)
      checkAdvanceWork(world.ctx, now, target, body.to === undefined ? '/by' : '/to')
      const fired = world.advanceTo(target)
      return { now: world.clock.now().toISOString(), ...summariseTimeline(fired, MAX_FIRED_LISTED) }
    }
  })
]
