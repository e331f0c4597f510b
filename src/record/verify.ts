import { OPERATIONS_BY_ID, isWrite } from '../core/operations.js'
import type { DialectFile, FieldSpec } from '../dialect/schema.js'
import { mediaType, type Exchange } from './exchange.js'
import { REDACTED } from './redact.js'
import { shapeDifferences, type Difference } from './shape-diff.js'
import { get } from './pointer.js'

export type FetchLike = (request: Request) => Promise<Response>

export interface VerifiedCase { index: number; exchange: Exchange; differences: Difference[] }

/** The target could not be asked: verify cannot tell drift from an outage (exit 2). */
export class CannotVerifyError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'CannotVerifyError'
  }
}

const NOT_REPLAYED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'te', 'upgrade'])

/** The recorded request again, on another origin; redacted values are left out, `extra` headers added (a token for the backend). */
export function replayRequest (exchange: Exchange, origin: string, extra: Readonly<Record<string, string>> = {}): Request {
  const { request } = exchange
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (!NOT_REPLAYED.has(name) && !value.includes(REDACTED)) headers.set(name, value)
  }
  for (const [name, value] of Object.entries(extra)) headers.set(name, value)
  const body = request.json !== undefined ? JSON.stringify(request.json) : request.text
  // A target with a base path (https://dev.example.com/api) keeps it.
  const url = new URL(origin.replace(/\/$/, '') + request.path + (request.query === '' ? '' : `?${request.query}`))
  return new Request(url, { method: request.method, headers, ...body !== undefined && request.method !== 'GET' && request.method !== 'HEAD' ? { body } : {} })
}

/** The team's values each learned value map allows, by absolute pointer, for an answer of this schema. */
function valueMaps (dialect: DialectFile | undefined, schema: string): Map<string, unknown[]> {
  const maps = new Map<string, unknown[]>()
  const shape = dialect?.shapes?.[schema]
  if (shape === undefined) return maps
  for (const [pointer, spec] of Object.entries(shape.fields) as Array<[string, FieldSpec]>) {
    if (typeof spec === 'object' && spec.values !== undefined) maps.set((shape.envelope ?? '') + pointer, Object.values(spec.values))
  }
  return maps
}

interface Answer { status: number; contentType: string; json: unknown; text: string }

async function answerOf (response: Response): Promise<Answer> {
  const text = await response.text()
  const contentType = mediaType({ 'content-type': response.headers.get('content-type') ?? '' })
  let json: unknown
  try {
    json = /[/+]json$/.test(contentType) && text !== '' ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: response.status, contentType, json, text }
}

function compare (backend: Answer, mock: Answer, dialect: DialectFile | undefined, schema: string): Difference[] {
  const differences: Difference[] = []
  if (backend.status !== mock.status) differences.push({ pointer: '', message: `status ${backend.status} in the backend, ${mock.status} in the mock` })
  if (backend.contentType !== mock.contentType) differences.push({ pointer: '', message: `content type ${backend.contentType || 'none'} in the backend, ${mock.contentType || 'none'} in the mock` })
  if (differences.length > 0) return differences
  differences.push(...shapeDifferences(backend.json, mock.json))
  for (const [pointer, allowed] of valueMaps(dialect, backend.status >= 400 ? 'Problem' : schema)) {
    for (const [side, answer] of [['backend', backend], ['mock', mock]] as const) {
      const value = get(answer.json, pointer)
      if (value !== undefined && !allowed.includes(value)) {
        differences.push({ pointer, message: `${JSON.stringify(value)} in the ${side} is not a learned value (${allowed.map(v => JSON.stringify(v)).join(', ')})` })
      }
    }
  }
  return differences
}

/**
 * Replays the corpus against the backend and the mock, in order (both keep state), and compares
 * each pair of answers by shape: status, content type, fields, JSON types, learned enum values.
 */
export async function verify (options: {
  corpus: readonly Exchange[]
  target: URL
  mock: FetchLike
  dialect?: DialectFile | undefined
  readOnly?: boolean
  headers?: Readonly<Record<string, string>>
  targetFetch?: FetchLike
  /** A line for each exchange not replayed (its request holds a redacted value). */
  onSkip?: (line: string) => void
}): Promise<VerifiedCase[]> {
  const targetFetch = options.targetFetch ?? (async (request: Request) => await fetch(request))
  const cases: VerifiedCase[] = []
  let refused = 0
  const unrouted: string[] = []
  for (const [index, exchange] of options.corpus.entries()) {
    const operation = OPERATIONS_BY_ID.get(exchange.operation)
    if (operation === undefined) continue
    if (options.readOnly === true && (isWrite(operation) || exchange.request.method !== 'GET')) continue
    if (holdsRedacted(exchange)) {
      // The value sent was a secret, kept only as [redacted]: replaying the placeholder asks something else.
      options.onSkip?.(`${exchange.operation} ${exchange.request.method} ${exchange.request.path}: not replayed, its request holds a redacted value or a body too large to keep`)
      continue
    }
    let backend: Answer
    try {
      backend = await answerOf(await targetFetch(replayRequest(exchange, options.target.href, options.headers)))
    } catch (error) {
      throw new CannotVerifyError(`${options.target.origin} did not answer ${exchange.request.method} ${exchange.request.path}: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`)
    }
    const mock = await answerOf(await options.mock(replayRequest(exchange, 'http://localhost')))
    if ((backend.status === 401 || backend.status === 403) && exchange.response.status !== backend.status) refused++
    if (mock.status === 404 && (mock.json as { code?: unknown } | undefined)?.code === 'route_not_found') unrouted.push(`${exchange.request.method} ${exchange.request.path}`)
    cases.push({ index, exchange, differences: compare(backend, mock, options.dialect, operation.success.schema) })
  }
  // Nearly every replay refused for want of credentials: that is the run, not drift.
  if (cases.length > 0 && refused >= Math.max(1, Math.ceil(cases.length * 0.9))) {
    throw new CannotVerifyError(`${options.target.origin} answered 401/403 to ${refused} of ${cases.length} replayed request(s): give it credentials, e.g. --header "Authorization: Bearer …"`)
  }
  // Nearly every replay unknown to the mock: it runs on other routes than the recording did.
  if (cases.length > 0 && unrouted.length >= Math.max(1, Math.ceil(cases.length * 0.9))) {
    throw new CannotVerifyError(`the mock has no route for ${unrouted.length} of ${cases.length} replayed request(s) (${unrouted[0] ?? ''}): give it the routes they were recorded on, --env-file DIR/routes.env (which baas-mock record writes when routes were moved), or the --env-file or --route you recorded with`)
  }
  return cases
}

/** Whether the recorded request carries a redacted value in its body or query (headers are left out of the replay instead), or its body was not kept. */
function holdsRedacted (exchange: Exchange): boolean {
  const { request } = exchange
  const query = new URLSearchParams(request.query)
  return request.truncated === true || [...query.values()].includes(REDACTED) || JSON.stringify(request.json ?? null).includes(REDACTED) || (request.text ?? '').includes(REDACTED)
}

/** Every difference, one line each: `lockCard /result/card/lastFour: missing in the backend`. */
export function describeDifferences (cases: readonly VerifiedCase[]): string[] {
  return cases.flatMap(c => c.differences.map(d => `${c.exchange.operation} ${d.pointer === '' ? '(answer)' : d.pointer}: ${d.message}`))
}
