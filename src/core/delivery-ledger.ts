import type { SessionStore } from '../world/sessions.js'
import type { DeliveryLedger } from '../world/webhooks.js'

/** `change` had nothing to do: the session is not saved (nor made, when the store has none). */
class Unchanged extends Error {}

/**
 * The ledger of replicas sharing a store (see DeliveryLedger): a delivery's claim and each
 * attempt's outcome go through the session boundary a request takes (load, apply, save with its
 * version, again on a conflict), in turn with this process's requests of the session (SessionStore.inTurn).
 * `sessions` is asked for late: the ledger is made before the session store that holds it.
 */
export function deliveryLedger (
  sessions: () => SessionStore, replica: string, timeoutMs: number, onStoreError?: ((error: unknown, what: string) => void) | undefined
): DeliveryLedger {
  return {
    replica,
    // The attempt's own time-out and as much again: an attempt due, then waiting for a socket, is still its replica's.
    claimMs: 2 * timeoutMs,
    update: async (sessionId, change) => {
      try {
        // Only with a shared store: in the session's turn, never making a session deleted meanwhile, nor counting as its use.
        return await sessions().inTurn(sessionId, {
          writes: false,
          creates: false,
          touches: false,
          run: session => {
            const result = change(session.webhooks)
            if (result === undefined) throw new Unchanged()
            return result
          }
        })
      } catch (error) {
        if (!(error instanceof Unchanged)) onStoreError?.(error, `recording a webhook delivery of session ${sessionId}`)
        return undefined
      }
    }
  }
}
