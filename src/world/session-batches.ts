import type { Session } from './session.js'
import { StoreConflictError } from './stores/store.js'

/** One piece of work on a session of a shared store: a request, a journal entry, a pin. */
export interface SessionWork<T, S = Session> {
  /** It changes the world (a write): the save writes the world whole. */
  writes: boolean
  /**
   * It may create the session (a request does); false: it acts on a stored session only, and never
   * saves a new one. Asked once the batch ran, when a function.
   */
  creates: boolean | ((session: S) => boolean)
  /** It is a use of the session (a request, not a listing): last seen now, idle expiry starting again. */
  touches: boolean
  /** Acts only on the session it is given: when the save meets another replica's, it runs again on the session as saved. */
  run: (session: S) => T | Promise<T>
  /** Once its change is saved (journal entries are announced only then, so a rerun announces them once). */
  saved?: ((session: S) => void) | undefined
}

/** What the batches need of the session store. */
export interface BatchStore<S = Session> {
  /** The session as stored now; `claim`: a save of this batch lost to another replica's, so this one goes first next. */
  load: (id: string, touches: boolean, claim: boolean) => Promise<S>
  /** Saves what the batch changed; undefined when there is nothing to save. `claimed`: its load claimed the save. */
  save: (session: S, writes: boolean, creates: boolean, claimed: boolean) => Promise<void> | undefined
}

interface Job<S> {
  work: SessionWork<unknown, S>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** Jobs run in one batch at most: a conflict runs the whole batch again, so it stays short. */
const MAX_BATCH = 128

/**
 * The work on each session of a shared store, in this process, in turns: the work queued for a
 * session while its previous turn loaded or saved runs together in the next turn, on one load,
 * then one save for all of it, answered once saved. So a busy session costs two round trips to the
 * store per batch rather than per request, and two requests of one process never change one
 * session each as if the other were not there. When another replica saved the session meanwhile,
 * the whole batch runs again on the session as saved (each work acts only on its session), at
 * most `retries` times.
 */
export class SessionBatches<S = Session> {
  private readonly queues = new Map<string, Array<Job<S>>>()

  constructor (private readonly store: BatchStore<S>, private readonly retries: number) {}

  run<T> (id: string, work: SessionWork<T, S>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job<S> = { work, resolve: resolve as (value: unknown) => void, reject }
      const queue = this.queues.get(id)
      if (queue !== undefined) {
        queue.push(job)
        return
      }
      this.queues.set(id, [job])
      void this.drain(id)
    })
  }

  /** Runs the session's batches until its queue is empty. */
  private async drain (id: string): Promise<void> {
    const queue = this.queues.get(id) as Array<Job<S>>
    while (queue.length > 0) await this.runBatch(id, queue.splice(0, MAX_BATCH))
    this.queues.delete(id)
  }

  private async runBatch (id: string, jobs: Array<Job<S>>): Promise<void> {
    const touches = jobs.some(job => job.work.touches)
    const writes = jobs.some(job => job.work.writes)
    for (let attempt = 0; ; attempt++) {
      let session: S
      let outcomes: Array<{ value?: unknown; error?: unknown; failed: boolean }>
      try {
        session = await this.store.load(id, touches, attempt > 0)
        outcomes = []
        for (const job of jobs) {
          try {
            outcomes.push({ value: await job.work.run(session), failed: false })
          } catch (error) {
            outcomes.push({ error, failed: true })
          }
        }
        const creates = jobs.some(job => typeof job.work.creates === 'function' ? job.work.creates(session) : job.work.creates)
        await this.store.save(session, writes, creates, attempt > 0)
      } catch (error) {
        if (error instanceof StoreConflictError && attempt < this.retries) continue
        for (const job of jobs) job.reject(error)
        return
      }
      jobs.forEach((job, i) => {
        const outcome = outcomes[i] as { value?: unknown; error?: unknown; failed: boolean }
        if (outcome.failed) {
          job.reject(outcome.error)
          return
        }
        job.work.saved?.(session)
        job.resolve(outcome.value)
      })
      return
    }
  }
}
