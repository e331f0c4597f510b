import type { MockOptions } from '../../config/options.js'
import { buildMock } from '../fetch/mock.js'
import type { HandlerTarget } from './handlers.js'

/** What createHandlers answers with when no mock is given: one built now from the options (in the browser, handler-target.browser.ts). */
export function handlerTarget (options: MockOptions): HandlerTarget {
  return buildMock(options)
}
