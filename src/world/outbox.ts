import type { Clock, IdSource, Outbox } from '../domain/context.js'
import type { OutboxMessage } from '../domain/model.js'
import { Listeners } from './listeners.js'
import { RingBuffer } from './ring-buffer.js'
import { nextRevision } from './revision.js'

/** E-mails and SMS the mock "sent", newest last, bounded so a week-long demo cannot grow it forever. */
export class BoundedOutbox implements Outbox {
  private readonly messages: RingBuffer<OutboxMessage>
  private readonly listeners = new Listeners<OutboxMessage>()
  /** Bumped by every change, so a store writes the outbox only when it changed. */
  private changes = nextRevision()

  constructor (capacity: number, private readonly clock: Clock, private readonly ids: IdSource) {
    this.messages = new RingBuffer(capacity)
  }

  deliver (message: Omit<OutboxMessage, 'id' | 'sentAt'>): OutboxMessage {
    const sent: OutboxMessage = { id: this.ids.id('msg'), sentAt: this.clock.now().toISOString(), ...message }
    this.messages.push(sent)
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

  clear (): void {
    this.messages.clear()
    this.changes = nextRevision()
  }

  get revision (): number {
    return this.changes
  }

  /** Puts back what a store kept (the list, oldest first); listeners are not told. */
  restore (messages: readonly OutboxMessage[]): void {
    this.messages.clear()
    for (const message of messages) this.messages.push(message)
    this.changes = nextRevision()
  }
}
