import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError } from '../../domain/errors.js'
import { fromDomainError, HttpProblem, problem, sendProblem, type ProblemBody } from './problem.js'
import { SERVER_LIMITS } from '../../config/limits.js'
import { trackAllowedMethods } from './allowed-methods.js'
import { validationProblem } from '../../core/validation.js'
import { bodyProblems } from '../../core/json-body.js'
import type { Refusals } from '../../dialect/refusals.js'

/**
 * Every error leaves as application/problem+json, or under the API's paths in the error shape of
 * the dialect in effect (`refusals`); nothing a client sends can crash the process.
 */
export function installErrorHandling (app: FastifyInstance, refusals?: Refusals): void {
  const send = (request: FastifyRequest, reply: FastifyReply, body: ProblemBody, retryAfter?: number): FastifyReply =>
    sendProblem(reply, body, retryAfter, refusals?.shape(body, request))
  app.setErrorHandler((error: FastifyError | DomainError | HttpProblem, request, reply) => {
    if (error instanceof DomainError) {
      const { body, retryAfter } = fromDomainError(error)
      return send(request, reply, withInstance(body, request.url), retryAfter)
    }
    if (error instanceof HttpProblem) return send(request, reply, withInstance(error.body, request.url), error.retryAfterSeconds)
    const body = fromFastifyError(error)
    if (body.status >= 500) request.log.error({ reqId: request.id, err: error }, 'unhandled error')
    return send(request, reply, withInstance(body, request.url))
  })

  const allowedMethods = trackAllowedMethods(app, { maxParamLength: SERVER_LIMITS.maxParamLength })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url
    const routed = allowedMethods(path)
    if (routed.includes(request.method)) {
      // A route answers this method but found nothing to serve (a static file that is not there).
      send(request, reply, problem(404, 'not_found', `Nothing is at ${path}.`, { instance: path }))
      return
    }
    // HEAD follows GET: naming it tells the caller nothing.
    const allowed = routed.filter(method => method !== 'HEAD')
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '))
      send(request, reply, problem(405, 'method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}.`, { instance: path }))
      return
    }
    send(request, reply, problem(404, 'route_not_found', `No operation answers ${request.method} ${path}. See /openapi.json for the routes in effect.`, { instance: path }))
  })
}

/**
 * Fastify's `frameworkErrors`: what goes wrong before routing (a malformed %-escape, a path
 * parameter over SERVER_LIMITS.maxParamLength) is problem+json too (or the dialect's, as above),
 * not Fastify's own JSON.
 */
export function frameworkErrorHandler (error: FastifyError, request: FastifyRequest, reply: FastifyReply, refusals?: Refusals): void {
  const path = request.url.split('?')[0] ?? request.url
  const body = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? problem(400, 'path_parameter_too_long', `A path segment is longer than ${SERVER_LIMITS.maxParamLength} characters.`)
    : problem(400, 'malformed_url', 'The path is not a valid URL: check its %-escapes.')
  const located = { ...body, instance: path }
  sendProblem(reply, located, undefined, refusals?.shape(located, request))
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', `The request line and headers are larger than ${SERVER_LIMITS.maxHeaderBytes} bytes.`],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request did not arrive in time.']
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request before Fastify saw it
 * (headers too large, too slow, not HTTP). The answer is problem+json like every other one, and
 * nothing is logged: the error carries the raw request bytes, credentials included.
 */
export function clientErrorHandler (error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, code, detail] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'malformed_request', 'The request is not valid HTTP/1.1.']
  if (socket.writable) {
    const body = JSON.stringify(problem(status, code, detail))
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy()
}

function withInstance (body: ProblemBody, url: string): ProblemBody {
  return body.instance === undefined ? { ...body, instance: url.split('?')[0] } : body
}

function fromFastifyError (error: FastifyError): ProblemBody {
  if (error.validation !== undefined) return validationProblem(error.validation, error.validationContext ?? 'body')
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return bodyProblems.unsupportedMediaType()
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyProblems.tooLarge()
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem(400, 'invalid_content_length', 'Content-Length does not match the body.')
  }
  const status = error.statusCode ?? 500
  // A plugin's own client error (@fastify/static's 403): its code names its status, not "bad_request".
  if (status >= 400 && status < 500) return problem(status, codeOf(status), error.message)
  return problem(500, 'internal_error', 'The mock failed to answer this request; the server log has the details.')
}

/** `forbidden` for 403, `not_found` for 404: the status's name as a stable code. */
function codeOf (status: number): string {
  return (STATUS_CODES[status] ?? 'bad_request').toLowerCase().replace(/[^a-z0-9]+/g, '_')
}
