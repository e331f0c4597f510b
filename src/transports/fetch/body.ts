import { bodyProblems, parseJsonBody } from '../../core/json-body.js'
import { HttpProblem, type ProblemBody } from '../../core/problem.js'

/** Methods whose body the mock reads, as Fastify does (a DELETE with a body is parsed too). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The request body as the Fastify server reads it: JSON only (415 for another media type or a
 * compressed body), 413 past the limit, and JSON parsed as parseJsonBody does. The body is read as
 * a stream and counted as it comes, so one over the limit is refused at the limit: a 100 MB body
 * costs the bytes read up to it, not 100 MB (nor a declared Content-Length over it, anything).
 */
export async function readJsonBody (request: Request, bodyLimit: number): Promise<unknown> {
  if (!BODY_METHODS.has(request.method)) return undefined
  const contentType = request.headers.get('content-type')
  if (contentType !== null) {
    if ((contentType.split(';')[0] ?? '').trim().toLowerCase() !== 'application/json') return refuse(request, bodyProblems.unsupportedMediaType())
    const encoding = request.headers.get('content-encoding')
    if (encoding !== null && encoding !== 'identity') return refuse(request, bodyProblems.unsupportedEncoding(encoding))
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > bodyLimit) return refuse(request, bodyProblems.tooLarge())
  const text = await boundedText(request.body, bodyLimit)
  if (contentType === null) {
    if (text === '') return undefined
    throw new HttpProblem(bodyProblems.unsupportedMediaType())
  }
  return parseJsonBody(text)
}

/** The body's text, read no further than `limit` bytes: past it, the rest is cancelled and the answer is 413. */
async function boundedText (body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (body === null) return ''
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let bytes = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > limit) {
      await reader.cancel()
      throw new HttpProblem(bodyProblems.tooLarge())
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

/** Refuses without reading: the body is let go of, so a stream behind it stops. */
async function refuse (request: Request, problem: ProblemBody): Promise<never> {
  await request.body?.cancel()
  throw new HttpProblem(problem)
}
