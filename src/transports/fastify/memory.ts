import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | null | undefined

/**
 * A full garbage collection now, when the runtime allows one (false otherwise). Node hides `gc`
 * unless started with --expose-gc; the flag is turned on just long enough to take `gc` from a
 * fresh context, so nothing else sees it.
 */
export function collectGarbage (): boolean {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc')
      const found: unknown = runInNewContext('typeof gc === "function" ? gc : null')
      collect = typeof found === 'function' ? found as () => void : null
      setFlagsFromString('--no-expose-gc')
    } catch {
      collect = null
    }
  }
  if (collect === null) return false
  collect()
  return true
}

/**
 * After the idle sweep dropped a large share of the sessions (a burst of CI jobs went quiet), the
 * memory they held is given back now. V8 would otherwise keep the heap it grew for them until the
 * next burst, and a container shows the mock at its peak all night. A trickle of expiries under
 * steady traffic is left to V8's own collections.
 */
export function releaseAfterSweep (dropped: number, before: number): boolean {
  return dropped > 0 && dropped * 4 >= before && collectGarbage()
}
