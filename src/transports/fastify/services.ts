import type { FastifyRequest } from 'fastify'
import { CoreServices } from '../../core/services.js'
import type { Session } from '../../world/sessions.js'
import type { World } from '../../world/world.js'
import type { Persona } from '../../world/persona.js'
import { sessionIdOf } from './request-context.js'

/** The core's services, plus the caller's session and world read from a Fastify request. */
export class MockServices extends CoreServices {
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
}

declare module 'fastify' {
  interface FastifyRequest {
    mockSession: Session | null
    /** The session was created from the scenario for this request (first use, or after it was dropped). */
    mockSessionCreated: boolean
    /** The persona the core resolved (x-mock-persona, the journal); null when none answered. */
    mockPersona: Persona | null
  }
  interface FastifyContextConfig {
    operationId?: string
    /** Set on the API's operations: whether it changes state, whatever method it answers on. */
    writes?: boolean
  }
}
