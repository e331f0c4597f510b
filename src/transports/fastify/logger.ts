import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import { createRequire } from 'node:module'
import pino, { type DestinationStream } from 'pino'
import type PinoPretty from 'pino-pretty'
import type { Config, LogRequests } from '../../config/config.js'

/**
 * pino: pretty on a terminal, JSON lines otherwise, one line per request. Request logs carry the
 * method, URL (PIN-link secrets cut out), status, operation and session — never headers or bodies,
 * so tokens, codes and personal data cannot reach them. The redaction below is a second fence for
 * anything that logs a request or headers object explicitly; it names exact paths because pino's
 * wildcard redaction costs more than the rest of a request.
 */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-mock-admin-token"]',
  'headers.authorization', 'headers.cookie', 'headers["x-mock-admin-token"]',
  // The dashboard's cookie stands for the admin token.
  'res.headers["set-cookie"]', 'headers["set-cookie"]'
]

export function loggerOptions (config: Pick<Config, 'logLevel' | 'prettyLogs'>, stream?: DestinationStream): FastifyServerOptions['logger'] {
  const base = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id })
    }
  }
  if (stream !== undefined) return { ...base, stream }
  if (config.prettyLogs) return { ...base, stream: prettyStream() }
  // Buffered, asynchronous writes: a write per line halves the throughput under load, and a
  // synchronous one would stall every request while a slow reader (a full pipe) catches up. pino
  // flushes such a destination when the process exits, however it exits. A short unref'd flush
  // keeps `docker logs -f` live when traffic is light.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 })
  // pino flushes at exit synchronously; when the reader has gone (`baas-mock | head -1`) there is
  // nowhere to write, and that failure must not print a stack trace under the mock's last words.
  // (sonic-boom 4 retried it forever, hence the override to 5 in package.json.)
  const flushSync = destination.flushSync.bind(destination)
  destination.flushSync = () => {
    try {
      flushSync()
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error
    }
  }
  setInterval(() => flushQuietly(destination), 250).unref()
  return { ...base, stream: destination }
}

/**
 * Pretty lines for a person at a terminal, formatted in-process and written synchronously: pino's
 * transport would start a worker thread (tens of milliseconds of every start) and cannot live in
 * the bundle. Loaded only then, so a container or CI run never parses it.
 */
export function prettyStream (destination: NodeJS.WritableStream | number = 1): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty
  return pretty({ translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', sync: true, destination })
}

/** Flushes a buffered destination (or a logger); one not open yet, or closed, has nothing to flush. */
export function flushQuietly (destination: { flush?: () => void }): void {
  try {
    destination.flush?.()
  } catch {
    // SonicBoom throws while still opening or after close; the next tick retries.
  }
}

/**
 * Writes out what the logger still buffers, waiting at most `ms`. Done before exit: a reader that
 * has gone (a closed pipe) then fails this write, which pino's broken-pipe handling answers by
 * turning the stream off, instead of failing pino's synchronous flush at exit.
 */
export function drainLog (logger: { flush?: (done?: (error?: Error) => void) => void }, ms = 1000): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(resolve, ms)
    const done = (): void => { clearTimeout(timer); resolve() }
    try {
      if (logger.flush === undefined) done()
      else logger.flush(done)
    } catch {
      done()
    }
  })
}

/**
 * Fastify logs two lines per request by default; this logs one, with what a reader needs, for
 * every request, or for the answers that went wrong (4xx and 5xx) and the control plane's writes
 * (a reset, a clock advance, a fault rule: what explains the failures after them). A JSON line
 * costs 15 to 20% of the CPU of a whole request (measured), hence the choice.
 */
export function installRequestLog (app: FastifyInstance, which: LogRequests): void {
  if (which === 'none') return
  const logged = which === 'all'
    ? () => true
    : (request: FastifyRequest, reply: FastifyReply) => reply.statusCode >= 400 || (request.method !== 'GET' && request.method !== 'HEAD' && request.url.startsWith('/__mock/'))
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // With logging off, Fastify's stand-in logger has no isLevelEnabled: nothing to do then.
    if (logged(request, reply) && (request.log as Partial<pino.Logger>).isLevelEnabled?.('info') === true) {
      request.log.info({
        reqId: request.id,
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        op: request.routeOptions.config.operationId,
        session: request.mockSession?.id
      }, 'request')
    }
    done()
  })
}

/** Query parameters whose value is a secret (the admin token travels as ?token= for EventSource). */
const SECRET_QUERY = /([?&](?:token|access_token|code|pin|pan|ssn|password|secret|api_key)=)[^&#]*/gi
/** A card number or an SSN pasted into a URL: 9 to 19 digits, or 3-2-4 with dashes. The last 4 stay. */
const CARD_OR_SSN = /(?<!\d)(?:\d{5,15}(?=\d{4}(?!\d))|\d{3}-\d{2}-(?=\d{4}(?!\d)))/g
/** A whole path segment of 4 to 8 digits is a code or a PIN put in the path by mistake. */
const CODE_SEGMENT = /\/\d{4,8}(?=[/?#]|$)/g

/**
 * What a logged URL may show: PIN-link secrets, secret query values and card- or SSN-like digit
 * runs are masked, and so are all-digit path segments of 4 to 8 (a code or PIN in a path). A URL with none of `/__mock/pin/`, `?` or a digit (most of them) costs one scan.
 */
export function redactUrl (url: string): string {
  if (!/[?\d]|\/__mock\/pin\//.test(url)) return url
  return url
    .replace(/(\/__mock\/pin\/)[^/?#]+/, '$1[REDACTED]')
    .replace(SECRET_QUERY, '$1[REDACTED]')
    .replace(CODE_SEGMENT, '/[REDACTED]')
    .replace(CARD_OR_SSN, run => run.replace(/\d/g, '*'))
}
