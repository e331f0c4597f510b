import type { Mock } from './transports/fetch/mock.js'
import type { MockOptions } from './config/options.js'
import { handlersFor, type HandlerOptions } from './transports/msw/handlers.js'
import { handlerTarget } from './transports/msw/handler-target.js'

export type { HandlerOptions } from './transports/msw/handlers.js'
// Under setupWorker, the set-PIN link and /__mock/ui cannot be navigated to: this shows them in the app.
export { openMockPage, type MockPage, type OpenMockPageOptions } from './transports/msw/open-page.js'
export type { FixtureFiles } from './fixtures/memory-files.js'
// The in-process mock as well: in a browser this entry is the package's browser build, and
// 'baas-mock' itself (which also starts servers) is for Node.
export { createMock } from './transports/fetch/create-mock.js'
export type { Mock } from './transports/fetch/mock.js'
export { MockProblemError, type SessionHandle } from './transports/fetch/session-handle.js'
export type { MockOptions } from './config/options.js'
export type { WorldSnapshot } from './world/snapshot.js'
export type { AdvanceResult, ClockState, FaultRequest, FaultRule, FiredEvent, JournalEntry, LatestCode, OutboxMessage, WebhookDelivery, WebhookEvent } from './control/types.js'

/**
 * MSW handlers for `setupServer` (msw/node) or `setupWorker` (msw/browser, Storybook), answered
 * by `options.mock`, or by a mock built now from the other options (the CLI's settings, camelCase).
 * In the browser build the options and routes are checked now and the mock is built from chunks
 * loaded in the background; the first request waits for it.
 */
export function createHandlers (options: HandlerOptions & MockOptions & { mock?: Mock } = {}): ReturnType<typeof handlersFor> {
  const { baseUrl, mock, ...settings } = options
  return handlersFor(mock ?? handlerTarget(settings), baseUrl === undefined ? {} : { baseUrl })
}
