import type { Config } from '../config/config.js'
import type { Scenario } from '../fixtures/loader.js'
import type { ResponseOverrides } from '../fixtures/responses.js'
import { NO_DIALECTS, type Dialects } from '../fixtures/dialect.js'
import type { SecretView, StateView } from './dialect-hooks.js'
import type { ResolvedRoute } from '../config/route-config.js'
import type { Session, SessionStore } from '../world/sessions.js'
import { World, type WorldData, type WorldOptions } from '../world/world.js'
import { realSleep, type Sleep } from './delay.js'
import type { CoreRequest, FinishedRequest } from './exchange.js'
import { Listeners } from '../world/listeners.js'
import { HttpProblem, problem } from './problem.js'
import { sessionIdFrom } from './session-id.js'
import { PersonaNotices } from './persona-notices.js'

/** What every part of the core shares: configuration, the scenarios, the sessions, the routes in effect and the response overrides. */
export class CoreServices {
  /**
   * Scenario that new sessions start from (`--scenario`). `POST /__mock/reset {scenario}` moves
   * only the caller's session, so parallel tests never change each other's starting point.
   */
  activeScenario: string

  /** Transports tell it every request they answered, when anyone listens (the event feed): one check per request otherwise. */
  readonly finishedRequests = new Listeners<FinishedRequest>()

  /** Warns once per unknown token that open auth answered as the default persona; loadCore says where the lines go. */
  readonly personaNotices: PersonaNotices

  /** The dialect files in effect per scenario (dialect.yaml), as loaded and checked; set once by loadCore. */
  dialects: Dialects = NO_DIALECTS

  /** The dashboard's raw view of the state in a scenario's dialect; undefined without one. */
  stateView: StateView | undefined

  /** Where secret fields sit in a body sent in a scenario's dialect (the journal redacts them); undefined without one. */
  secretView: SecretView | undefined

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
    // No logger in the core: stderr unless loadCore is given one (the server's).
    this.personaNotices = new PersonaNotices(scenarios, line => { console.warn(`baas-mock: ${line}`) })
  }

  /**
   * The request's session (from `x-mock-session`), created on first use and remembered on the
   * request. In this process, at once: for what runs outside a request's store boundary (inSession).
   */
  sessionFor (request: CoreRequest): Session {
    if (request.session !== null) return request.session
    return this.adopt(request, this.sessions.get(sessionIdFrom(request.headers)))
  }

  /** Remembers the session the request is served in, and whether it was just made from the scenario. */
  adopt (request: CoreRequest, session: Session): Session {
    request.session = session
    if (session.unannounced) {
      // This answer is the first since the session was made from the scenario: it says so.
      session.unannounced = false
      request.sessionCreated = true
    }
    return session
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

  /** A world as a store kept it (changed fixtures do not rewrite it; a reset rebuilds it from them). */
  restoreWorld (sessionId: string, data: WorldData, onEvents?: WorldOptions['onEvents']): World {
    return new World({ restore: data }, this.worldOptions(sessionId, data.scenario, onEvents))
  }

  buildWorld (sessionId: string, scenarioName = this.activeScenario, onEvents?: WorldOptions['onEvents']): World {
    const scenario = this.scenario(scenarioName)
    return new World(scenario.fixtures, this.worldOptions(sessionId, scenario.name, onEvents))
  }

  private worldOptions (sessionId: string, scenario: string, onEvents: WorldOptions['onEvents']): WorldOptions {
    return { scenario, now: this.config.now, seed: this.config.seed, sessionId, outboxCap: this.config.outboxCap, settings: this.config.settings, onEvents }
  }
}
