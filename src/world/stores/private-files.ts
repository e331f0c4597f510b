import { randomUUID } from 'node:crypto'
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'

/**
 * The state folder and its files hold MFA codes, PIN-link tokens and webhook secrets: the folder is
 * 0700 and the files 0600, whatever the umask (mkdir and open take a mode the umask narrows, so the
 * mode is set again after).
 */
export const PRIVATE_FOLDER_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

const mode = (bits: number): string => `0${(bits & 0o777).toString(8)}`
/** Group and other bits taken away, the owner's left as they are: a folder made read-only (555) on purpose stays read-only. */
const closed = (bits: number): number => bits & 0o700
const ownedHere = (uid: number): boolean => process.getuid === undefined || uid === process.getuid()

/**
 * Makes `dir` private: created 0700, or an existing one tightened to 0700 when this user owns it and
 * it holds nothing but the store's files (`belongs`); a folder with other things in it (a project
 * folder, /tmp) is left as it is. Answers what to say once in the log, when there is something to say.
 */
export function privateFolder (dir: string, belongs: (name: string) => boolean): string | undefined {
  const found = statSync(dir, { throwIfNoEntry: false })
  if (found === undefined) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE })
    chmodSync(dir, PRIVATE_FOLDER_MODE)
    return undefined
  }
  if ((found.mode & 0o077) === 0) return undefined
  const owned = ownedHere(found.uid)
  if (owned && readdirSync(dir).every(belongs)) {
    chmodSync(dir, closed(found.mode))
    return `the state folder ${dir} was open to other users (${mode(found.mode)}): made ${mode(closed(found.mode))}, as it holds MFA codes, PIN-link tokens and webhook secrets`
  }
  return `the state folder ${dir} is open to other users (${mode(found.mode)}) and ${owned ? 'holds other files' : 'belongs to another user'}, so it is left as it is; the store's files are ${mode(PRIVATE_FILE_MODE)}: give a folder of its own to keep it private`
}

/**
 * Creates `path` 0600 if it is missing, and brings one of this user's to 0600 if it is there. A file
 * of another user's (a volume made by another uid, writable to this one) is left as it is: chmod
 * would fail, and whether it can be used is SQLite's to find out, with the access advice.
 */
export function privateFile (path: string): void {
  const found = statSync(path, { throwIfNoEntry: false })
  if (found === undefined) {
    closeSync(openSync(path, 'a', PRIVATE_FILE_MODE))
    chmodSync(path, PRIVATE_FILE_MODE)
  } else if ((found.mode & 0o077) !== 0 && ownedHere(found.uid)) {
    chmodSync(path, closed(found.mode))
  }
}

/** Brings this user's files among `paths` to 0600. */
export function tightenFiles (paths: readonly string[]): void {
  for (const path of paths) {
    const found = statSync(path, { throwIfNoEntry: false })
    if (found !== undefined && (found.mode & 0o077) !== 0 && ownedHere(found.uid)) chmodSync(path, closed(found.mode))
  }
}

/**
 * The text kept in `path` (0600), or `made` written there now when there is none. Written whole
 * beside it and linked into place (a link fails when the name exists), so a crash never leaves a
 * half-written file, and of two processes starting at once one writes and both read the same.
 */
export function keptPrivateText (path: string, made: string): string {
  const read = (): string | undefined => {
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined
    const text = readFileSync(path, 'utf8').trim()
    return text === '' ? undefined : text
  }
  const kept = read()
  if (kept !== undefined) return kept
  // A name of its own (containers on one volume are all pid 1), created new, never an existing file or link followed.
  const draft = `${path}.${randomUUID()}.new`
  writeFileSync(draft, `${made}\n`, { mode: PRIVATE_FILE_MODE, flush: true, flag: 'wx' })
  try {
    chmodSync(draft, PRIVATE_FILE_MODE)
    linkSync(draft, path)
    return made
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error
    // Made meanwhile by another process starting on the same folder; an empty one (by hand) keeps nothing.
    return read() ?? made
  } finally {
    unlinkSync(draft)
  }
}
