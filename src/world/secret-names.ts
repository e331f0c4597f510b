/**
 * Credentials by name, which the journal shows as [REDACTED] (docs/reference/control-plane.md lists
 * them): what a client sends to prove who it is must not be readable by everyone who can read the
 * journal, nor kept at rest in a state store.
 */

export const REDACTED = '[REDACTED]'

/** Request headers that are credentials, besides any whose name SECRET_WORDS matches. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-mock-admin-token', 'x-api-key', 'api-key'])

/** A header or query parameter named with one of these words holds a secret: x-auth-token, access_token, client_secret, apikey. */
export const SECRET_WORDS = /token|secret|passw(?:or)?d|api[-_]?key|credential/i

/** Query parameters that are secrets by their whole name (as the request log masks them too). */
const SECRET_QUERY = new Set(['key', 'code', 'pin', 'pan', 'ssn', 'sig', 'signature'])

export function isSecretHeader (name: string): boolean {
  return SECRET_HEADERS.has(name) || SECRET_WORDS.test(name)
}

export function isSecretQueryName (name: string): boolean {
  return SECRET_QUERY.has(name.toLowerCase()) || SECRET_WORDS.test(name)
}

/** The URL with the values of secret query parameters replaced; one without a query is itself. */
export function redactUrlQuery (url: string): string {
  const at = url.indexOf('?')
  if (at === -1) return url
  const pairs = url.slice(at + 1).split('&').map(pair => {
    const equals = pair.indexOf('=')
    const rawName = equals === -1 ? pair : pair.slice(0, equals)
    return equals !== -1 && isSecretQueryName(decodedName(rawName)) ? `${rawName}=${REDACTED}` : pair
  })
  return `${url.slice(0, at)}?${pairs.join('&')}`
}

function decodedName (raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}
