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

async function readAll (stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

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

interface Forwarded { status: number; headers: IncomingHttpHeaders; body: Buffer }

async function forward (target: URL, req: IncomingMessage, body: Buffer): Promise<Forwarded> {
  const base = target.pathname.replace(/\/$/, '')
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return await new Promise((resolve, reject) => {
    const out = request(target, {
      method: req.method,
      path: base + (req.url ?? '/'),
      headers: { ...forwardHeaders(req.headers), host: target.host, ...body.length > 0 ? { 'content-length': body.length } : {} }
    }, res => {
      readAll(res).then(bytes => { resolve({ status: res.statusCode ?? 502, headers: res.headers, body: bytes }) }, reject)
    })
    out.on('error', reject)
    out.end(body)
  })
}

/**
 * A recording proxy: every request goes to the target unchanged and its answer comes back
 * unchanged; requests of the mock's operations (by the configured routes) are kept.
 */
export async function startRecorder (options: { target: URL; host: string; port: number; matcher: OperationMatcher; onError?: (message: string) => void }): Promise<Recorder> {
  const exchanges: Exchange[] = []
  const unmatched = new Set<string>()
  let requestStop = (): void => {}
  const stopRequested = new Promise<void>(resolve => { requestStop = resolve })

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://recorder')
    if (req.method === 'POST' && url.pathname === STOP_PATH) {
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ stopping: true, exchanges: exchanges.length }))
      requestStop()
      return
    }
    const body = await readAll(req)
    let answer: Forwarded
    try {
      answer = await forward(options.target, req, body)
    } catch (error) {
      options.onError?.(`${req.method ?? 'GET'} ${url.pathname}: the target did not answer (${(error as Error).message})`)
      res.writeHead(502, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ type: 'urn:baas-mock:problem:target_unreachable', title: 'Bad Gateway', status: 502, code: 'target_unreachable', detail: `The recorder could not reach ${options.target.origin}.` }))
      return
    }
    res.writeHead(answer.status, forwardHeaders(answer.headers)).end(answer.body)
    const matched = options.matcher.match(req.method ?? 'GET', url.pathname)
    if (matched === undefined) {
      unmatched.add(`${req.method ?? 'GET'} ${url.pathname}`)
      return
    }
    const requestHeaders = flat(req.headers)
    const responseHeaders = flat(answer.headers)
    exchanges.push({
      operation: matched.operation.id,
      params: matched.params,
      request: { method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1), headers: requestHeaders, ...bodyOf(mediaType(requestHeaders), decoded(requestHeaders['content-encoding'], body)) },
      response: { status: answer.status, headers: responseHeaders, ...bodyOf(mediaType(responseHeaders), decoded(responseHeaders['content-encoding'], answer.body)) }
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that went away mid-request: nothing to answer, nothing to keep.
      options.onError?.(`${req.method ?? 'GET'} ${req.url ?? ''}: ${(error as Error).message}`)
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => { resolve() })
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
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
