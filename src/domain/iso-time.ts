let lastMs = Number.NaN
let lastIso = ''

/**
 * Date#toISOString of an epoch-ms instant, remembered for the last instant asked. One request
 * formats the same "now" several times (settling the world, updatedAt, lockedAt), and
 * toISOString costs about a microsecond each time. An invalid instant throws, as toISOString does.
 */
export function isoAt (ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString()
    lastMs = ms
  }
  return lastIso
}
