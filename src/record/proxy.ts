import { request as httpRequest, createServer, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { bodyOf, mediaType, type Exchange } from './exchange.js'
import type { OperationMatcher } from './operations.js'

/** Headers of one hop, never forwarded (RFC 9110 §7.6.1); the host is the target's. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host'])

export const STOP_PATH = '/__mock/record/stop'

export interface Recorder {
  url: string
  /** Known operations' exchanges, in order, as seen (not yet redacted). */
  exchanges: Exchange[]
  /** `METHOD /path` of requests no configured route matched, each once. */
  unmatched: Set<string>
  /** Resolves when a client asked to stop (POST /__mock/record/stop). */
  stopRequested: Promise<void>
  close (): Promise<void>
}

function forwardHeaders (headers: IncomingHttpHeaders | OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && value !== undefined))
}

/** Header values as one string each, for the record. */
function flat (headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]]))
}

/** The bytes of a body kept for learning, up to a cap; past it the body still goes through, but is not kept. */
class Kept {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false
  constructor (private readonly cap: number) {}
  add (chunk: Buffer): void {
    if (this.truncated) return
    this.size += chunk.length
    if (this.size > this.cap) {
      this.truncated = true
      this.chunks.length = 0
      return
    }
    this.chunks.push(chunk)
  }

  get bytes (): Buffer { return Buffer.concat(this.chunks) }
}

/** Bodies kept for learning, each way: a recording learns from answers, not from uploads or downloads. */
export const DEFAULT_BODY_CAP = 1024 * 1024

/** The bytes as the backend meant them, for learning; the client gets them as sent. */
function decoded (encoding: string | undefined, bytes: Buffer): Buffer {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(bytes)
    if (encoding === 'br') return brotliDecompressSync(bytes)
    if (encoding === 'deflate') return inflateSync(bytes)
  } catch {
    // A body that does not decode as it says is kept as sent.
  }
  return bytes
}

interface Forwarded { status: number; headers: IncomingHttpHeaders; request: Kept; response: Kept }

/** The request streamed to the target and its answer streamed back to the client, each kept up to the cap. */
async function forward (target: URL, req: IncomingMessage, res: ServerResponse, cap: number): Promise<Forwarded> {
  const base = target.pathname.replace(/\/$/, '')
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  const sent = new Kept(cap)
  const answered = new Kept(cap)
  return await new Promise((resolve, reject) => {
    const out = request(target, {
      method: req.method,
      path: base + (req.url ?? '/'),
      headers: { ...forwardHeaders(req.headers), host: target.host }
    }, answer => {
      res.writeHead(answer.statusCode ?? 502, forwardHeaders(answer.headers))
      answer.on('data', (chunk: Buffer) => { answered.add(chunk) })
      answer.pipe(res)
      answer.on('end', () => { resolve({ status: answer.statusCode ?? 502, headers: answer.headers, request: sent, response: answered }) })
      answer.on('error', reject)
    })
    out.on('error', reject)
    req.on('data', (chunk: Buffer) => { sent.add(chunk) })
    req.pipe(out)
  })
}

/** The recorder's own problem answers (application/problem+json with a stable code). */
function problem (res: ServerResponse, status: number, code: string, title: string, detail: string): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(status, { 'content-type': 'application/problem+json' })
    .end(JSON.stringify({ type: `urn:baas-mock:problem:${code}`, title, status, code, detail }))
}

/** A page on another site must not stop a recording: a browser says where a request came from. */
function crossSite (req: IncomingMessage, own: string): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return true
  const origin = req.headers.origin
  if (origin === undefined || origin === own) return false
  try {
    // The recorder's page by another loopback name (localhost for 127.0.0.1) is the same site.
    const from = new URL(origin)
    return from.port !== new URL(own).port || !LOOPBACK.has(from.hostname)
  } catch {
    return true
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * A recording proxy: every request goes to the target unchanged and its answer comes back
 * unchanged; requests of the mock's operations (by the configured routes) are kept.
 */
export async function startRecorder (options: { target: URL; host: string; port: number; matcher: OperationMatcher; onError?: (message: string) => void; bodyCap?: number }): Promise<Recorder> {
  const exchanges: Exchange[] = []
  const unmatched = new Set<string>()
  let requestStop = (): void => {}
  const stopRequested = new Promise<void>(resolve => { requestStop = resolve })

  const cap = options.bodyCap ?? DEFAULT_BODY_CAP
  let own = ''
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://recorder')
    if (req.method === 'POST' && url.pathname === STOP_PATH) {
      if (crossSite(req, own)) {
        problem(res, 403, 'cross_site_refused', 'Forbidden', 'The recording is stopped from the command line or a same-origin request, not from another site.')
        return
      }
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ stopping: true, exchanges: exchanges.length }))
      requestStop()
      return
    }
    let answer: Forwarded
    try {
      answer = await forward(options.target, req, res, cap)
    } catch (error) {
      options.onError?.(`${req.method ?? 'GET'} ${url.pathname}: the target did not answer (${(error as Error).message})`)
      problem(res, 502, 'target_unreachable', 'Bad Gateway', `The recorder could not reach ${options.target.origin}.`)
      return
    }
    const matched = options.matcher.match(req.method ?? 'GET', url.pathname)
    if (matched === undefined) {
      unmatched.add(`${req.method ?? 'GET'} ${url.pathname}`)
      return
    }
    const requestHeaders = flat(req.headers)
    const responseHeaders = flat(answer.headers)
    const body = (headers: Record<string, string>, kept: Kept): { json?: unknown; text?: string; truncated?: true } =>
      kept.truncated ? { truncated: true } : bodyOf(mediaType(headers), decoded(headers['content-encoding'], kept.bytes))
    exchanges.push({
      operation: matched.operation.id,
      params: matched.params,
      request: { method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1), headers: requestHeaders, ...body(requestHeaders, answer.request) },
      response: { status: answer.status, headers: responseHeaders, ...body(responseHeaders, answer.response) }
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that went away mid-request: nothing to answer, nothing to keep.
      options.onError?.(`${req.method ?? 'GET'} ${req.url ?? ''}: ${(error as Error).message}`)
      problem(res, 500, 'recorder_failed', 'Internal Server Error', 'The recorder could not handle this request.')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => { resolve() })
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  own = `http://${host}:${port}`
  return {
    url: `http://${host}:${port}`,
    exchanges,
    unmatched,
    stopRequested,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>(resolve => { server.close(() => { resolve() }) })
    }
  }
}
