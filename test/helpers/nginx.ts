import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Debian's nginx; .ci/ops-deps installs it. */
export const NGINX = '/usr/sbin/nginx'

/** Why the nginx tests cannot run here, or false when they can. */
export const nginxMissing: string | false = existsSync(NGINX)
  ? false
  : `${NGINX} is not installed (apt-get install nginx; .ci/ops-deps installs it when it runs as root)`

export interface Nginx {
  /** http://127.0.0.1:<port>, the load balancer's address. */
  readonly url: string
  /** What its access log holds so far. */
  accessLog: () => string
}

interface Teardown { teardown: (fn: () => unknown) => void }

/**
 * nginx running the repository's deploy/nginx.conf, changed only in its addresses: it listens on a
 * loopback port instead of 80, asks `dns` instead of the container's nameserver (the template's ${NGINX_RESOLVER}), reaches the replicas on
 * `mockPort` instead of 4010, and writes its access log into a temporary folder.
 */
export async function startNginx (t: Teardown, options: { port: number; dnsPort: number; mockPort: number }): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'baas-nginx-'))
  const site = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8')
  const substitutions: Array<[string, string]> = [
    ['resolver ${NGINX_RESOLVER} ', `resolver 127.0.0.1:${options.dnsPort} `],
    ['listen 80;', `listen 127.0.0.1:${options.port};`],
    ['mock:4010', `mock:${options.mockPort}`],
    ['/var/log/nginx/access.log', join(dir, 'access.log')]
  ]
  let adapted = site
  for (const [from, to] of substitutions) {
    if (!adapted.includes(from)) throw new Error(`deploy/nginx.conf has no "${from}" to adapt`)
    adapted = adapted.split(from).join(to)
  }
  writeFileSync(join(dir, 'site.conf'), adapted)
  // The main file Debian's package would hold, its paths in the temporary folder. As root, the
  // workers stay root: the folder is the test's own (0700).
  const user = process.getuid?.() === 0 ? 'user root;\n' : ''
  writeFileSync(join(dir, 'nginx.conf'), `${user}daemon off;\nworker_processes 1;\npid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')} warn;\n` +
    'events { worker_connections 256; }\n' +
    `http {\n  access_log off;\n${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(kind => `  ${kind}_temp_path ${join(dir, kind)};\n`).join('')}` +
    `  include ${join(dir, 'site.conf')};\n}\n`)
  const child = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()))
  t.teardown(async () => {
    if (child.exitCode === null) {
      child.kill('SIGQUIT')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  })
  const url = `http://127.0.0.1:${options.port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${readFileSync(join(dir, 'error.log'), 'utf8')}`)
    try {
      await fetch(`${url}/healthz`)
      break
    } catch (error) {
      if (i >= 100) throw error
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  }
  return { url, accessLog: () => existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : '' }
}
