import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** Debian's redis-server, as the suite's Redis tests and `npm run bench` use it. */
export const REDIS_SERVER = '/usr/bin/redis-server'

/** One line a mock wrote (stdout or stderr), when it came, and its pino level (0 when not JSON). */
export interface LogLine { atMs: number; level: number; msg: string; text: string }

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Resolves once `child` writes `ready` (stdout or stderr); rejects if it exits first. */
async function waitFor (child: ChildProcess, ready: RegExp, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const onData = (data: Buffer): void => {
      output += data.toString()
      if (ready.test(output)) { child.off('exit', onExit); resolve() }
    }
    const onExit = (code: number | null): void => reject(new Error(`${what} exited with ${code}: ${output}`))
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', onExit)
  })
}

async function stopChild (child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise(resolve => child.once('exit', resolve))
  child.kill(signal)
  await exited
}

/**
 * A redis-server that keeps what it acknowledged across its own restart, as a demo's Redis with a
 * volume does: an append-only file written on every write, in a folder of its own.
 */
export class PersistentRedis {
  private child: ChildProcess | undefined
  constructor (readonly port: number, readonly dir: string) {}

  get url (): string { return `redis://127.0.0.1:${this.port}/0` }

  async start (): Promise<void> {
    const child = spawn(REDIS_SERVER, ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir,
      '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: ['ignore', 'pipe', 'pipe'] })
    await waitFor(child, /Ready to accept connections/, 'redis-server')
    child.stdout?.resume()
    child.stderr?.resume()
    this.child = child
  }

  /** SIGTERM, as `docker restart` or systemd stops it. */
  async stop (): Promise<void> {
    await stopChild(this.child, 'SIGTERM')
    this.child = undefined
  }

  get pid (): number | undefined { return this.child?.pid }
}

/** A built baas-mock CLI on a fixed loopback port (kept across its restarts), its log lines collected. */
export class MockProcess {
  readonly lines: LogLine[] = []
  child: ChildProcess | undefined
  startedMs = 0

  constructor (readonly name: string, readonly cli: string, readonly port: number, readonly args: string[], readonly env: Record<string, string>) {}

  get url (): string { return `http://127.0.0.1:${this.port}` }

  async start (): Promise<void> {
    this.startedMs = Date.now()
    const child = spawn(process.execPath, [this.cli, '--port', String(this.port), '--host', '127.0.0.1', '--seed', '1', ...this.args], {
      stdio: ['ignore', 'pipe', 'pipe'], env: this.env
    })
    this.child = child
    const collect = (data: Buffer): void => {
      for (const text of data.toString().split('\n')) {
        if (text.trim() === '') continue
        let level = 0
        let msg = text
        try {
          const parsed = JSON.parse(text) as { level?: number; msg?: string }
          level = parsed.level ?? 0
          msg = parsed.msg ?? text
        } catch { /* not JSON: a crash's stack, counted as a line all the same */ }
        this.lines.push({ atMs: Date.now(), level, msg, text })
      }
    }
    child.stdout?.on('data', collect)
    child.stderr?.on('data', collect)
    await waitFor(child, /listening at http/, this.name)
  }

  async stop (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await stopChild(this.child, signal)
  }

  /** Resident memory in MB, from /proc (Linux). */
  rssMb (): number {
    const status = readFileSync(`/proc/${this.child?.pid}/status`, 'utf8')
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 * 10) / 10
  }
}

/**
 * A small filesystem of its own at `dir` (tmpfs, `size`), so that a disk can be filled without
 * touching the machine's: only as root, where mount is allowed. The reason it cannot be, or undefined.
 */
export function mountSmallDisk (dir: string, size: string): string | undefined {
  mkdirSync(dir, { recursive: true })
  if (process.getuid?.() !== 0) return 'not root: no filesystem of its own can be mounted to fill'
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return `mount -t tmpfs failed (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`
  }
}

export function unmount (dir: string): void {
  try { execFileSync('umount', [dir], { stdio: 'ignore' }) } catch { /* not mounted */ }
}

/** Writes a file into `dir` until the filesystem says ENOSPC; its path, to free the space again. */
export function fillDisk (dir: string): string {
  const file = join(dir, 'filler')
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(64 * 1024, 1)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
  return file
}

export function freeDisk (file: string): void {
  unlinkSync(file)
}

/** Waits until `ask` holds (Redis's reconnection and a start are their own timers), at most `ms`. */
export async function until (ms: number, ask: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    try {
      if (await ask()) return true
    } catch { /* not yet */ }
    await sleep(50)
  }
  return false
}

export function removeDir (dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
