import { accessSync, constants, readFileSync, statSync, type Stats } from 'node:fs'

/** What is known of a state folder that cannot be written: who owns it and how it is mounted. */
export interface AccessFacts {
  dir: string
  /** The folder, and the store's file in it (absent when there is none yet). */
  dirStat: Pick<Stats, 'uid' | 'mode'> | undefined
  fileStat: Pick<Stats, 'uid' | 'mode'> | undefined
  file: string
  /** The uid this process runs as (undefined where there are none, Windows). */
  uid: number | undefined
  /** Whether the folder is on a read-only mount. */
  readOnlyMount: boolean
}

const octal = (mode: number): string => (mode & 0o777).toString(8)

/**
 * What to change so that the store can be written, in the order a user checks it: the mount, the
 * folder's owner and mode, the file's. Never a reset: the data may be healthy, and starting afresh
 * would only hide it.
 */
export function accessAdvice (facts: AccessFacts): string {
  const { dir, dirStat, fileStat, file, uid } = facts
  if (facts.readOnlyMount) return `${dir} is on a read-only mount: mount it read-write (drop :ro or readOnly from the volume); the data in it is left as it is`
  const runAs = uid === undefined ? 'this user' : `uid ${uid}`
  const problems: string[] = []
  if (dirStat !== undefined && uid !== undefined && uid !== 0) {
    if (dirStat.uid !== uid) problems.push(`the folder is owned by uid ${dirStat.uid} (mode ${octal(dirStat.mode)}) and this process runs as ${runAs}: chown -R ${uid} ${dir}, or run as uid ${dirStat.uid}`)
    else if ((dirStat.mode & 0o300) !== 0o300) problems.push(`the folder's mode is ${octal(dirStat.mode)}: chmod u+rwx ${dir}`)
  }
  if (fileStat !== undefined && uid !== undefined && uid !== 0) {
    if (fileStat.uid !== uid) problems.push(`${file} is owned by uid ${fileStat.uid} and this process runs as ${runAs}: chown ${uid} ${file}*`)
    else if ((fileStat.mode & 0o600) !== 0o600) problems.push(`${file}'s mode is ${octal(fileStat.mode)}: chmod u+rw ${file}*`)
  }
  if (problems.length > 0) return problems.join('; ')
  return `check the owner, mode and mount of ${dir} (the image runs as uid 1000); the data in it is left as it is`
}

/** The facts of `dir` and `file` on this machine, for accessAdvice. */
export function accessFacts (dir: string, file: string): AccessFacts {
  const stat = (path: string): Stats | undefined => {
    try {
      return statSync(path, { throwIfNoEntry: false })
    } catch {
      return undefined
    }
  }
  return { dir, file, dirStat: stat(dir), fileStat: stat(file), uid: process.getuid?.(), readOnlyMount: onReadOnlyMount(dir) }
}

/** EROFS for a write check, or the mount holding `dir` flagged `ro` in /proc/self/mountinfo (Linux). */
function onReadOnlyMount (dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EROFS') return true
  }
  let mounts: string
  try {
    mounts = readFileSync('/proc/self/mountinfo', 'utf8')
  } catch {
    return false
  }
  return mountIsReadOnly(mounts, dir)
}

/** Whether the mount that holds `dir` (the longest mount point above it) is mounted `ro`, from mountinfo's text. */
export function mountIsReadOnly (mountinfo: string, dir: string): boolean {
  let best: { point: string; readOnly: boolean } | undefined
  for (const line of mountinfo.split('\n')) {
    const fields = line.split(' ')
    const point = fields[4]?.replace(/\\040/g, ' ')
    const options = fields[5]
    if (point === undefined || options === undefined) continue
    const holds = point === '/' || dir === point || dir.startsWith(`${point}/`)
    if (holds && (best === undefined || point.length > best.point.length)) best = { point, readOnly: options.split(',').includes('ro') }
  }
  return best?.readOnly ?? false
}
