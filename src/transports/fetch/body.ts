import { bodyProblems, parseJsonBody } from '../../core/json-body.js'
import { HttpProblem } from '../../core/problem.js'

/** Methods whose body the mock reads, as Fastify does (a DELETE with a body is parsed too). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The request body as the Fastify server reads it: JSON only (415 for another media type or a
 * compressed body), 413 past the limit, and JSON parsed as parseJsonBody does.
 */
export async function readJsonBody (request: Request, bodyLimit: number): Promise<unknown> {
  if (!BODY_METHODS.has(request.method)) return undefined
  const text = await request.text()
  const contentType = request.headers.get('content-type')
  if (contentType === null) {
    if (text === '') return undefined
    throw new HttpProblem(bodyProblems.unsupportedMediaType())
  }
  if ((contentType.split(';')[0] ?? '').trim().toLowerCase() !== 'application/json') throw new HttpProblem(bodyProblems.unsupportedMediaType())
  const encoding = request.headers.get('content-encoding')
  if (encoding !== null && encoding !== 'identity') throw new HttpProblem(bodyProblems.unsupportedEncoding(encoding))
  if (new TextEncoder().encode(text).length > bodyLimit) throw new HttpProblem(bodyProblems.tooLarge())
  return parseJsonBody(text)
}
