import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Debian's redis-server; CI installs it (.ci/run). */
export const REDIS_SERVER = '/usr/bin/redis-server'

/** Why the Redis tests cannot run here, or false when they can. */
export const redisMissing: string | false = existsSync(REDIS_SERVER)
  ? false
  : `${REDIS_SERVER} is not installed (apt-get install redis-server; .ci/run installs it when it runs as root)`

/** Why a Redis over TLS cannot be made here (no openssl to make its certificate), or false when it can. */
export const tlsMissing: string | false = redisMissing !== false
  ? redisMissing
  : (() => {
      try {
        execFileSync('openssl', ['version'], { stdio: 'ignore' })
        return false
      } catch {
        return 'openssl is not installed, so no certificate for a Redis over TLS can be made'
      }
    })()

export interface RedisServer {
  readonly port: number
  /** redis://127.0.0.1:<port>/0 (rediss:// with TLS), with the password when there is one. */
  readonly url: string
  /** With TLS: the certificate authority that signed the server's certificate (NODE_EXTRA_CA_CERTS). */
  readonly caFile: string | undefined
  /** Stops it (SIGTERM) and waits for the process to end. Nothing is kept: it saves nothing to disk. */
  stop: () => Promise<void>
  /** Starts it again on the same port (empty), resolving once it accepts connections. */
  start: () => Promise<void>
}

interface Teardown { teardown: (fn: () => unknown) => void }

/**
 * A redis-server of its own for a test: a free loopback port, a temporary folder, no snapshot
 * and no append-only file; stopped, and its folder removed, in teardown.
 */
export async function startRedis (t: Teardown, options: { password?: string; tls?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'baas-redis-'))
  let child: ChildProcess | undefined
  const listen = options.tls === true ? ['--port', '0', '--tls-port', String(port), ...certificates(dir)] : ['--port', String(port)]
  const args = [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    ...(options.password === undefined ? [] : ['--requirepass', options.password])]
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`
  const server: RedisServer = {
    port,
    url: `${options.tls === true ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}/0`,
    caFile: options.tls === true ? join(dir, 'ca.pem') : undefined,
    start: async () => {
      child = await launch(args)
    },
    stop: async () => {
      const running = child
      child = undefined
      if (running === undefined || running.exitCode !== null) return
      await new Promise<void>(resolve => {
        running.once('exit', () => resolve())
        running.kill('SIGTERM')
      })
    }
  }
  t.teardown(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  await server.start()
  return server
}

/** Resolves once redis-server says it accepts connections (its log line), rejects if it exits first. */
function launch (args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const onData = (data: Buffer): void => {
      output += data.toString()
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData)
        child.off('exit', onExit)
        // Keep reading, so that a full pipe never blocks it.
        child.stdout?.resume()
        resolve(child)
      }
    }
    const onExit = (code: number | null): void => reject(new Error(`redis-server exited with ${code}: ${output}`))
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (data: Buffer) => { output += data.toString() })
    child.once('exit', onExit)
  })
}

/** A certificate authority and a server certificate for 127.0.0.1 it signed, in `dir`; redis-server's TLS arguments. */
function certificates (dir: string): string[] {
  const file = (name: string): string => join(dir, name)
  const openssl = (...args: string[]): void => { execFileSync('openssl', args, { stdio: 'ignore' }) }
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1', '-subj', '/CN=baas-mock test CA')
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1')
  writeFileSync(file('san.cnf'), 'subjectAltName=IP:127.0.0.1\n')
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('server.pem'), '-days', '1', '-extfile', file('san.cnf'))
  return ['--tls-cert-file', file('server.pem'), '--tls-key-file', file('server.key'), '--tls-ca-cert-file', file('ca.pem'), '--tls-auth-clients', 'no']
}

/** A port nothing listens on now: the system picks it, and it is let go at once. */
async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
