import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import type { Config } from './config.js'

/** Listens, and on SIGTERM/SIGINT stops accepting, finishes in-flight requests and exits. */
export async function startServer (config: Config): Promise<FastifyInstance> {
  const app = await buildApp(config)
  closeWithGrace({ delay: 8000 }, async ({ signal, err }) => {
    if (err !== undefined) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down')
    await app.close()
  })
  await app.listen({ port: config.port, host: config.host })
  return app
}
