import { SHARED_CONFLICT_RETRIES, type Session, type SessionStore } from '../world/sessions.js'
import { StoreConflictError } from '../world/stores/store.js'
import { isThenable, type Answer } from './exchange.js'

/**
 * The boundary between a request and the store of its session, for the API and the control plane
 * alike: open the session (loaded first when the store says this process may not hold it up to
 * date), run the request in it, and save what it changed before the answer goes out, so that an
 * acknowledged write is durable. Synchronous all the way when the store is memory: no promise and
 * no extra turn on the fast path. With a shared store, the requests of one session take turns in
 * this process, those queued meanwhile together on one load and one save (SessionStore.inTurn).
 * `run` must act only on its session: when the store reports that another process saved the
 * session meanwhile, it is run again on the session as loaded anew. A store that fails rejects
 * with StoreUnavailableError, which answers 503 store_unavailable.
 * Besides requests, a webhook delivery's progress goes through it too (delivery-ledger.ts).
 */
export function inSession<T = Answer> (
  sessions: SessionStore, sessionId: string, writes: boolean,
  run: (session: Session) => T | Promise<T>, opened?: (session: Session) => void
): T | Promise<T> {
  if (sessions.store.shared) {
    return sessions.inTurn<T>(sessionId, { writes, creates: true, touches: true, run: session => { opened?.(session); return run(session) } })
  }
  return begin()

  function begin (): T | Promise<T> {
    const session = sessions.open(sessionId)
    if (isThenable(session)) return session.then(loaded => finish(loaded, 0))
    return finish(session, 0)
  }

  function finish (session: Session, attempt: number): T | Promise<T> {
    opened?.(session)
    const answer = run(session)
    if (isThenable(answer)) return answer.then(done => saved(session, done, attempt))
    return saved(session, answer, attempt)
  }

  function saved (session: Session, answer: T, attempt: number): T | Promise<T> {
    const saving = sessions.commit(session, writes)
    if (saving === undefined) return answer
    return saving.then(() => answer, async (error: unknown) => {
      if (!(error instanceof StoreConflictError) || attempt >= SHARED_CONFLICT_RETRIES) throw error
      return await finish(await sessions.open(sessionId), attempt + 1)
    })
  }
}
