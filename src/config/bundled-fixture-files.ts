/**
 * The bundled fixtures/ folder as data (relative path → text), for the browser build only. Empty
 * here: scripts/bundle-browser.ts fills it in from fixtures/ when it bundles.
 */
export const BUNDLED_FIXTURE_FILES: Readonly<Record<string, string>> = {}
