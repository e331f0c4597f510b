import type { FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import type { Scenario } from '../fixtures/loader.js'
import type { ResponseOverrides } from '../fixtures/responses.js'
import type { ResolvedRoute } from '../route-config.js'
import type { Session, SessionStore } from '../state/sessions.js'
import { World } from '../state/world.js'
import { realSleep, type Sleep } from './delay.js'
import { HttpProblem, problem } from './problem.js'
import { sessionIdOf } from './request-context.js'

/** What the routes share: configuration, the scenarios, the sessions, the routes in effect and the response overrides. */
export class MockServices {
  /**
   * Scenario that new sessions start from (`--scenario`). `POST /__mock/reset {scenario}` moves
   * only the caller's session, so parallel tests never change each other's starting point.
   */
  activeScenario: string

  constructor (
    readonly config: Config,
    readonly scenarios: ReadonlyMap<string, Scenario>,
    readonly routes: readonly ResolvedRoute[],
    readonly sessions: SessionStore,
    readonly overrides: ResponseOverrides,
    /** How delays (`Prefer: delay`, faults, response examples) wait; tests pass one they control. */
    readonly sleep: Sleep = realSleep
  ) {
    this.activeScenario = config.scenario
  }

  /**
   * The caller's session (from `x-mock-session`), created on first use. A control-plane write
   * (simulation, fault, reset...) may create something due today, so by default a write marks the
   * world changed; API operations mark it themselves after the write, if it can (see Operation).
   */
  sessionOf (request: FastifyRequest, writeMayCreateDueWork = request.method !== 'GET' && request.method !== 'HEAD'): Session {
    if (request.mockSession !== null) return request.mockSession
    const session = this.sessions.get(sessionIdOf(request))
    request.mockSession = session
    if (session.unannounced) {
      // This answer is the first since the session was made from the scenario: it says so.
      session.unannounced = false
      request.mockSessionCreated = true
    }
    if (writeMayCreateDueWork) session.world.markChanged()
    return session
  }

  /** The caller's world, brought up to its clock: what fell due (transfers, shipments, expiries) has happened. */
  worldOf (request: FastifyRequest): World {
    const world = this.sessionOf(request).world
    world.settle()
    // The write this request is about to make may fall due at once: the next settle must look.
    if (request.method !== 'GET' && request.method !== 'HEAD') world.markChanged()
    return world
  }

  scenario (name: string): Scenario {
    const scenario = this.scenarios.get(name)
    if (scenario === undefined) {
      throw new HttpProblem(problem(404, 'scenario_not_found', `No scenario named ${name}; known: ${[...this.scenarios.keys()].join(', ')}.`, {
        errors: [{ pointer: '/scenario', message: 'is not a known scenario' }]
      }))
    }
    return scenario
  }

  buildWorld (sessionId: string, scenarioName = this.activeScenario): World {
    const scenario = this.scenario(scenarioName)
    return new World(scenario.fixtures, {
      scenario: scenario.name,
      now: this.config.now,
      seed: this.config.seed,
      sessionId,
      outboxCap: this.config.outboxCap,
      settings: this.config.settings
    })
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    mockSession: Session | null
    /** The session was created from the scenario for this request (first use, or after it was dropped). */
    mockSessionCreated: boolean
  }
  interface FastifyContextConfig {
    operationId?: string
    /** Set on the API's operations: whether it changes state, whatever method it answers on. */
    writes?: boolean
  }
}
