import { configFromOptions, type MockOptions } from './config/options.js'

export { createMock, type Mock } from './transports/fetch/mock.js'
export { MockProblemError, type ListPage, type SessionHandle } from './transports/fetch/session-handle.js'
export type { MockOptions } from './config/options.js'
export type { WorldSnapshot } from './world/snapshot.js'
export type { AdvanceResult, ClockState, FaultRequest, FaultRule, FiredEvent, JournalEntry, LatestCode, OutboxMessage, WebhookDelivery, WebhookEvent } from './control/types.js'

export interface RunningServer {
  /** The base URL it listens at, e.g. http://127.0.0.1:54321. */
  url: string
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close (): Promise<void>
}

/**
 * Starts the HTTP server (as `baas-mock` does, without its signal handling: the caller owns the
 * process), for Vitest's globalSetup or Playwright's webServer. `port: 0` picks a free port.
 */
export async function startServer (options: MockOptions = {}): Promise<RunningServer> {
  const config = configFromOptions({ port: 0, ...options }, { logLevel: 'warn' })
  // Loaded here, so that createMock and the MSW handlers never load Fastify.
  const { buildApp } = await import('./transports/fastify/app.js')
  const app = await buildApp(config)
  const address = await app.listen({ port: config.port, host: config.host })
  return { url: address.replace('0.0.0.0', '127.0.0.1'), close: async () => { await app.close() } }
}
