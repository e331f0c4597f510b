import t, { type Test } from 'tap'
import { openMockPage } from '../../src/transports/msw/open-page.browser.js'

// openMockPage's browser build, in a document made up here: a frame loads only once it is in the
// document, as in a browser. A container outside the document is refused at once instead of
// waiting forever for a load that never comes.

class FakeElement {
  readonly children: FakeElement[] = []
  readonly attributes: Record<string, string> = {}
  readonly listeners: Record<string, () => void> = {}
  readonly style = { cssText: '' }
  textContent: string | null = null
  isConnected = false
  parent: FakeElement | undefined

  constructor (readonly tag: string) {}

  append (...nodes: FakeElement[]): void {
    for (const node of nodes) {
      node.parent = this
      this.children.push(node)
      if (this.isConnected) node.connect()
    }
  }

  remove (): void {
    this.parent?.children.splice(this.parent.children.indexOf(this), 1)
    this.parent = undefined
    this.isConnected = false
  }

  setAttribute (name: string, value: string): void { this.attributes[name] = value }
  addEventListener (type: string, listener: () => void): void { this.listeners[type] = listener }

  connect (): void {
    this.isConnected = true
    for (const child of this.children) child.connect()
  }
}

class FakeFrame extends FakeElement {
  srcdoc = ''
  written = ''
  at = ''
  contentDocument: { open (): void; write (html: string): void; close (): void } | null = {
    open: () => { this.written = '' },
    write: html => { this.written += html },
    close: () => {}
  }

  contentWindow: { history: { replaceState (data: null, unused: string, url: string): void } } | null = {
    history: { replaceState: (_data, _unused, url) => { this.at = url } }
  }

  override connect (): void {
    super.connect()
    setImmediate(() => this.listeners.load?.())
  }
}

const PAGE = '<!doctype html><h1>Set your card PIN</h1>'

/** A document at https://app.example/cards whose fetch answers `answer`; `fetched` counts the calls. */
function fakeBrowser (t: Test, answer: () => Response = () => new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } })): { body: FakeElement; frames: FakeFrame[]; fetched: () => number } {
  const body = new FakeElement('body')
  body.isConnected = true
  const frames: FakeFrame[] = []
  let fetched = 0
  const globals = globalThis as Record<string, unknown>
  const before = { document: globals.document, location: globals.location, fetch: globals.fetch }
  globals.document = {
    body,
    createElement: (tag: string) => {
      if (tag !== 'iframe') return new FakeElement(tag)
      const frame = new FakeFrame(tag)
      frames.push(frame)
      return frame
    }
  }
  globals.location = { href: 'https://app.example/cards', origin: 'https://app.example' }
  globals.fetch = async () => {
    fetched++
    return answer()
  }
  t.teardown(() => { Object.assign(globals, before) })
  return { body, frames, fetched: () => fetched }
}

t.test('a container not in the document is refused at once, before anything is fetched', async t => {
  const browser = fakeBrowser(t)
  const detached = new FakeElement('div')
  await t.rejects(openMockPage('/__mock/ui', { container: detached }), /openMockPage: the container is not in the document, so the page's frame would never load/)
  await t.rejects(openMockPage('/__mock/ui', { container: null }), /the container is null \(did querySelector find nothing\?\)/)
  t.equal(browser.fetched(), 0, 'nothing fetched')
  t.equal(detached.children.length, 0, 'nothing added to it')
})

t.test('a container in the document gets the page, at its own URL', async t => {
  const browser = fakeBrowser(t)
  const box = new FakeElement('div')
  browser.body.append(box)
  const page = await openMockPage('/__mock/ui?session=default', { container: box })
  const frame = browser.frames[0] as FakeFrame
  t.equal(page.frame, frame)
  t.same(box.children, [frame], 'the frame is in the container, no overlay')
  t.equal(frame.written, PAGE, 'the page is written into the frame')
  t.equal(frame.at, 'https://app.example/__mock/ui?session=default', 'at its own URL')
  page.close()
  t.same(box.children, [], 'close takes it out')
})

t.test('without a container, an overlay with a Close button; after a redirect the page is where it ended up', async t => {
  const browser = fakeBrowser(t, () => {
    const response = new Response(PAGE, { headers: { 'content-type': 'text/html' } })
    Object.defineProperty(response, 'url', { value: 'https://app.example/__mock/ui/' })
    return response
  })
  await openMockPage('/__mock/ui')
  const overlay = browser.body.children[0] as FakeElement
  t.equal(overlay.attributes.role, 'dialog')
  const [bar, frame] = overlay.children as [FakeElement, FakeFrame]
  t.equal(bar.children[0]?.textContent, 'baas-mock: /__mock/ui/')
  t.equal(frame.at, 'https://app.example/__mock/ui/')
  bar.children[1]?.listeners.click?.()
  t.same(browser.body.children, [], 'Close takes the overlay out')
})

t.test('what is not a page of this origin is refused with the reason', async t => {
  const answers = [new Response(null, { status: 404 }), new Response('{}', { headers: { 'content-type': 'application/json' } })]
  fakeBrowser(t, () => answers.shift() as Response)
  await t.rejects(openMockPage('https://bank.example/__mock/ui'), /is not on this page's origin \(https:\/\/app.example\)/)
  await t.rejects(openMockPage('/__mock/ui'), /answered 404 with no content type, not a page: is MSW's worker started/)
  await t.rejects(openMockPage('/__mock/ui'), /answered 200 application\/json, not a page/)
})

t.test('a frame left without a document says so', async t => {
  const browser = fakeBrowser(t)
  const opening = openMockPage('/__mock/ui')
  await new Promise(resolve => setImmediate(resolve))
  const frame = browser.frames[0] as FakeFrame
  frame.contentDocument = null
  await t.rejects(opening, /the frame has no document/)
})
