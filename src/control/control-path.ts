/** Where every route of the control plane lives (`/__mock/state`, `/__mock/ui`...). */
export const CONTROL_PREFIX = '/__mock'

/**
 * Whether a request is for the control plane, judged on the decoded path: the router takes
 * `/%5F%5Fmock/state` for the control plane too, and a preflight must not be judged more kindly
 * than the request it announces. A path that does not decode counts as control (the strict side).
 */
export function isControlPath (url: string): boolean {
  const query = url.indexOf('?')
  let path = query === -1 ? url : url.slice(0, query)
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path)
    } catch {
      return true
    }
  }
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}
