import type { FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'

/**
 * pino: pretty on a terminal, JSON lines otherwise. Tokens, codes and personal data are redacted
 * wherever they could appear; request logs carry the route, never the body.
 */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-mock-admin-token"]',
  'headers.authorization', '*.authorization', '*.code', '*.pin', '*.ssn', '*.ssnLast4', '*.pan', '*.token', '*.adminToken'
]

export function loggerOptions (config: Pick<Config, 'logLevel' | 'prettyLogs'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id })
    },
    ...(config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {})
  }
}

/** PIN-page links carry a single-use secret in the path. */
export function redactUrl (url: string): string {
  return url.replace(/(\/__mock\/pin\/)[^/?#]+/, '$1[REDACTED]')
}
