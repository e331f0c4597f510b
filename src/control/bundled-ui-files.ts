/**
 * The dashboard's files (src/ui) as data (name → text), for the browser build only. Empty here:
 * scripts/bundle-browser.ts fills it in from src/ui/ when it bundles.
 */
export const BUNDLED_UI_FILES: Readonly<Record<string, string>> = {}
