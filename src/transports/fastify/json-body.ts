import type { FastifyInstance } from 'fastify'
import { bodyProblems, parseJsonBody } from '../../core/json-body.js'
import { HttpProblem } from './problem.js'

/**
 * The JSON body parser, in place of Fastify's, which drops the reason a body failed (see
 * parseJsonBody); a compressed body is a 415.
 */
export function installJsonBodyParser (app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const encoding = request.headers['content-encoding']
    if (encoding !== undefined && encoding !== 'identity') {
      done(new HttpProblem(bodyProblems.unsupportedEncoding(encoding)))
      return
    }
    try {
      done(null, parseJsonBody(body as string))
    } catch (error) {
      done(error as Error)
    }
  })
}
