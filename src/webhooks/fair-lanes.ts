import { Queue } from '../world/queue.js'

/** One session's deliveries in the dispatcher. */
interface Lane<T> {
  readonly session: string
  /** Deliveries held: waiting for their time, for a socket, or being sent. */
  held: number
  /** Due now, waiting for a socket, oldest first (some may have been cancelled since). */
  readonly ready: Queue<T>
  inFlight: number
  /** In the rotation now. */
  rotating: boolean
}

/**
 * The dispatcher's sessions, each in a lane of its own, so one cannot starve the others: the
 * sockets go round-robin between the sessions with a delivery due, and one session has at most
 * `perSessionInFlight` of them, whatever it has waiting.
 */
export class FairLanes<T> {
  private readonly lanes = new Map<string, Lane<T>>()
  /** The lanes with something due and a socket of their share free, in turn. */
  private readonly rotation = new Queue<Lane<T>>()

  constructor (private readonly perSessionInFlight: number) {}

  /** Deliveries `session` holds: waiting or being sent. */
  held (session: string): number {
    return this.lanes.get(session)?.held ?? 0
  }

  hold (session: string): void {
    this.laneOf(session).held++
  }

  release (session: string): void {
    const lane = this.lanes.get(session)
    if (lane === undefined) return
    lane.held--
    this.forget(lane)
  }

  /** `item` is due: it waits its session's turn. */
  due (session: string, item: T): void {
    const lane = this.laneOf(session)
    lane.ready.push(item)
    this.rotate(lane)
  }

  /** The next item to send (its session's socket counted as taken), in turn; skips those `live` says were cancelled. */
  next (live: (item: T) => boolean): T | undefined {
    for (let lane = this.rotation.shift(); lane !== undefined; lane = this.rotation.shift()) {
      lane.rotating = false
      while (lane.ready.size > 0 && !live(lane.ready.peek() as T)) lane.ready.shift()
      const item = lane.inFlight < this.perSessionInFlight ? lane.ready.shift() : undefined
      if (item === undefined) {
        this.forget(lane)
        continue
      }
      lane.inFlight++
      this.rotate(lane)
      return item
    }
    return undefined
  }

  /** An attempt of `session`'s is over: its socket is free. */
  finished (session: string): void {
    const lane = this.lanes.get(session)
    if (lane === undefined) return
    lane.inFlight--
    this.rotate(lane)
    this.forget(lane)
  }

  clear (): void {
    this.lanes.clear()
    this.rotation.clear()
  }

  private laneOf (session: string): Lane<T> {
    let lane = this.lanes.get(session)
    if (lane === undefined) {
      lane = { session, held: 0, ready: new Queue<T>(), inFlight: 0, rotating: false }
      this.lanes.set(session, lane)
    }
    return lane
  }

  private rotate (lane: Lane<T>): void {
    if (lane.rotating || lane.ready.size === 0 || lane.inFlight >= this.perSessionInFlight) return
    lane.rotating = true
    this.rotation.push(lane)
  }

  private forget (lane: Lane<T>): void {
    if (lane.held > 0 || lane.inFlight > 0 || lane.rotating || lane.ready.size > 0) return
    this.lanes.delete(lane.session)
  }
}
