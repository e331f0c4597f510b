import type { FastifyError, FastifyInstance } from 'fastify'
import { DomainError } from '../domain/errors.js'
import { fromDomainError, HttpProblem, problem, sendProblem, type ProblemBody } from './problem.js'
import { validationProblem } from './validation.js'

/** Every error leaves as application/problem+json; nothing a client sends can crash the process. */
export function installErrorHandling (app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError | HttpProblem, request, reply) => {
    if (error instanceof DomainError) {
      const { body, retryAfter } = fromDomainError(error)
      return sendProblem(reply, withInstance(body, request.url), retryAfter)
    }
    if (error instanceof HttpProblem) return sendProblem(reply, withInstance(error.body, request.url), error.retryAfterSeconds)
    const body = fromFastifyError(error)
    if (body.status >= 500) request.log.error({ err: error }, 'unhandled error')
    return sendProblem(reply, withInstance(body, request.url))
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url
    sendProblem(reply, problem(404, 'route_not_found', `No operation answers ${request.method} ${path}. See /openapi.json for the routes in effect.`, { instance: path }))
  })
}

function withInstance (body: ProblemBody, url: string): ProblemBody {
  return body.instance === undefined ? { ...body, instance: url.split('?')[0] } : body
}

function fromFastifyError (error: FastifyError): ProblemBody {
  if (error.validation !== undefined) return validationProblem(error.validation, error.validationContext ?? 'body')
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(415, 'unsupported_media_type', 'Send the body as application/json.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'body_too_large', 'The request body is larger than the server accepts.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem(400, 'malformed_json', 'The body is empty but Content-Type says application/json: send a JSON value or no Content-Type.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return problem(400, 'malformed_json', `The body is not valid JSON: ${error.message}`)
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem(400, 'invalid_content_length', 'Content-Length does not match the body.')
  }
  if (error instanceof SyntaxError || (error as { type?: string }).type === 'entity.parse.failed') {
    return problem(400, 'malformed_json', `The body is not valid JSON: ${error.message}`)
  }
  const status = error.statusCode ?? 500
  if (status >= 400 && status < 500) return problem(status, 'bad_request', error.message)
  return problem(500, 'internal_error', 'The mock failed to answer this request; the server log has the details.')
}
