import type { MockPage, OpenMockPageOptions } from './open-page.js'

export type { MockPage, OpenMockPageOptions } from './open-page.js'

// MSW's worker passes every navigation (request mode `navigate`) to the network, and the mock lives
// in the app's tab anyway: a link opened in a tab, or as an iframe's src, reaches the dev server.
// What the worker does answer is a request from a document it controls. A srcdoc frame is one (it
// inherits the app's worker); document.open() keeps that, and gives the frame the app's URL, which
// history.replaceState then moves to the page's own (same origin): the page's relative URLs, its
// scripts' fetches and EventSource go to the mock through the worker, as if it had been navigated to.

/** The DOM this file uses: the package is compiled without the DOM library. */
interface Element {
  append (...nodes: Element[]): void
  remove (): void
  setAttribute (name: string, value: string): void
  addEventListener (type: string, listener: () => void, options?: { once?: boolean }): void
  style: { cssText: string }
  textContent: string | null
}
interface Frame extends Element {
  srcdoc: string
  contentDocument: { open (): void; write (html: string): void; close (): void } | null
  contentWindow: { history: { replaceState (data: null, unused: string, url: string): void } } | null
}
interface Document {
  createElement (tag: 'iframe'): Frame
  createElement (tag: string): Element
  body: Element
}

const OVERLAY = 'position:fixed;inset:0;z-index:2147483647;display:flex;flex-direction:column;background:Canvas;color:CanvasText'
const BAR = 'display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:0.5rem 1rem;font:14px system-ui,sans-serif;border-bottom:1px solid GrayText'
const FILL = 'flex:1;width:100%;border:0'

export async function openMockPage (url: string | URL, options: OpenMockPageOptions = {}): Promise<MockPage> {
  const { container } = options
  // A frame outside the document never loads: the wait for it would never end.
  if (container !== undefined && (container as { isConnected?: unknown } | null)?.isConnected !== true) {
    throw new Error(`openMockPage: the container ${container === null ? 'is null (did querySelector find nothing?)' : 'is not in the document'}, so the page's frame would never load; pass an element of the app's document once it is rendered, or no container for an overlay.`)
  }
  const { document, location } = globalThis as unknown as { document: Document; location: { href: string; origin: string } }
  const target = new URL(url, location.href)
  if (target.origin !== location.origin) {
    throw new Error(`openMockPage: ${target.href} is not on this page's origin (${location.origin}); the page runs at its own URL, which must be the app's: give createHandlers a baseUrl on location.origin.`)
  }
  const response = await fetch(target, { headers: { accept: 'text/html' } })
  const type = response.headers.get('content-type') ?? ''
  if (!type.startsWith('text/html')) {
    throw new Error(`openMockPage: ${target.href} answered ${response.status} ${type || 'with no content type'}, not a page: is MSW's worker started with createHandlers?`)
  }
  const html = await response.text()
  // After a redirect (/__mock/ui → /__mock/ui/), the page's relative URLs go from where it ended up.
  const at = response.url === '' ? target.href : response.url

  const frame = document.createElement('iframe')
  frame.setAttribute('title', 'baas-mock page')
  frame.srcdoc = ''
  frame.style.cssText = FILL
  let shown: Element = frame
  if (container === undefined) {
    shown = document.createElement('div')
    shown.setAttribute('role', 'dialog')
    shown.setAttribute('aria-label', 'baas-mock page')
    shown.style.cssText = OVERLAY
    const bar = document.createElement('div')
    bar.style.cssText = BAR
    const where = document.createElement('span')
    where.textContent = `baas-mock: ${new URL(at).pathname}`
    const close = document.createElement('button')
    close.setAttribute('type', 'button')
    close.textContent = 'Close'
    close.addEventListener('click', () => shown.remove())
    bar.append(where, close)
    shown.append(bar, frame)
  }
  const loaded = new Promise<void>(resolve => frame.addEventListener('load', resolve, { once: true }))
  ;(container as Element | undefined ?? document.body).append(shown)
  await loaded
  const doc = frame.contentDocument
  const win = frame.contentWindow
  if (doc === null || win === null) throw new Error('openMockPage: the frame has no document (was it removed?)')
  doc.open()
  win.history.replaceState(null, '', at)
  doc.write(html)
  doc.close()
  return { frame, close: () => shown.remove() }
}
