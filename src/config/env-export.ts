import type { ResolvedRoute } from './route-config.js'

export type EnvFormat = 'dotenv' | 'json'

export interface EnvOptions {
  /** Prepended to every name: `VITE_`, `NEXT_PUBLIC_`, `REACT_APP_`… */
  prefix?: string | undefined
  format?: EnvFormat | undefined
  /**
   * Write `$CARD_ID` as `\$CARD_ID`. Vite, Next.js and Create React App run dotenv-expand on
   * `.env` files, which would replace an unescaped `$CARD_ID` with an empty string; escaped, they
   * read it back as `$CARD_ID`. Defaults to true for their prefixes, false otherwise.
   */
  escapeDollar?: boolean | undefined
}

/** Prefixes of frameworks whose `.env` loader expands `$NAME` (dotenv-expand). */
export const EXPANDING_PREFIXES = ['VITE_', 'NEXT_PUBLIC_', 'REACT_APP_'] as const

/** Configuration name → URL of the route in effect, each shared name once, in table order. */
export function envEntries (routes: readonly ResolvedRoute[], baseUrl: string, prefix = ''): [string, string][] {
  const base = baseUrl.replace(/\/+$/, '')
  const seen = new Set<string>()
  const entries: [string, string][] = []
  for (const route of routes) {
    const name = route.operation.configName
    if (seen.has(name)) continue
    seen.add(name)
    // A moved method travels with the value, in the form the mock itself reads back.
    const method = route.method === route.operation.method ? '' : `${route.method} `
    entries.push([`${prefix}${name}`, `${method}${base}${route.envPath}`])
  }
  return entries
}

/**
 * The configuration names as a `.env` (or JSON) pointing at this mock, for a frontend to load.
 * Path parameters stay placeholders exactly as the configuration names write them (`$CARD_ID`).
 */
export function renderEnv (routes: readonly ResolvedRoute[], baseUrl: string, options: EnvOptions = {}): string {
  const prefix = options.prefix ?? ''
  const entries = envEntries(routes, baseUrl, prefix)
  if (options.format === 'json') return JSON.stringify(Object.fromEntries(entries), null, 2) + '\n'
  const escape = options.escapeDollar ?? EXPANDING_PREFIXES.some(p => p === prefix)
  const lines = [`# baas-mock routes at ${baseUrl.replace(/\/+$/, '')}`]
  for (const [name, value] of entries) {
    const text = escape ? value.replaceAll('$', '\\$') : value
    lines.push(`${name}=${/\s/.test(text) ? `"${text}"` : text}`)
  }
  return lines.join('\n') + '\n'
}
