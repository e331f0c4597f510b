/**
 * Origins allowed to use the control plane from a web page. A page's origin is what a browser
 * sends in `Origin`: `scheme://host[:port]`. A pattern is such an origin, where the port may be
 * `*` (any port, or none); `*` alone allows every origin.
 */

/** The developer's own machine, any port: their dashboard, their app's dev server, their scripts. */
export const LOOPBACK_ORIGINS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'].flatMap(host => [`http://${host}:*`, `https://${host}:*`])

const ORIGIN = String.raw`(?:https?://(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(?:\d{1,5}|\*))?|null|\*)`

/** A comma-separated list of origin patterns, or nothing (no page may use the control plane). */
export const ORIGIN_LIST = new RegExp(`^\\s*(?:${ORIGIN}(?:\\s*,\\s*${ORIGIN})*)?\\s*$`)

export function parseOriginList (text: string): string[] {
  return text.split(',').map(origin => origin.trim()).filter(origin => origin !== '')
}

/** Whether a page of `origin` matches one of the patterns. Scheme and host compare case-insensitively. */
export function originMatcher (patterns: readonly string[]): (origin: string) => boolean {
  const exact = new Set<string>()
  const anyPort: string[] = []
  for (const pattern of patterns.map(p => p.toLowerCase())) {
    if (pattern.endsWith(':*')) anyPort.push(pattern.slice(0, -2))
    else exact.add(pattern)
  }
  if (exact.has('*')) return () => true
  return origin => {
    const given = origin.toLowerCase()
    if (exact.has(given)) return true
    return anyPort.some(prefix => given === prefix || (given.startsWith(`${prefix}:`) && /^\d{1,5}$/.test(given.slice(prefix.length + 1))))
  }
}

/** Whether `origin` is the mock's own: the host the request was sent to, or the configured public URL. */
export function isOwnOrigin (origin: string, requestHost: string, publicUrl: string | undefined): boolean {
  const host = hostOf(origin)
  if (host === undefined) return false
  return host === requestHost.toLowerCase() || (publicUrl !== undefined && host === hostOf(publicUrl))
}

function hostOf (url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase()
  } catch {
    return undefined
  }
}
