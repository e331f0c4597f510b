import { MAX_DELIVERY_ATTEMPTS } from '../world/deliveries.js'

/**
 * The delays of a delivery's attempts: before the first (0: at once), then after each failed one.
 * Written as a comma-separated list of durations, `0,5s,5m,30m,2h,5h,10h` (Standard Webhooks'
 * own suggestion, as Svix retries); `ms`, `s`, `m` and `h`, a bare number being milliseconds.
 */
export const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h'

/** Attempts one delivery may make (retries by hand included), and the longest wait between two. */
export const RETRY_SCHEDULE_LIMITS = { attempts: MAX_DELIVERY_ATTEMPTS, maxDelayMs: 24 * 60 * 60 * 1000 } as const

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** What the setting accepts: one to twenty durations, comma-separated. */
export const RETRY_SCHEDULE_PATTERN = /^\s*\d{1,9}(?:ms|s|m|h)?(?:\s*,\s*\d{1,9}(?:ms|s|m|h)?){0,19}\s*$/

/** The delays in milliseconds; throws a RangeError naming the entry that is wrong. */
export function parseRetrySchedule (text: string): number[] {
  const delays = text.split(',').map(part => {
    const match = /^\s*(\d{1,9})(ms|s|m|h)?\s*$/.exec(part)
    if (match === null) throw new RangeError(`"${part.trim()}" is not a duration such as 0, 500ms, 5s, 5m or 2h`)
    const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1)
    if (ms > RETRY_SCHEDULE_LIMITS.maxDelayMs) throw new RangeError(`"${part.trim()}" is longer than 24h`)
    return ms
  })
  if (delays.length > RETRY_SCHEDULE_LIMITS.attempts) throw new RangeError(`has ${delays.length} attempts; at most ${RETRY_SCHEDULE_LIMITS.attempts}`)
  return delays
}

/** The delays as the setting writes them: whole hours, minutes or seconds where they are. */
export function formatRetrySchedule (delays: readonly number[]): string {
  return delays.map(ms => {
    if (ms === 0) return '0'
    for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) if (ms % size === 0) return `${ms / size}${unit}`
    return `${ms}ms`
  }).join(',')
}
