const encoder = new TextEncoder()

/**
 * A text stream written as things happen and read as a Fetch API ReadableStream, which both a
 * Fastify reply and a Response body take, in Node and in a browser. It keeps what the reader has
 * not taken yet itself, so the writer sees how far behind a reader is (`writableLength`), and it
 * knows when the reader went away or read to the end (`onClose`).
 */
export class EventStream {
  readonly readable: ReadableStream<Uint8Array>
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined
  private chunks: string[] = []
  private queuedBytes = 0
  /** Wakes a read that found nothing to take. */
  private wake: (() => void) | undefined
  private ended = false
  private isClosed = false
  private readonly closeListeners: (() => void)[] = []

  constructor () {
    // highWaterMark 0: nothing moves into the stream's own queue before the reader asks for it.
    this.readable = new ReadableStream<Uint8Array>({
      start: controller => { this.controller = controller },
      pull: controller => this.deliver(controller),
      cancel: () => this.closed()
    }, { highWaterMark: 0 })
  }

  /** Closed: ended and read to the end, cut, or given up by its reader. */
  get destroyed (): boolean {
    return this.isClosed
  }

  /** `end()` was called: nothing more may be written. */
  get writableEnded (): boolean {
    return this.ended
  }

  /** Bytes written that the reader has not taken yet. */
  get writableLength (): number {
    return this.queuedBytes
  }

  write (text: string): void {
    if (this.ended || this.isClosed) return
    this.chunks.push(text)
    this.queuedBytes += text.length
    this.wakeReader()
  }

  /** No more writes: the reader gets what is left, then the end. */
  end (): void {
    if (this.ended || this.isClosed) return
    this.ended = true
    this.wakeReader()
  }

  /** Cuts the stream now: what the reader has not taken is dropped, and its next read fails. */
  destroy (): void {
    if (this.isClosed) return
    this.chunks = []
    this.queuedBytes = 0
    this.controller?.error(new Error('The event stream was closed by the mock.'))
    this.closed()
    this.wakeReader()
  }

  /** Called once, when the stream closes for any reason. */
  onClose (listener: () => void): void {
    if (this.isClosed) listener()
    else this.closeListeners.push(listener)
  }

  private async deliver (controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.chunks.length === 0 && !this.ended && !this.isClosed) await new Promise<void>(resolve => { this.wake = resolve })
    if (this.isClosed) return
    if (this.chunks.length > 0) {
      // Everything written so far in one piece: one socket write, not one per event.
      const text = this.chunks.join('')
      this.chunks = []
      this.queuedBytes = 0
      controller.enqueue(encoder.encode(text))
    }
    if (this.ended) {
      controller.close()
      this.closed()
    }
  }

  private wakeReader (): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  private closed (): void {
    if (this.isClosed) return
    this.isClosed = true
    // A read waiting for the next write (the reader cancelled meanwhile) ends too, instead of waiting for good.
    this.wakeReader()
    for (const listener of this.closeListeners.splice(0)) listener()
  }
}
