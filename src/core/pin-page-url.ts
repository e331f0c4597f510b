import { DEFAULT_SESSION_ID } from './session-id.js'

/** The set-PIN page's path, under the control plane (control/pin.ts serves it). */
export const PIN_PAGE_PATH = '/__mock/pin'

/**
 * The URL handed out by createSetPinUrl. A browser opening it sends no x-mock-session header, so
 * a non-default session travels in the query.
 */
export function pinPageUrl (baseUrl: string, token: string, sessionId: string): string {
  const url = `${baseUrl}${PIN_PAGE_PATH}/${encodeURIComponent(token)}`
  return sessionId === DEFAULT_SESSION_ID ? url : `${url}?session=${encodeURIComponent(sessionId)}`
}
