import type { FastifyInstance } from 'fastify'
import secureJson from 'secure-json-parse'
import { HttpProblem, problem } from './problem.js'

/**
 * The JSON body parser, in place of Fastify's, which drops the reason a body failed. Here a body
 * that does not parse says where; a `__proto__` or `constructor.prototype` key is refused by name;
 * a compressed body is a 415; and an empty body under `Content-Type: application/json` (what many
 * HTTP clients send on a bodiless POST such as lock) is no body, not an error.
 */
export function installJsonBodyParser (app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const encoding = request.headers['content-encoding']
    if (encoding !== undefined && encoding !== 'identity') {
      done(new HttpProblem(problem(415, 'unsupported_content_encoding', `Content-Encoding ${encoding} is not supported: send the body uncompressed.`)))
      return
    }
    const text = body as string
    if (text.trim() === '') {
      done(null, undefined)
      return
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }))
    } catch (error) {
      const message = (error as Error).message
      done(/forbidden prototype/i.test(message)
        ? new HttpProblem(problem(400, 'forbidden_json_key', 'The body holds a __proto__ or constructor.prototype key, which the mock refuses.'))
        : new HttpProblem(problem(400, 'malformed_json', `The body is not valid JSON: ${message}.`)))
    }
  })
}
