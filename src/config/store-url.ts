import { ConfigError } from './config-error.js'

/** What --store (MOCK_STORE, store) accepts, in words for its error. */
export const STORE_URL_RULE = 'must be a Redis URL: redis://host:port/db or rediss://host:port/db (TLS), a password as redis://:password@host:port/db'

/**
 * The URL as logs and messages show it: its password taken out, the rest (user, host, port,
 * database) kept so that a person can tell which Redis it is. Text that is no URL shows as `(not a URL)`,
 * so that a typo around a password never prints the password either.
 */
export function redactedStoreUrl (text: string): string {
  if (!URL.canParse(text)) return '(not a URL)'
  const url = new URL(text)
  const user = url.username === '' ? '' : `${url.username}@`
  return `${url.protocol}//${user}${url.host}${url.pathname === '/' ? '' : url.pathname}`
}

/** Checks a --store value; throws a ConfigError naming the setting, with the value's password taken out. */
export function checkedStoreUrl (text: string): string {
  const trimmed = text.trim()
  const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined
  const fine = url !== undefined && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' &&
    /^\/?(\d{1,2})?$/.test(url.pathname) && url.search === '' && url.hash === ''
  if (!fine) throw new ConfigError(`--store (MOCK_STORE, store): ${STORE_URL_RULE}, got ${redactedStoreUrl(trimmed)}.`)
  return trimmed
}
