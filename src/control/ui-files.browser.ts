// ui-files.ts for the browser: no package folder; the dashboard's files ship in the build as data,
// in a chunk of their own loaded on the dashboard's first request (most pages never open it, and
// the files would add 52 kB to the app's own bundle).

export const UI_DIR = 'memory:/baas-mock/src/ui'

export async function readUiFiles (dir: string, names: readonly string[]): Promise<Map<string, string> | Error> {
  const bundled = dir === UI_DIR ? (await import('./bundled-ui-files.js')).BUNDLED_UI_FILES : {}
  const files = new Map<string, string>()
  for (const name of names) {
    const text = bundled[name]
    if (text === undefined) return new Error(`The dashboard's files are missing from ${dir} (not bundled: ${name}).`)
    files.set(name, text)
  }
  return files
}
