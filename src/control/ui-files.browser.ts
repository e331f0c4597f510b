import { BUNDLED_UI_FILES } from './bundled-ui-files.js'

// ui-files.ts for the browser: no package folder; the dashboard's files ship in the bundle as data.

export const UI_DIR = 'memory:/baas-mock/src/ui'

export function readUiFiles (dir: string, names: readonly string[]): Map<string, string> | Error {
  const files = new Map<string, string>()
  for (const name of names) {
    const text = dir === UI_DIR ? BUNDLED_UI_FILES[name] : undefined
    if (text === undefined) return new Error(`The dashboard's files are missing from ${dir} (not bundled: ${name}).`)
    files.set(name, text)
  }
  return files
}
