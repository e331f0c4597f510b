import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../config/package-root.js'

// The browser build swaps this file for ui-files.browser.ts, which has the files as data.

/** Plain files, not compiled: read from the package root whether the mock runs from src/ or dist/. */
export const UI_DIR = join(PACKAGE_ROOT, 'src', 'ui')

/** The dashboard's files as text, by name; a file that cannot be read is an Error naming it. */
export async function readUiFiles (dir: string, names: readonly string[]): Promise<Map<string, string> | Error> {
  const files = new Map<string, string>()
  for (const name of names) {
    try {
      files.set(name, await readFile(join(dir, name), 'utf8'))
    } catch (error) {
      return new Error(`The dashboard's files are missing from ${dir} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}: ${name}).`)
    }
  }
  return files
}
