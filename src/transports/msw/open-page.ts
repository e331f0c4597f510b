// openMockPage in Node: there is no page to show one in. The browser build has its own
// (open-page.browser.ts), which bundle-browser's .browser.js rule puts in its place.

/** Where openMockPage shows the page; unset, an overlay over the whole app with a Close button. */
export interface OpenMockPageOptions {
  /**
   * An element of the app's document (`HTMLElement`): the page's frame is added to it. One not in
   * the document (or null) rejects at once: a frame outside the document never loads.
   */
  container?: unknown
}

/** A page shown by openMockPage. */
export interface MockPage {
  /** The `<iframe>` the page runs in, at its own URL. */
  frame: unknown
  /** Takes the frame (and the overlay, if openMockPage made one) out of the app's document. */
  close (): void
}

/**
 * Under MSW's setupWorker, shows a page the mock serves (the set-PIN link a createSetPinUrl answer
 * carries, or `/__mock/ui`) in a frame over the app, where its requests reach the worker: opening
 * the link itself is a navigation, which MSW's worker never answers.
 */
export async function openMockPage (url: string | URL, options?: OpenMockPageOptions): Promise<MockPage> {
  void options
  throw new Error(`openMockPage(${String(url)}) shows a page in a browser document; in Node, fetch the URL through MSW instead (it answers the page's HTML).`)
}
