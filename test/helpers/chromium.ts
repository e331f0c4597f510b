import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'

// Debian's chromium driven by playwright-core, as every browser test opens it (`.ci/browser-deps` installs it in CI).

export const CHROMIUM = '/usr/bin/chromium'

/** A test's `skip`: the reason when chromium is not installed. */
export const skipWithoutChromium: false | string = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium (.ci/browser-deps does in CI)`

interface Teardown { teardown: (fn: () => unknown) => void }

export interface OpenedBrowser {
  browser: BrowserContext
  page: Page
  /** Page errors, and with `consoleErrors` the console's error lines, as they come. */
  problems: string[]
}

/** Headless chromium on a fresh profile, closed and removed at teardown; its first page with `timeoutMs` as the default wait. */
export async function openChromium (t: Teardown, options: { timeoutMs: number, consoleErrors?: boolean, viewport?: { width: number, height: number }, timezoneId?: string }): Promise<OpenedBrowser> {
  const { chromium } = await import('playwright-core')
  const profile = mkdtempSync(join(tmpdir(), 'baas-mock-chromium-'))
  t.teardown(() => rmSync(profile, { recursive: true, force: true }))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    ...(options.viewport === undefined ? {} : { viewport: options.viewport }),
    ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId })
  })
  t.teardown(() => browser.close())
  const page = browser.pages()[0] ?? await browser.newPage()
  page.setDefaultTimeout(options.timeoutMs)
  const problems: string[] = []
  page.on('pageerror', error => problems.push(`page error: ${error.message}`))
  if (options.consoleErrors === true) page.on('console', message => { if (message.type() === 'error') problems.push(`console: ${message.text()}`) })
  return { browser, page, problems }
}
