const PATH_PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/

/** A header's first value (a proxy chain lists several, comma-separated), or undefined when empty. */
export function firstHeader (value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value
  return v === undefined || v === '' ? undefined : v.split(',')[0]?.trim()
}

/**
 * X-Forwarded-Prefix as the path before the mock's own in the links it hands out (the PIN page),
 * without a trailing slash; '' when absent or not a plain path, so a junk header never breaks them.
 */
export function forwardedPrefix (value: string | string[] | undefined): string {
  const prefix = (firstHeader(value) ?? '').replace(/\/+$/, '')
  return PATH_PREFIX.test(prefix) ? prefix : ''
}
