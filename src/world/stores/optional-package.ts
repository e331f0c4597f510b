import { StoreOpenError } from './store.js'

/**
 * The package itself is not installed (not one it needs): ESM says "Cannot find package 'x'",
 * CommonJS (the CLI bundle require()s it) "Cannot find module 'x'". The text, not the code: a
 * loader hook (as in the tests) may drop the code.
 */
function isMissing (error: unknown, name: string): boolean {
  const message = error instanceof Error ? error.message : ''
  return message.startsWith(`Cannot find package '${name}'`) || message.startsWith(`Cannot find module '${name}'`)
}

/**
 * Loads a store's driver, an optional peer dependency (better-sqlite3, ioredis): a team that only
 * wants the in-memory mock or MSW installs nothing native. Without it, startup stops with one line
 * naming the package to add.
 */
export async function loadOptionalPackage<T> (name: string, flag: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (!isMissing(error, name)) throw error
    throw new StoreOpenError(`${flag} needs the ${name} package, which is not installed: add it with npm install ${name}`, { cause: error })
  }
}
