import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse, parseAllDocuments } from 'yaml'
import { SETTINGS } from '../src/config/settings.js'

// compose.yaml and deploy/ are what users copy to run replicas: they must name real settings, the
// port the image listens on, and the health routes the mock serves. test/deploy/compose.podman.test.ts runs them.

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')
const knownEnv = new Set(SETTINGS.map(setting => setting.env))
const exposed = /^EXPOSE (\d+)$/m.exec(read('Dockerfile'))?.[1]

interface ComposeService { image?: string; build?: string; command?: string[]; environment?: Record<string, string>; deploy?: { replicas?: number }; ports?: string[]; volumes?: string[] }

t.test('compose.yaml: two replicas of the image on one Redis, behind nginx', async t => {
  const { services } = parse(read('compose.yaml')) as { services: Record<string, ComposeService> }
  const { redis, mock, lb } = services
  t.match(redis, { image: /^redis:/ }, 'a Redis')
  t.ok(redis?.command?.includes('noeviction'), 'that refuses writes when full rather than evicting sessions')
  t.equal(mock?.build, '.', 'the repository\'s Dockerfile')
  t.equal(mock?.deploy?.replicas, 2)
  t.match(mock?.environment?.MOCK_STORE, /^redis:\/\/redis:6379\//, 'the replicas share the compose Redis')
  for (const name of Object.keys(mock?.environment ?? {})) t.ok(knownEnv.has(name), `${name} is a setting`)
  t.ok(lb?.volumes?.some(volume => volume.startsWith('./deploy/nginx.conf:/etc/nginx/templates/')), 'nginx takes deploy/nginx.conf, as a template')
  t.ok(lb?.volumes?.some(volume => volume.startsWith('./deploy/nginx-resolver.envsh:/docker-entrypoint.d/')), 'into which the image\'s entrypoint writes the container\'s nameserver')
  const nginx = read('deploy/nginx.conf')
  t.match(nginx, new RegExp(`set \\$baas_mock mock:${exposed ?? 'none'};`), 'and balances over the replicas on the port the image exposes')
  t.match(nginx, /resolver \$\{NGINX_RESOLVER\} valid=\d+s/, 'asking the container\'s DNS (Docker\'s or podman\'s) again, so a restarted replica\'s new address is reached')
  t.match(nginx, /proxy_next_upstream [^;]*http_503/, 'skipping a replica that is not ready')
  t.match(nginx, /proxy_connect_timeout [1-5]s;/, 'and, within seconds, an address a restarted replica left')
  t.match(nginx, /location = \/__mock\/events \{[^}]*proxy_buffering off;/, 'the dashboard\'s event stream is not buffered')
})

t.test('compose.yaml: every command works with no variable set (restart and down, not only up)', async t => {
  // Compose interpolates the whole file for every command: a `${VAR:?…}` unset stops `restart` and `down` too.
  const text = read('compose.yaml').split('\n').filter(line => !line.trimStart().startsWith('#')).join('\n')
  const references = [...text.matchAll(/\$\{([A-Z_]+)(:?[-?])?([^}]*)\}/g)]
  t.ok(references.length > 0, 'it reads variables')
  // An empty default is written as none (`${VAR}`, empty when unset): podman-compose 1.0.3 leaves `${VAR:-}` unreplaced.
  for (const [whole, , operator, rest] of references) t.ok(operator === undefined ? rest === '' : !operator.includes('?'), `${whole} never stops a command`)
})

t.test('compose.yaml publishes no well-known admin token: unset, the replicas refuse to start', async t => {
  const { services } = parse(read('compose.yaml')) as { services: Record<string, ComposeService> }
  t.equal(services.mock?.environment?.MOCK_ADMIN_TOKEN, '${MOCK_ADMIN_TOKEN}', 'empty unless .env or the environment sets one')
  const { loadConfig } = await import('../src/config/config-loader.js')
  t.throws(() => loadConfig({ flags: {}, env: { MOCK_ADMIN_TOKEN: '', HOST: '0.0.0.0' }, cwd: process.cwd(), isTTY: false }), { message: /^MOCK_ADMIN_TOKEN: / }, 'an empty token stops the start, naming the variable')
})

t.test('Dockerfile: the image keeps both stores\' drivers, which the package makes optional', async t => {
  const dockerfile = read('Dockerfile')
  t.match(dockerfile, /npm install [^\n]*'better-sqlite3', 'ioredis'/, 'installed at the lockfile\'s versions after the prune')
  t.match(dockerfile, /COPY --from=build \/stores\/node_modules \/node_modules/, 'where Node finds them from /app')
})

t.test('deploy/kubernetes.yaml: a Deployment of 2, ready on /readyz, alive on /healthz, settings from a Secret', async t => {
  const documents = parseAllDocuments(read('deploy/kubernetes.yaml')).map(doc => doc.toJS() as { kind: string; spec?: any; stringData?: Record<string, string> }) // eslint-disable-line @typescript-eslint/no-explicit-any
  const deployment = documents.find(doc => doc.kind === 'Deployment')
  const secret = documents.find(doc => doc.kind === 'Secret')
  t.ok(documents.some(doc => doc.kind === 'Service'), 'a Service')
  t.equal(deployment?.spec.replicas, 2)
  const container = deployment?.spec.template.spec.containers[0]
  t.equal(String(container.ports[0].containerPort), exposed)
  t.match(container.readinessProbe.httpGet, { path: '/readyz', port: 'http' })
  t.match(container.livenessProbe.httpGet, { path: '/healthz', port: 'http' })
  t.match(secret?.stringData?.MOCK_STORE, /^rediss?:\/\//)
  for (const name of [...Object.keys(secret?.stringData ?? {}), ...container.env.map((e: { name: string }) => e.name)]) t.ok(knownEnv.has(name), `${name} is a setting`)
})
