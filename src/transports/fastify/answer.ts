import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Answer, CoreRequest } from '../../core/exchange.js'
import type { Session } from '../../world/sessions.js'
import { SESSION_CREATED_HEADER } from '../../core/session-id.js'
import { PERSONA_HEADER } from '../../core/persona.js'
import type { Persona } from '../../world/persona.js'
import { baseUrlOf } from './request-context.js'
import { clientAddressOf } from './client-address.js'

/** A Fastify request as the core reads it; the session the core resolves lands on the Fastify request for the journal hook. */
export class FastifyCoreRequest implements CoreRequest {
  readonly method: string
  readonly url: string
  readonly headers: FastifyRequest['headers']
  readonly params: unknown
  readonly query: unknown
  readonly body: unknown

  constructor (private readonly request: FastifyRequest, private readonly publicUrl: string | undefined, private readonly trustedHops = 0) {
    this.method = request.method
    this.url = request.url
    this.headers = request.headers
    this.params = request.params
    this.query = request.query
    this.body = request.body
  }

  get sentBody (): boolean {
    return this.request.headers['content-length'] !== undefined || this.request.headers['transfer-encoding'] !== undefined
  }

  get session (): Session | null {
    return this.request.mockSession
  }

  set session (session: Session | null) {
    this.request.mockSession = session
  }

  get clientAddress (): string | undefined {
    return clientAddressOf(this.request.raw.socket.remoteAddress, this.request.headers['x-forwarded-for'], this.trustedHops)
  }

  get sessionCreated (): boolean {
    return this.request.mockSessionCreated
  }

  set sessionCreated (created: boolean) {
    this.request.mockSessionCreated = created
  }

  get persona (): Persona | null {
    return this.request.mockPersona
  }

  set persona (persona: Persona | null) {
    this.request.mockPersona = persona
  }

  baseUrl (): string {
    return baseUrlOf(this.request, this.publicUrl)
  }
}

/** Sends the core's answer: a JSON value through the route's compiled serializer, text as it is. */
export function sendAnswer (reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.headers !== undefined) reply.headers(answer.headers)
  if (reply.request.mockSessionCreated) reply.header(SESSION_CREATED_HEADER, 'true')
  const persona = reply.request.mockPersona
  if (persona !== null) reply.header(PERSONA_HEADER, persona.customerId)
  reply.code(answer.status)
  if (answer.text !== undefined) return reply.type(answer.contentType ?? 'application/json; charset=utf-8').send(answer.text)
  if (answer.stream !== undefined) return reply.type(answer.contentType ?? 'application/octet-stream').send(answer.stream)
  return reply.send(answer.body)
}
