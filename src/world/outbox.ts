import type { Clock, IdSource, Outbox } from '../domain/context.js'
import type { OutboxMessage } from '../domain/model.js'
import { Listeners } from './listeners.js'
import { RingBuffer } from './ring-buffer.js'
import { nextRevision } from './revision.js'

export interface OutboxSnapshot {
  messages: OutboxMessage[]
  delivered: number
}

/** E-mails and SMS the mock "sent", newest last, bounded so a week-long demo cannot grow it forever. */
export class BoundedOutbox implements Outbox {
  private readonly messages: RingBuffer<OutboxMessage>
  private readonly listeners = new Listeners<OutboxMessage>()
  /** Messages delivered since the world began, cleared ones included: numbers them for paging. */
  private delivered = 0
  /** Bumped by every change, so a store writes the outbox only when it changed. */
  private changes = nextRevision()

  constructor (capacity: number, private readonly clock: Clock, private readonly ids: IdSource) {
    this.messages = new RingBuffer(capacity)
  }

  deliver (message: Omit<OutboxMessage, 'id' | 'sentAt'>): OutboxMessage {
    const sent: OutboxMessage = { id: this.ids.id('msg'), sentAt: this.clock.now().toISOString(), ...message }
    this.messages.push(sent)
    this.delivered++
    this.changes = nextRevision()
    this.listeners.notify(sent)
    return sent
  }

  /** Calls `listener` (which must not throw) with every message delivered from now on; returns the unsubscribe. */
  subscribe (listener: (message: OutboxMessage) => void): () => void {
    return this.listeners.subscribe(listener)
  }

  get listenerCount (): number {
    return this.listeners.count
  }

  list (): OutboxMessage[] {
    return this.messages.toArray()
  }

  /**
   * The messages held, oldest first, each with its number in the order of delivery (1 for the
   * world's first): a place in the list that stays when older messages are dropped or cleared.
   */
  numbered (): Array<{ seq: number; message: OutboxMessage }> {
    const held = this.messages.toArray()
    const first = this.delivered - held.length + 1
    return held.map((message, i) => ({ seq: first + i, message }))
  }

  clear (): void {
    this.messages.clear()
    this.changes = nextRevision()
  }

  get revision (): number {
    return this.changes
  }

  /** What a store keeps: the messages held, oldest first, and how many were ever delivered (paging cursors stay valid). */
  snapshot (): OutboxSnapshot {
    return { messages: this.messages.toArray(), delivered: this.delivered }
  }

  /** Puts back what a store kept; listeners are not told. */
  restore (snapshot: OutboxSnapshot): void {
    this.messages.clear()
    for (const message of snapshot.messages) this.messages.push(message)
    this.delivered = Math.max(snapshot.delivered, snapshot.messages.length)
    this.changes = nextRevision()
  }
}
