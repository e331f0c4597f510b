import secureJson from 'secure-json-parse'
import { HttpProblem, problem, type ProblemBody } from './problem.js'

/** The problems of a request body, the same whichever transport read it. */
export const bodyProblems = {
  unsupportedMediaType: (): ProblemBody => problem(415, 'unsupported_media_type', 'Send the body as application/json.'),
  tooLarge: (): ProblemBody => problem(413, 'body_too_large', 'The request body is larger than the server accepts.'),
  unsupportedEncoding: (encoding: string): ProblemBody =>
    problem(415, 'unsupported_content_encoding', `Content-Encoding ${encoding} is not supported: send the body uncompressed.`)
}

/**
 * A JSON body's text as the mock reads it: an empty body is no body (what many HTTP clients send on
 * a bodiless POST such as lock), a `__proto__` or `constructor.prototype` key is refused by name,
 * and JSON that does not parse says where.
 */
export function parseJsonBody (text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
  } catch (error) {
    const message = (error as Error).message
    throw /forbidden prototype/i.test(message)
      ? new HttpProblem(problem(400, 'forbidden_json_key', 'The body holds a __proto__ or constructor.prototype key, which the mock refuses.'))
      : new HttpProblem(problem(400, 'malformed_json', `The body is not valid JSON: ${message}.`))
  }
}
