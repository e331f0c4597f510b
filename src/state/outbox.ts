import type { Clock, IdSource, Outbox } from '../domain/context.js'
import type { OutboxMessage } from '../domain/model.js'
import { RingBuffer } from './ring-buffer.js'

/** E-mails and SMS the mock "sent", newest last, bounded so a week-long demo cannot grow it forever. */
export class BoundedOutbox implements Outbox {
  private readonly messages: RingBuffer<OutboxMessage>
  // Live listeners (the dashboard's event stream); usually none, so delivering costs one check.
  private listeners: ((message: OutboxMessage) => void)[] | undefined

  constructor (capacity: number, private readonly clock: Clock, private readonly ids: IdSource) {
    this.messages = new RingBuffer(capacity)
  }

  deliver (message: Omit<OutboxMessage, 'id' | 'sentAt'>): OutboxMessage {
    const sent: OutboxMessage = { id: this.ids.id('msg'), sentAt: this.clock.now().toISOString(), ...message }
    this.messages.push(sent)
    if (this.listeners !== undefined) for (const listener of this.listeners) listener(sent)
    return sent
  }

  /** Calls `listener` (which must not throw) with every message delivered from now on; returns the unsubscribe. */
  subscribe (listener: (message: OutboxMessage) => void): () => void {
    this.listeners = [...(this.listeners ?? []), listener]
    return () => {
      const rest = (this.listeners ?? []).filter(l => l !== listener)
      this.listeners = rest.length === 0 ? undefined : rest
    }
  }

  get listenerCount (): number {
    return this.listeners?.length ?? 0
  }

  list (): OutboxMessage[] {
    return this.messages.toArray()
  }

  clear (): void {
    this.messages.clear()
  }
}
