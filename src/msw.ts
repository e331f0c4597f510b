import { buildMock, type Mock } from './transports/fetch/mock.js'
import type { MockOptions } from './config/options.js'
import { handlersFor, type HandlerOptions } from './transports/msw/handlers.js'

export type { HandlerOptions } from './transports/msw/handlers.js'
export type { FixtureFiles } from './fixtures/memory-files.js'

/**
 * MSW handlers for `setupServer` (msw/node) or `setupWorker` (msw/browser, Storybook), answered
 * by `options.mock`, or by a mock built now from the other options (the CLI's settings, camelCase).
 */
export function createHandlers (options: HandlerOptions & MockOptions & { mock?: Mock } = {}): ReturnType<typeof handlersFor> {
  const { baseUrl, mock, ...settings } = options
  return handlersFor(mock ?? buildMock(settings), baseUrl === undefined ? {} : { baseUrl })
}
