import { Type, type Static } from 'typebox'
import type { FieldError } from '../domain/errors.js'
import { MAX_DELAY_MS } from '../config/limits.js'
import { BODY_OPTIONAL } from '../core/route-definition.js'
import { HttpProblem, problem } from '../core/problem.js'
import { controlRoute, respond, type ControlRoute } from './route.js'
import { StrictObject } from '../core/schemas/common.js'
import { BODY_PROBLEMS, CONTROL_TAGS, NoContent, OperationName, operationIdsFor, responses } from './schemas.js'

/** Rules per session: enough for any test, and a week-long demo cannot be grown without bound. */
export const MAX_FAULT_RULES = 100

const Millis = Type.Integer({ minimum: 0, maximum: MAX_DELAY_MS })
const Delay = Type.Union([Millis, StrictObject({ min: Millis, max: Millis })], {
  description: 'Milliseconds to wait: a number, or {min, max} for a uniformly drawn delay'
})

export const FaultRequest = StrictObject({
  operation: Type.Optional(OperationName),
  status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599, description: 'Answer with this status and a problem+json body' })),
  code: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'The problem\'s code (default fault_injected)' })),
  detail: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  retryAfter: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, description: 'Retry-After seconds sent with the status; a 429 or 503 sends 1 unless told, 0 sends none' })),
  delay: Type.Optional(Delay),
  reset: Type.Optional(Type.Boolean({ description: 'Drop the connection without an answer' })),
  probability: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Chance that the rule fires (default 1); reproducible with --seed' })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'The rule expires after firing this many times (default: never)' }))
}, { description: 'Give status, delay or reset (delay combines with either of the others).' })

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])

export const FaultRuleSchema = Type.Object({
  id: Type.String(),
  operation: Nullable(Type.String({ description: 'As given; null = every operation' })),
  operationIds: Type.Union([Type.Array(Type.String()), Type.Null()]),
  status: Type.Union([Type.Integer(), Type.Null()]),
  code: Nullable(Type.String()),
  detail: Nullable(Type.String()),
  retryAfter: Type.Union([Type.Integer(), Type.Null()]),
  delay: Type.Union([Type.Integer(), Type.Object({ min: Type.Integer(), max: Type.Integer() }), Type.Null()]),
  reset: Type.Boolean(),
  probability: Type.Number(),
  remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'Firings left; null = never expires' }),
  hits: Type.Integer(),
  createdAt: Type.String()
})

type FaultBody = Static<typeof FaultRequest>

/** Rules a well-formed body can still break: they need the fields together. */
function checkFault (body: FaultBody): void {
  const errors: FieldError[] = []
  if (body.status === undefined && body.delay === undefined && body.reset !== true) errors.push({ pointer: '', message: 'give status, delay or reset: true' })
  if (body.status !== undefined && body.reset === true) errors.push({ pointer: '/reset', message: 'a dropped connection has no status: give one or the other' })
  for (const field of ['code', 'detail', 'retryAfter'] as const) {
    if (body[field] !== undefined && body.status === undefined) errors.push({ pointer: `/${field}`, message: 'only applies with status' })
  }
  if (typeof body.delay === 'object' && body.delay.min > body.delay.max) errors.push({ pointer: '/delay/max', message: 'must not be less than min' })
  if (errors.length > 0) {
    throw new HttpProblem(problem(422, 'invalid_fault', `The fault rule is inconsistent: ${errors[0]?.pointer === '' ? '' : `${errors[0]?.pointer} `}${errors[0]?.message}.`, { errors }))
  }
}

const FaultIdParams = StrictObject({ faultId: Type.String({ pattern: '^fault_\\d{1,9}$' }) })
const notFound = (faultId: string): HttpProblem =>
  new HttpProblem(problem(404, 'fault_not_found', `No fault rule ${faultId} in this session (it may have expired after its count).`))

/** Per-session fault rules: errors, latency and dropped connections on chosen operations. */
export const faultRoutes: ControlRoute[] = [
  controlRoute({
    method: 'POST',
    url: '/__mock/faults',
    schema: {
      operationId: 'mockAddFault',
      tags: CONTROL_TAGS,
      summary: 'Add a fault rule to the session',
      description: 'Rules are checked in the order they were added, before the operation runs. Every rule that matches the operation and wins its probability draw fires: ' +
        'its delay is waited, and the first one with a status (problem+json, `x-mock-source: fault`) or `reset` (the connection is dropped) ends the request. ' +
        'A rule with `count` expires after firing that many times. Responses carry `x-mock-fault: <rule ids>`.',
      body: FaultRequest,
      [BODY_OPTIONAL]: false, // status, delay or reset is needed, which the schema alone does not say
      response: responses({ 201: { ...FaultRuleSchema, description: 'The rule' } }, 409, 413, 415, 422)
    },
    handle: async call => {
      const { body } = call
      checkFault(body)
      const session = call.session()
      if (session.faults.size >= MAX_FAULT_RULES) {
        throw new HttpProblem(problem(409, 'too_many_faults', `A session holds at most ${MAX_FAULT_RULES} fault rules; remove some (DELETE /__mock/faults).`))
      }
      const rule = session.faults.add({ ...body, operationIds: body.operation === undefined ? undefined : operationIdsFor(body.operation) }, session.world.clock.now())
      return respond(201, rule, { location: `/__mock/faults/${rule.id}` })
    }
  }),
  controlRoute({
    method: 'GET',
    url: '/__mock/faults',
    schema: {
      operationId: 'mockListFaults',
      tags: CONTROL_TAGS,
      summary: 'The session\'s fault rules, in the order they are checked',
      description: 'Each rule as added, with how often it fired; a rule with a `count` is gone once it fired that many times.',
      response: responses({ 200: Type.Object({ session: Type.String(), faults: Type.Array(FaultRuleSchema) }, { description: 'The rules' }) })
    },
    handle: async call => {
      const session = call.session()
      return { session: session.id, faults: session.faults.list() }
    }
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/faults',
    schema: {
      operationId: 'mockClearFaults',
      tags: CONTROL_TAGS,
      summary: 'Remove every fault rule of the session',
      description: 'Requests of the session answer normally again; other sessions keep their rules.',
      response: responses({ 204: NoContent('Removed') }, ...BODY_PROBLEMS)
    },
    handle: async call => {
      call.session().faults.clear()
      return respond(204)
    }
  }),
  controlRoute({
    method: 'GET',
    url: '/__mock/faults/:faultId',
    schema: {
      operationId: 'mockGetFault',
      tags: CONTROL_TAGS,
      summary: 'One fault rule, with how often it fired (where a new rule\'s Location points)',
      description: 'A rule of another session, or one that expired after its count, is 404.',
      params: FaultIdParams,
      response: responses({ 200: { ...FaultRuleSchema, description: 'The rule' } }, 404)
    },
    handle: async call => {
      const { faultId } = call.params
      const rule = call.session().faults.list().find(r => r.id === faultId)
      if (rule === undefined) throw notFound(faultId)
      return rule
    }
  }),
  controlRoute({
    method: 'DELETE',
    url: '/__mock/faults/:faultId',
    schema: {
      operationId: 'mockRemoveFault',
      tags: CONTROL_TAGS,
      summary: 'Remove one fault rule',
      description: 'The rule stops firing at once; an unknown id (or one that already expired) is 404.',
      params: FaultIdParams,
      response: responses({ 204: NoContent('Removed') }, 404, ...BODY_PROBLEMS)
    },
    handle: async call => {
      const { faultId } = call.params
      if (!call.session().faults.remove(faultId)) throw notFound(faultId)
      return respond(204)
    }
  })
]
