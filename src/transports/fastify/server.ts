import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import type { Config } from '../../config/config.js'
import { ConfigError } from '../../config/config-error.js'
import { drainLog, flushQuietly } from './logger.js'

const LISTEN_HINTS: Record<string, string> = {
  EADDRINUSE: 'the port is taken; stop what uses it or choose another --port (PORT)',
  EACCES: 'not allowed; ports below 1024 need privileges, choose another --port (PORT)',
  EADDRNOTAVAIL: 'no such address on this machine; check --host (HOST)'
}

/** Listens, and on SIGTERM/SIGINT stops accepting, finishes in-flight requests and exits. */
export async function startServer (config: Config): Promise<FastifyInstance> {
  const app = await buildApp(config)
  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await app.close()
    const code = (error as NodeJS.ErrnoException).code ?? ''
    throw new ConfigError(`cannot listen on ${config.host}:${config.port}: ${LISTEN_HINTS[code] ?? (error as Error).message}`, { cause: error })
  }
  // Logs are buffered; whoever waits for the "listening" line (a script, a supervisor) gets it now.
  flushQuietly(app.log as { flush?: () => void })
  // Registered once listening: before that, its exit handler would turn a failed start into exit 0.
  closeWithGrace({ delay: 8000 }, async ({ signal, err }) => {
    if (err !== undefined) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down')
    await app.close()
    await drainLog(app.log as { flush?: () => void })
  })
  return app
}
